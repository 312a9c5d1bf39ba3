import { z } from 'zod';
import { itemVersionSchema } from './itemVersion';
import { exportOptionsSchema, quickSearchSchema } from './exports';
import { nameText } from './text';

/** A role as a user's list of roles names it. */
export const roleRefSchema = z.object({
  _id: z.string(),
  name: z.string(),
});

/** A role (spec section 3); its version counts changes of its members and of its rule. */
export const roleSchema = roleRefSchema.extend({
  _version: itemVersionSchema,
  /** Its members must sign in with a second factor. */
  requireSecondFactor: z.boolean().default(false),
});

/** `PUT /api/roles/{id}/second-factor`. */
export const roleSecondFactorSchema = z.object({ required: z.boolean() });

/** `POST /api/roles`. */
export const createRoleSchema = z.object({
  name: nameText()
    .trim()
    .min(1, 'is required')
    .max(50, 'must be at most 50 characters')
    .regex(/^[A-Za-z0-9_-]+$/, 'may only hold letters, digits, _ and -'),
});

/** A user in a role's assignment list. */
export const roleUserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  hasRole: z.boolean(),
});

export const roleIdParamsSchema = z.object({ id: z.uuid('must be a role id') });
export const roleUserParamsSchema = z.object({
  id: z.uuid('must be a role id'),
  userId: z.uuid('must be a user id'),
});

/** `GET /api/roles/export`: the list's search, and the export's options (by name, as listed). */
export const roleExportQuerySchema = exportOptionsSchema.extend({ q: quickSearchSchema });

export type Role = z.infer<typeof roleSchema>;
export type CreateRoleInput = z.infer<typeof createRoleSchema>;
export type RoleRef = z.infer<typeof roleRefSchema>;
export type RoleUser = z.infer<typeof roleUserSchema>;
