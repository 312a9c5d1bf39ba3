import { z } from 'zod';

/** An editable item's `_version`: 1 at creation, +1 per change (DESIGN, Concurrency). */
export const itemVersionSchema = z.number().int().positive();

/**
 * What a PUT body may add: the `_version` the edit started from. A stale one answers 409
 * VERSION_CONFLICT; without it (or `If-Match`), the last write wins.
 */
export const baseVersionField = {
  _version: z
    .number({ error: 'must be a version number' })
    .int('must be a version number')
    .positive('must be a version number')
    .optional(),
};
