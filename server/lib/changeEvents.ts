import type { ChangeAction, ChangeResource } from '@common/schemas/events';
import type { Db, Tx } from '../db/client';
import { changeEvents } from '../db/schema/changeEvents';
import type { Actor } from './audit';

/** An item a change made, as the event stream tells it. */
export interface ChangedItemEvent {
  resource: ChangeResource;
  id: string;
  action: ChangeAction;
  /** The item's version after the change (for a delete, the version deleted). */
  version: number;
  /** A record's entity. */
  entityName?: string;
}

/**
 * Writes the change events of a change (each server's event stream hears them by NOTIFY
 * once the change commits). Call it with the change's transaction: a change that rolls
 * back tells nobody.
 */
export async function publishChanges(
  tx: Tx | Db,
  actor: Actor,
  events: ChangedItemEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.insert(changeEvents).values(
    events.map(({ resource, id, action, version, entityName }) => ({
      resource,
      itemId: id,
      entityName: entityName ?? null,
      action,
      version,
      actorId: actor.id,
      actorName: actor.name,
    })),
  );
}
