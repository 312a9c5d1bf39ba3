import { z } from 'zod';

/** What made a version: the item was created, updated, deleted, or restored from a version. */
export const versionActionSchema = z.enum(['create', 'update', 'delete', 'restore']);

/** One field a version changed; `null` where the field had, or has, no value. */
export const versionChangeSchema = z.object({
  field: z.string(),
  from: z.unknown(),
  to: z.unknown(),
});

/**
 * One entry of a version history (spec section 3): who, when, and the snapshot, plus what
 * made it and what it changed against the version before it (records: per field of
 * `fields`). A delete's snapshot is the item as it was deleted.
 */
export const versionSchema = z.object({
  _id: z.string(),
  action: versionActionSchema,
  updatedBy: z.string(),
  versionDate: z.string(),
  document: z.record(z.string(), z.unknown()),
  changes: z.array(versionChangeSchema),
});

/** The version to restore: `…/versions/{versionId}/restore`. */
export const versionIdSchema = z.uuid('must be a version id');

export type VersionAction = z.infer<typeof versionActionSchema>;
export type VersionChange = z.infer<typeof versionChangeSchema>;
export type Version = z.infer<typeof versionSchema>;
