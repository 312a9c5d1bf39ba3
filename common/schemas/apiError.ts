import { z } from 'zod';
import { ERROR_CODES } from '../errorCodes';

/** One field that failed validation: where it is in the request, and what is wrong with it. */
export const fieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
});

/**
 * The body of every error the API answers (DESIGN: `{ statusCode, error, code, message }`):
 * `code` from the catalogue in `common/errorCodes.ts`; a 400 also names its fields, a
 * VERSION_CONFLICT carries the `current` item, a REFERENCED the `count` of
 * what points at it, a DEFINITION_CONFLICT the `report` of the records that cannot follow.
 */
export const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  fields: z.array(fieldErrorSchema).optional(),
  /** VERSION_CONFLICT: the item as it is now. */
  current: z.unknown().optional(),
  /** REFERENCED: how many records still point at the item. */
  count: z.number().int().optional(),
  /**
   * DEFINITION_CONFLICT: what the change would do, and which records could not follow;
   * BULK_REFUSED: `{ items: [{ id, code, message }] }`, the items refused and why.
   */
  report: z.unknown().optional(),
});

export type FieldError = z.infer<typeof fieldErrorSchema>;
export type ApiError = z.infer<typeof apiErrorSchema>;
