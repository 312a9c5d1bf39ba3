import type { AuditAction } from '@common/schemas/audit';
import type { VersionAction } from '@common/schemas/versions';
import { type Db, type Session, type Tx, namedQuery, namedStatement } from '../db/client';
import type { Actor } from './audit';

/** The audit log's noun for each kind of versioned item. */
const AUDITED_AS = { books: 'book', entities: 'entity', 'entity-records': 'record' } as const;

/** The kinds of item whose every change keeps a version (users and roles keep only deletes). */
type ChangedResource = keyof typeof AUDITED_AS;

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

/** The columns of a change's items, one row per item: what `writingChanges` reads. */
const ITEM_COLUMNS = 'id text, document jsonb, version int, entity_name text, summary text';

/**
 * A statement that writes a change's versions, change events and audit events, one of each
 * per item of `items` (the events only when `$6`), and answers the items' ids. `items` is
 * SQL answering rows of ITEM_COLUMNS, with parameters `$1` to `$taken`; this statement's
 * own follow (see changeValues), numbered from there. The columns written are those of
 * `versions`, `change_events` and `audit_events` (db/schema).
 */
function writingChanges(items: string, taken: number) {
  const $ = (n: number) => `$${taken + n}`;
  return `
  with item as (${items}),
  versioned as (
    insert into versions (resource, document_id, action, updated_by, document)
    select ${$(1)}, id::uuid, ${$(2)}, ${$(3)}, document from item
  ),
  published as (
    insert into change_events (resource, item_id, entity_name, action, version, actor_id, actor_name)
    select ${$(1)}, id, entity_name, ${$(2)}, version, ${$(4)}, ${$(5)} from item where ${$(6)}
  ),
  audited as (
    insert into audit_events (actor_id, actor_name, action, resource, resource_id, ip, user_agent, summary)
    select ${$(4)}, ${$(5)}, ${$(7)}, ${$(8)}, id, ${$(9)}, ${$(10)}, summary from item where ${$(6)}
  )
  select id from item`;
}

/** The values of writingChanges' own parameters, in order. */
function changeValues(
  actor: Actor,
  resource: ChangedResource,
  action: VersionAction,
  audited: boolean,
): unknown[] {
  const noun = AUDITED_AS[resource];
  const auditAction: AuditAction = `${noun}.${action}`;
  return [
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
  ];
}

/** The audit log's sentence for a change to the item `named` (`Added a record of Car`). */
export const changeSummary = (action: VersionAction, named: string) => `${VERB[action]} ${named}`;

/**
 * A change's versions, change events and audit events from a list of items, in one
 * statement planned once per connection: one round trip rather than three.
 */
const WRITE_CHANGES = writingChanges(
  `select * from jsonb_to_recordset($1::jsonb) as item(${ITEM_COLUMNS})`,
  1,
);

/**
 * Writes what a change did to versioned items: a version of each (their history), an
 * audit event and a change event of each (unless `audited` is false: a larger change's own
 * events tell it). Call it with the change's transaction, so all of it commits together or
 * not at all.
 */
export async function recordChanges(
  tx: Tx | Db,
  actor: Actor,
  resource: ChangedResource,
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
    summary: changeSummary(action, named) + more,
  }));
  await namedStatement(tx, 'write_changes', WRITE_CHANGES, [
    JSON.stringify(rows),
    ...changeValues(actor, resource, action, audited),
  ]);
}

/**
 * Makes a change and writes what it did (as recordChanges does) in one statement, so the
 * two commit together without a transaction: one round trip where a transaction took four
 * (begin, the change, what it did, commit), on a connection held for all of them.
 * `change` (named `name`, planned once per connection) is one data-modifying statement
 * whose RETURNING answers the changed items' rows as ITEM_COLUMNS; `values` are its
 * parameters. Answers the changed items' ids: none when it changed nothing. `audited`:
 * false when a larger change's own events tell it (an import), as recordChanges.
 */
export async function changeAndRecord(
  session: Session,
  name: string,
  change: { text: string; values: unknown[] },
  actor: Actor,
  resource: ChangedResource,
  action: VersionAction,
  { audited = true }: { audited?: boolean } = {},
): Promise<string[]> {
  const rows = await namedQuery<{ id: string }>(
    session,
    name,
    writingChanges(change.text, change.values.length),
    [...change.values, ...changeValues(actor, resource, action, audited)],
  );
  return rows.map((row) => row.id);
}
