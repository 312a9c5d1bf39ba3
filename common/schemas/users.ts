import { z } from 'zod';
import { BULK_MAX_ITEMS } from '../constants';
import { passwordSchema } from './auth';
import { exportOptionsSchema, quickSearchSchema, sortParamSchema } from './exports';
import { baseVersionField, itemVersionSchema } from './itemVersion';
import { roleRefSchema } from './roles';
import { personNameText, singleLineText } from './text';

/** A user as the API shows them: never a password or its hash. */
export const userSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  roles: z.array(roleRefSchema),
  _version: itemVersionSchema,
});

/** A username: one script, unique however it is written (capitals, Unicode forms). */
export const usernameSchema = personNameText()
  .trim()
  .min(1, 'is required')
  .max(100, 'must be at most 100 characters')
  .regex(/^\S*$/, 'must not contain spaces');

/** An optional email: empty means none. */
export const optionalEmailSchema = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
  singleLineText()
    .pipe(z.email('must be a valid email address').max(254))
    .transform((email) => email.toLowerCase())
    .nullable()
    .optional(),
);

/** `POST /api/users`: roles are role ids. */
export const createUserSchema = z.object({
  username: usernameSchema,
  email: optionalEmailSchema,
  password: passwordSchema,
  roles: z.array(z.uuid('must be role ids')).max(100).default([]),
});

/** `PUT /api/users/{id}`. */
export const updateUserSchema = z.object({
  username: usernameSchema,
  email: optionalEmailSchema,
  ...baseVersionField,
});

/** `PUT /api/users/{id}/password`: an administrator sets a user's password. */
export const setPasswordSchema = z.object({ password: passwordSchema });

export const userIdParamsSchema = z.object({ id: z.uuid('must be a user id') });

/** `POST /api/users/bulk-delete` and `bulk-restore`: the users to delete or bring back, by id. */
export const bulkUsersSchema = z.object({
  ids: z
    .array(z.uuid('must be user ids'))
    .min(1, 'must name at least one user')
    .max(BULK_MAX_ITEMS, `must name at most ${BULK_MAX_ITEMS} users`),
});

/** `GET /api/users/export`: the list's search and sort (as the grid has them), and the export's options. */
export const userExportQuerySchema = exportOptionsSchema.extend({
  q: quickSearchSchema,
  sort: sortParamSchema(['username', 'email']),
});
export type UserExportQuery = z.infer<typeof userExportQuerySchema>;

export type User = z.infer<typeof userSchema>;
export type CreateUserInput = z.input<typeof createUserSchema>;
export type UpdateUserInput = z.input<typeof updateUserSchema>;
export type SetPasswordInput = z.infer<typeof setPasswordSchema>;

/** The fields a users file's columns can be imported as (`POST /api/users/import`). */
export const USER_IMPORT_FIELDS = [
  { name: 'username', label: 'Username' },
  { name: 'email', label: 'Email' },
  { name: 'password', label: 'Password' },
  { name: 'roles', label: 'Roles' },
];
