import type { AuditAction } from '@common/schemas/audit';
import type { VersionAction } from '@common/schemas/versions';
import { type Db, type Tx, namedStatement } from '../db/client';
import type { Actor } from './audit';
import type { VersionedResource } from './versions';

/** The audit log's noun for each kind of versioned item. */
const AUDITED_AS = { books: 'book', entities: 'entity', 'entity-records': 'record' } as const;

/** How the audit log's sentences tell each kind of change. */
const VERB: Record<VersionAction, string> = {
  create: 'Added',
  update: 'Changed',
  delete: 'Deleted',
  restore: 'Restored',
};

/** An item a change made: its id, its snapshot, and how a sentence names it. */
export interface ChangedItem {
  id: string;
  /** The item as the API shows it, `_version` included. */
  document: Record<string, unknown> & { _version: number };
  /** `the book "Dune"`, `a record of Car`. */
  named: string;
}

/**
 * A change's versions, change events and audit events, one of each per item (the events
 * only when `$7`), in one statement planned once per connection: one round trip rather
 * than three, each of which held a pool connection (and drizzle built each insert anew).
 * The columns are those of `versions`, `change_events` and `audit_events` (db/schema).
 */
const WRITE_CHANGES = `
  with item as (
    select * from jsonb_to_recordset($1::jsonb)
      as item(id text, document jsonb, version int, entity_name text, summary text)
  ),
  versioned as (
    insert into versions (resource, document_id, action, updated_by, document)
    select $2, id::uuid, $3, $4, document from item
  ),
  published as (
    insert into change_events (resource, item_id, entity_name, action, version, actor_id, actor_name)
    select $2, id, entity_name, $3, version, $5, $6 from item where $7
  )
  insert into audit_events (actor_id, actor_name, action, resource, resource_id, ip, user_agent, summary)
  select $5, $6, $8, $9, id, $10, $11, summary from item where $7`;

/**
 * Writes what a change did to versioned items: a version of each (their history), an
 * audit event and a change event of each (unless `audited` is false: a larger change's own
 * events tell it). Call it with the change's transaction, so all of it commits together or
 * not at all.
 */
export async function recordChanges(
  tx: Tx | Db,
  actor: Actor,
  resource: VersionedResource,
  action: VersionAction,
  items: ChangedItem[],
  { audited = true, more = '' }: { audited?: boolean; more?: string } = {},
): Promise<void> {
  if (items.length === 0) return;
  const rows = items.map(({ id, document, named }) => ({
    id,
    document,
    version: document._version,
    entity_name: typeof document.entity_name === 'string' ? document.entity_name : null,
    summary: `${VERB[action]} ${named}${more}`,
  }));
  const noun = AUDITED_AS[resource];
  const auditAction: AuditAction = `${noun}.${action}`;
  await namedStatement(tx, 'write_changes', WRITE_CHANGES, [
    JSON.stringify(rows),
    resource,
    action,
    actor.name ?? '',
    actor.id,
    actor.name,
    audited,
    auditAction,
    noun,
    actor.ip,
    actor.userAgent,
  ]);
}
