import { z } from 'zod';

/** One entry of a version history (spec section 3): who, when, and the snapshot. */
export const versionSchema = z.object({
  updatedBy: z.string(),
  versionDate: z.string(),
  document: z.record(z.string(), z.unknown()),
});

export type Version = z.infer<typeof versionSchema>;
