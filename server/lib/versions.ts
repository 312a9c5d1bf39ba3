import { and, desc, eq } from 'drizzle-orm';
import type { Version } from '@common/schemas/versions';
import type { Db, Tx } from '../db/client';
import { versions } from '../db/schema/versions';

/** The kinds of document that keep a version history. */
export type VersionedResource = 'books' | 'entities' | 'entity-records';

/**
 * Records a snapshot of a document after a change. Call it with the transaction that
 * made the change, so the change and its version commit together or not at all.
 */
export async function recordVersion(
  tx: Tx | Db,
  resource: VersionedResource,
  documentId: string,
  updatedBy: string,
  document: Record<string, unknown>,
): Promise<void> {
  await tx.insert(versions).values({ resource, documentId, updatedBy, document });
}

/** A document's versions, newest first (empty when it has none). */
export async function listVersions(
  db: Db,
  resource: VersionedResource,
  documentId: string,
): Promise<Version[]> {
  const rows = await db
    .select()
    .from(versions)
    .where(and(eq(versions.resource, resource), eq(versions.documentId, documentId)))
    .orderBy(desc(versions.versionDate), desc(versions.id));
  return rows.map((row) => ({
    updatedBy: row.updatedBy,
    versionDate: row.versionDate.toISOString(),
    document: row.document,
  }));
}
