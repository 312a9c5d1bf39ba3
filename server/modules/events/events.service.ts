import { asc, gt, sql } from 'drizzle-orm';
import type { ChangeEvent, PresenceEvent } from '@common/schemas/events';
import type { Db } from '../../db/client';
import { changeEvents } from '../../db/schema/changeEvents';

/** The NOTIFY channels the event stream hears: change_events' trigger, and presence. */
export const CHANGES_CHANNEL = 'change_events';
export const PRESENCE_CHANNEL = 'presence';

/** The most a reconnecting stream catches up on; past it, its client refetches everything. */
export const REPLAY_LIMIT = 500;

const toEvent = (row: typeof changeEvents.$inferSelect): ChangeEvent => ({
  eventId: row.id,
  resource: row.resource as ChangeEvent['resource'],
  id: row.itemId,
  entityName: row.entityName,
  action: row.action as ChangeEvent['action'],
  version: row.version,
  actorId: row.actorId,
  actor: row.actorName,
});

/**
 * The changes after event `lastId`, oldest first; undefined when they cannot all be told
 * (more than REPLAY_LIMIT, or some already pruned): the client must refetch instead.
 */
export async function changesSince(db: Db, lastId: number): Promise<ChangeEvent[] | undefined> {
  const rows = await db
    .select()
    .from(changeEvents)
    .where(gt(changeEvents.id, lastId))
    .orderBy(asc(changeEvents.id))
    .limit(REPLAY_LIMIT + 1);
  if (rows.length > REPLAY_LIMIT) return undefined;
  // Pruned past the client's last event: what came between is gone.
  const [kept] = await db
    .select({ oldest: sql<string | null>`min(${changeEvents.id})` })
    .from(changeEvents);
  if (kept?.oldest != null && Number(kept.oldest) > lastId + 1) return undefined;
  return rows.map(toEvent);
}

/**
 * A presence as the servers tell it to each other: with the event stream it came with, if
 * any, so that the server holding that stream can end it when the stream closes.
 */
export type AnnouncedPresence = PresenceEvent & { streamId?: string };

/** Tells every server's streams that someone is (or stopped) editing an item. */
export async function announcePresence(db: Db, presence: AnnouncedPresence): Promise<void> {
  await db.execute(sql`select pg_notify(${PRESENCE_CHANNEL}, ${JSON.stringify(presence)})`);
}
