import type { AuditAction } from '@common/schemas/audit';
import type { VersionAction } from '@common/schemas/versions';
import type { Db, Tx } from '../db/client';
import { type Actor, recordAudit } from './audit';
import { publishChanges } from './changeEvents';
import { type VersionedResource, recordVersions } from './versions';

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
  await recordVersions(
    tx,
    items.map((item) => ({
      resource,
      documentId: item.id,
      action,
      updatedBy: actor.name ?? '',
      document: item.document,
    })),
  );
  if (!audited) return;
  await publishChanges(
    tx,
    actor,
    items.map(({ id, document }) => ({
      resource,
      id,
      action,
      version: document._version,
      entityName: typeof document.entity_name === 'string' ? document.entity_name : undefined,
    })),
  );
  await recordAudit(
    tx,
    actor,
    ...items.map((item) => ({
      action: `${AUDITED_AS[resource]}.${action}` as AuditAction,
      resourceId: item.id,
      summary: `${VERB[action]} ${item.named}${more}`,
    })),
  );
}
