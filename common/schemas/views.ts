import { z } from 'zod';
import { roleRefSchema } from './roles';
import { nameText, singleLineText } from './text';

/** The most saved views one owner (a user, or a role) keeps on one list. */
export const VIEWS_PER_GRID_MAX = 50;

/** The longest view a list's URL can hold (its query, without the `?`). */
export const VIEW_QUERY_MAX_LENGTH = 2000;

/**
 * The lists that have views: `users`, `jobs`, `audit`, and `records/<entity name>` (an
 * entity's records; the name as the entity form keeps it).
 */
export const gridNameSchema = singleLineText().regex(
  /^(users|jobs|audit|records\/[A-Za-z0-9_]{1,64})$/,
  'must name a list: users, jobs, audit or records/<entity name>',
);

/** A view as the list's URL holds it: its query without the `?` (`q=ada&sort=email:desc`). */
const viewQuerySchema = singleLineText()
  .max(VIEW_QUERY_MAX_LENGTH, `must be at most ${VIEW_QUERY_MAX_LENGTH} characters`)
  .refine((query) => !query.startsWith('?'), 'must not start with ?');

const viewNameSchema = nameText({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(60, 'must be at most 60 characters');

/**
 * A saved view of a list: a name for a query of its URL (filter, sort, page size, columns),
 * kept for its owner, or for everyone in a role (`role`). `mine`: the caller saved it.
 */
export const savedViewSchema = z.object({
  _id: z.string(),
  grid: z.string(),
  name: z.string(),
  query: z.string(),
  role: roleRefSchema.nullable(),
  mine: z.boolean(),
});

/** `GET /api/views?grid=users`: the caller's views of a list, and those of their roles. */
export const viewListQuerySchema = z.object({ grid: gridNameSchema });

/** `POST /api/views`: a view for the caller. */
export const createViewSchema = z.object({
  grid: gridNameSchema,
  name: viewNameSchema,
  query: viewQuerySchema,
});

/** `POST /api/role-views`: a view for everyone in a role. */
export const createRoleViewSchema = createViewSchema.extend({
  roleId: z.uuid('must be a role id'),
});

/** `PUT /api/views/:id` and `/api/role-views/:id`: a new name, a new query, or both. */
export const updateViewSchema = z
  .object({ name: viewNameSchema, query: viewQuerySchema })
  .partial()
  .refine((body) => body.name !== undefined || body.query !== undefined, {
    message: 'must change the name or the query',
  });

export const viewIdParamsSchema = z.object({ id: z.uuid('must be a view id') });

export type SavedView = z.infer<typeof savedViewSchema>;
export type CreateViewInput = z.infer<typeof createViewSchema>;
export type CreateRoleViewInput = z.infer<typeof createRoleViewSchema>;
export type UpdateViewInput = z.infer<typeof updateViewSchema>;
