import { type SQL, and, eq, gt, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { RECENTLY_DELETED_LIMIT } from '@common/constants';
import { messages } from '@common/messages';
import type {
  DeletedItem,
  Version,
  VersionAction,
  VersionChange,
  VersionListQuery,
} from '@common/schemas/versions';
import { compareValues, comparedValues } from '@common/versionChanges';
import type { Db, Tx } from '../db/client';
import { versions } from '../db/schema/versions';
import { conflict, notFound } from './errors';

/**
 * The kinds of document that keep a version history. Users and roles keep only their deletes
 * and restores: what a delete took, so that it can be undone.
 */
export type VersionedResource = 'books' | 'entities' | 'entity-records' | 'users' | 'roles';

interface NewVersion {
  resource: VersionedResource;
  documentId: string;
  action: VersionAction;
  updatedBy: string;
  /** The document after the change; for a delete, as it was when deleted. */
  document: Record<string, unknown>;
}

/**
 * Records the versions of a change. Call it with the transaction that made the change, so
 * the change and its versions commit together or not at all.
 */
export async function recordVersions(tx: Tx | Db, entries: NewVersion[]): Promise<void> {
  if (entries.length > 0) await tx.insert(versions).values(entries);
}

type VersionRow = typeof versions.$inferSelect;

// NULLS LAST as the indexes have it (PostgreSQL's DESC alone is NULLS FIRST, which no
// index would serve).
const newestFirst = [
  sql`${versions.versionDate} desc nulls last`,
  sql`${versions.id} desc nulls last`,
];

/** Limits a record's versions to those of a record of `entityName` (no limit when absent). */
const ofEntity = (entityName?: string) =>
  entityName === undefined ? undefined : sql`${versions.document}->>'entity_name' = ${entityName}`;

/** What a version changed against the one before it (nothing exists before the first, nor after a delete). */
function changesOf(previous: VersionRow | undefined, current: VersionRow): VersionChange[] {
  const state = (row: VersionRow | undefined) =>
    !row || row.action === 'delete' ? {} : comparedValues(row.document);
  return compareValues(state(previous), state(current));
}

/**
 * The snapshot of version `versionId` of a document, to restore (`entityName`: of a record
 * of that entity). @throws 404 when the document has no such version.
 */
export async function versionToRestore(
  tx: Tx,
  resource: VersionedResource,
  documentId: string,
  versionId: string,
  entityName?: string,
): Promise<Record<string, unknown>> {
  const [row] = await tx
    .select({ document: versions.document })
    .from(versions)
    .where(
      and(
        eq(versions.resource, resource),
        eq(versions.documentId, documentId),
        eq(versions.id, versionId),
        ofEntity(entityName),
      ),
    );
  if (!row) throw notFound('Version');
  return row.document;
}

/**
 * A document's versions, newest first, each with what it changed (empty when it has none):
 * page `page` of `perPage`, or all of them without `page`. `entityName` limits a record's
 * history to the records of that entity.
 */
export async function listVersions(
  db: Db,
  resource: VersionedResource,
  documentId: string,
  { page, perPage }: Partial<VersionListQuery> = {},
  entityName?: string,
): Promise<Version[]> {
  const query = db
    .select()
    .from(versions)
    .where(
      and(
        eq(versions.resource, resource),
        eq(versions.documentId, documentId),
        ofEntity(entityName),
      ),
    )
    .orderBy(...newestFirst);
  // One more than the page: the page's oldest version is compared with the one before it.
  const rows =
    page === undefined || perPage === undefined
      ? await query
      : await query.limit(perPage + 1).offset((page - 1) * perPage);
  const shown = page === undefined ? rows : rows.slice(0, perPage);
  return shown.map((row, index) => ({
    _id: row.id,
    action: row.action,
    updatedBy: row.updatedBy,
    versionDate: row.versionDate.toISOString(),
    document: row.document,
    changes: changesOf(rows[index + 1], row),
  }));
}

/**
 * The documents whose last version is their delete (so they are gone and can be restored),
 * most recently deleted first; `entityName`: the records of that entity; `readable`: only
 * the deletes whose snapshot it holds for (in the same statement, so the last ones are the
 * last the reader may see).
 */
export async function listDeleted(
  db: Db,
  resource: VersionedResource,
  entityName?: string,
  readable?: SQL,
): Promise<DeletedItem[]> {
  const later = alias(versions, 'later');
  const rows = await db
    .select()
    .from(versions)
    .where(
      and(
        eq(versions.resource, resource),
        eq(versions.action, 'delete'),
        ofEntity(entityName),
        readable,
        notExists(
          db
            .select({ one: sql`1` })
            .from(later)
            .where(
              and(
                eq(later.resource, versions.resource),
                eq(later.documentId, versions.documentId),
                gt(later.versionDate, versions.versionDate),
              ),
            ),
        ),
      ),
    )
    .orderBy(...newestFirst)
    .limit(RECENTLY_DELETED_LIMIT);
  return rows.map((row) => ({
    _id: row.documentId,
    versionId: row.id,
    deletedBy: row.updatedBy,
    deletedAt: row.versionDate.toISOString(),
    document: row.document,
  }));
}

/**
 * The highest `_version` a document's history knows (0 for none): a deleted item that is
 * restored goes on counting from there.
 */
export async function lastKnownVersion(
  tx: Tx,
  resource: VersionedResource,
  documentId: string,
): Promise<number> {
  const [row] = await tx
    .select({ version: sql<number | null>`max((${versions.document}->>'_version')::int)` })
    .from(versions)
    .where(and(eq(versions.resource, resource), eq(versions.documentId, documentId)));
  return row?.version ?? 0;
}

/**
 * What the delete of a document took, to undo it: the snapshot of its last version, which
 * must be that delete. @throws 404 (`what` not found) when it has no history; 409 CONFLICT
 * when its last version is no delete (it was restored meanwhile).
 */
export async function deletedDocument(
  tx: Tx,
  resource: VersionedResource,
  documentId: string,
  what: string,
): Promise<Record<string, unknown>> {
  const [last] = await tx
    .select({ action: versions.action, document: versions.document })
    .from(versions)
    .where(and(eq(versions.resource, resource), eq(versions.documentId, documentId)))
    .orderBy(...newestFirst)
    .limit(1);
  if (!last) throw notFound(what);
  if (last.action !== 'delete') throw conflict('CONFLICT', messages.server.notDeleted);
  return last.document;
}
