import { z } from 'zod';
import { nameText } from './text';

/** The kinds of item whose changes the event stream tells (DESIGN, Live updates). */
export const CHANGE_RESOURCES = [
  'books',
  'users',
  'roles',
  'entities',
  'entity-records',
  'routes',
] as const;
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];

export const CHANGE_ACTIONS = ['create', 'update', 'delete', 'restore'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/**
 * `event: change` of `GET /api/events`: an item was created, updated, deleted or restored
 * by `actor` (a username) and is now at `version`. Its SSE `id` is `eventId`, which a
 * reconnecting stream sends back as `Last-Event-ID`.
 */
export const changeEventSchema = z.object({
  eventId: z.number().int(),
  resource: z.enum(CHANGE_RESOURCES),
  id: z.string(),
  /** For a record: its entity. */
  entityName: z.string().nullable(),
  action: z.enum(CHANGE_ACTIONS),
  version: z.number().int(),
  actorId: z.string().nullable(),
  actor: z.string().nullable(),
});
export type ChangeEvent = z.infer<typeof changeEventSchema>;

/**
 * `event: ready`: the stream has caught up and hears what comes next. `streamId` names the
 * stream: a presence announced with it (presenceInputSchema) ends when the stream closes.
 */
export const readyEventSchema = z.object({ streamId: z.uuid() });
export type ReadyEvent = z.infer<typeof readyEventSchema>;

/**
 * `event: presence`: `actor` is editing the item (or stopped, `editing: false`). A client
 * forgets it after PRESENCE_TTL_MS without a repeat; the server ends it sooner when the
 * editor's event stream closes (see presenceInputSchema's `streamId`).
 */
export const presenceEventSchema = z.object({
  resource: z.enum(CHANGE_RESOURCES),
  id: z.string(),
  entityName: z.string().nullable(),
  editing: z.boolean(),
  actorId: z.string(),
  actor: z.string(),
});
export type PresenceEvent = z.infer<typeof presenceEventSchema>;

/**
 * `POST /api/events/presence`: the caller is editing an item (sent every PRESENCE_BEAT_MS), or
 * stopped. With `streamId`, the presence also ends as soon as that event stream of the
 * caller's closes (their tab is gone); without it, only when it is not repeated within
 * PRESENCE_TTL_MS.
 */
export const presenceInputSchema = z.object({
  resource: z.enum(CHANGE_RESOURCES),
  id: z.uuid('must be an item id'),
  entityName: nameText().min(1).max(64).nullable().default(null),
  editing: z.boolean(),
  streamId: z
    .uuid('must be an event stream id')
    .optional()
    .describe(
      "The `streamId` of the `ready` event of the caller's own event stream: the presence ends when that stream closes",
    ),
});
export type PresenceInput = z.input<typeof presenceInputSchema>;
