import { z } from 'zod';
import { VERSION_PAGE_SIZE } from '../constants';
import { pageNumberSchema, perPageSchema } from './paging';

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

/**
 * `GET …/versions?page&perPage`: a page of a history, newest first; without `page`, the whole
 * history (the spec's call).
 */
export const versionListQuerySchema = z.object({
  page: pageNumberSchema.optional(),
  perPage: perPageSchema(VERSION_PAGE_SIZE),
});

/**
 * An item whose last version is its delete, so it can be restored: `GET …/recently-deleted`
 * answers these, most recently deleted first. `_id` is the item's; restore it with
 * `versionId` (its snapshot as it was deleted).
 */
export const deletedItemSchema = z.object({
  _id: z.string(),
  versionId: z.string(),
  deletedBy: z.string(),
  deletedAt: z.string(),
  document: z.record(z.string(), z.unknown()),
});

/** The version to restore: `…/versions/{versionId}/restore`. */
export const versionIdSchema = z.uuid('must be a version id');

export type VersionAction = z.infer<typeof versionActionSchema>;
export type VersionChange = z.infer<typeof versionChangeSchema>;
export type Version = z.infer<typeof versionSchema>;
export type VersionListQuery = z.infer<typeof versionListQuerySchema>;
export type DeletedItem = z.infer<typeof deletedItemSchema>;
