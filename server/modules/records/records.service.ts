import { and, asc, eq, sql } from 'drizzle-orm';
import { messages } from '@common/messages';
import type { EntityRecord } from '@common/schemas/entities';
import type {
  DeletedItem,
  Version,
  VersionAction,
  VersionListQuery,
} from '@common/schemas/versions';
import {
  type Db,
  type Session,
  type Tx,
  namedQuery,
  onOneConnection,
  sessionOf,
} from '../../db/client';
import { type EntityField, entityRecords } from '../../db/schema/entities';
import type { Actor } from '../../lib/audit';
import { changeAndRecord, changeSummary, recordChanges } from '../../lib/changes';
import { checkVersion } from '../../lib/concurrency';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { lastKnownVersion, listDeleted, listVersions, versionToRestore } from '../../lib/versions';

/** The field names of an entity's definition. @throws 404 for an unknown entity. */
async function fieldNamesOf(session: Session, entityName: string): Promise<string[]> {
  const [entity] = await namedQuery<{ fields: EntityField[] }>(
    session,
    'entity_fields',
    'select fields from entities where name = $1',
    [entityName],
  );
  if (!entity) throw notFound('Entity');
  return entity.fields.map((field) => field.name);
}

/** The id is a record's of another entity (the 409 the primary key gives a create). */
const recordIdTaken = () => conflict('ID_TAKEN', messages.server.recordIdTaken);

/** @throws 400 naming the keys that are not fields of the definition. */
function checkKeys(fields: Record<string, string>, allowed: string[]) {
  const unknown = Object.keys(fields).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw badRequest(`Not fields of this entity: ${unknown.join(', ')}`, [
      { field: 'body.fields', message: `unknown fields: ${unknown.join(', ')}` },
    ]);
  }
}

type RecordRow = Pick<
  typeof entityRecords.$inferSelect,
  'id' | 'entityName' | 'fields' | 'version'
>;

/**
 * What a write of a record answers: its row as a changed item (lib/changes.ts), its
 * document as toWire makes it (the values of the fields named by the text array `names`).
 */
const returningItem = (names: string, summary: string) => `returning id::text as id,
  jsonb_build_object('_id', id, 'entity_name', entity_name, '_version', version,
    'fields', (select coalesce(jsonb_object_agg(f.key, f.value), '{}') from jsonb_each(fields) as f
               where f.key = any(${names}::text[]))) as document,
  version, entity_name, ${summary}::text as summary`;

/** How the audit log names a record of `entityName`. */
const aRecordOf = (entityName: string) => `a record of ${entityName}`;

/** Only the values of fields the definition still has: removed fields live on in old versions only. */
function toWire(row: RecordRow, fieldNames: string[]): EntityRecord {
  const fields: Record<string, string> = {};
  for (const name of fieldNames) if (name in row.fields) fields[name] = row.fields[name]!;
  return { _id: row.id, entity_name: row.entityName, fields, _version: row.version };
}

/**
 * Records' changes, in their histories and (unless the entity's own event tells it) in the
 * audit log, within the change's transaction.
 */
const recordRecordChanges = (
  tx: Tx,
  records: EntityRecord[],
  action: VersionAction,
  actor: Actor,
  { audited = true } = {},
) =>
  recordChanges(
    tx,
    actor,
    'entity-records',
    action,
    records.map((record) => ({
      id: record._id,
      document: record,
      named: aRecordOf(record.entity_name),
    })),
    { audited },
  );

/** An entity's records, oldest first. @throws 404 for an unknown entity. */
export async function listRecords(db: Db, entityName: string): Promise<EntityRecord[]> {
  const fieldNames = await fieldNamesOf(sessionOf(db), entityName);
  const rows = await db
    .select()
    .from(entityRecords)
    .where(eq(entityRecords.entityName, entityName))
    .orderBy(asc(entityRecords.createdAt), asc(entityRecords.id));
  return rows.map((row) => toWire(row, fieldNames));
}

/**
 * Adds a record (with the id the client chose, if any) and its first version.
 * @throws 404 for an unknown entity; 400 for keys that are not its fields; 409 ID_TAKEN for a
 * taken id (the primary key, translated by `lib/pgErrors.ts`).
 */
export async function createRecord(
  db: Db,
  entityName: string,
  input: { _id?: string; fields: Record<string, string> },
  actor: Actor,
): Promise<{ _id: string }> {
  // Creating and deleting records are the hot writes: the write and its history are one
  // statement (changeAndRecord), after the definition, on one connection.
  return onOneConnection(sessionOf(db), async (session) => {
    const fieldNames = await fieldNamesOf(session, entityName);
    checkKeys(input.fields, fieldNames);
    const [id] = await changeAndRecord(
      session,
      'record_insert',
      {
        text: `insert into entity_records (id, entity_name, fields)
               values (coalesce($1::uuid, gen_random_uuid()), $2, $3::jsonb)
               ${returningItem('$4', '$5')}`,
        values: [
          input._id ?? null,
          entityName,
          JSON.stringify(input.fields),
          fieldNames,
          changeSummary('create', aRecordOf(entityName)),
        ],
      },
      actor,
      'entity-records',
      'create',
    );
    return { _id: id! };
  });
}

/**
 * Replaces a record's field values and records the version.
 * @throws 404 for an unknown entity or record; 400 for keys that are not its fields; 409
 * VERSION_CONFLICT when `base` names another version than the current one.
 */
export async function updateRecord(
  db: Db,
  entityName: string,
  id: string,
  fields: Record<string, string>,
  actor: Actor,
  base: readonly number[] = [],
): Promise<EntityRecord> {
  return db.transaction(async (tx) => {
    const fieldNames = await fieldNamesOf(sessionOf(tx), entityName);
    checkKeys(fields, fieldNames);
    const [current] = await tx
      .select()
      .from(entityRecords)
      .where(and(eq(entityRecords.id, id), eq(entityRecords.entityName, entityName)))
      .for('update');
    if (!current) throw notFound('Record');
    await checkVersion(current, base, () => toWire(current, fieldNames));
    const [row] = await tx
      .update(entityRecords)
      .set({ fields, version: sql`${entityRecords.version} + 1`, updatedAt: new Date() })
      .where(eq(entityRecords.id, id))
      .returning();
    const record = toWire(row!, fieldNames);
    await recordRecordChanges(tx, [record], 'update', actor);
    return record;
  });
}

/** Deletes a record and records it in its history (which stays). @throws 404. */
export async function deleteRecord(
  db: Db,
  entityName: string,
  id: string,
  actor: Actor,
): Promise<void> {
  await onOneConnection(sessionOf(db), async (session) => {
    const fieldNames = await fieldNamesOf(session, entityName);
    const deleted = await changeAndRecord(
      session,
      'record_delete',
      {
        text: `delete from entity_records where id = $1 and entity_name = $2
               ${returningItem('$3', '$4')}`,
        values: [id, entityName, fieldNames, changeSummary('delete', aRecordOf(entityName))],
      },
      actor,
      'entity-records',
      'delete',
    );
    if (!deleted.length) throw notFound('Record');
  });
}

/**
 * Deletes every record of an entity, each delete in its history (within `tx`; the entity's
 * delete is the audit event). Answers how many there were.
 */
export async function deleteRecordsOf(
  tx: Tx,
  entityName: string,
  fieldNames: string[],
  actor: Actor,
): Promise<number> {
  const deleted = await tx
    .delete(entityRecords)
    .where(eq(entityRecords.entityName, entityName))
    .returning();
  const records = deleted.map((row) => toWire(row, fieldNames));
  await recordRecordChanges(tx, records, 'delete', actor, { audited: false });
  return records.length;
}

/**
 * Makes version `versionId` of a record of `entityName` current again (a deleted one comes
 * back with its id) and records a `restore` version, in one transaction. Values of fields
 * the definition no longer has stay in the history only.
 * @throws 404 for an unknown entity, or when the record has no such version there; 409
 * VERSION_CONFLICT when `base` names another version than the current one, ID_TAKEN when
 * its id is now a record's of another entity.
 */
export async function restoreRecord(
  db: Db,
  entityName: string,
  id: string,
  versionId: string,
  actor: Actor,
  base: readonly number[] = [],
): Promise<EntityRecord> {
  return db.transaction(async (tx) => {
    const fieldNames = await fieldNamesOf(sessionOf(tx), entityName);
    const snapshot = await versionToRestore(tx, 'entity-records', id, versionId, entityName);
    const fields = (snapshot.fields ?? {}) as Record<string, string>;
    const [current] = await tx
      .select()
      .from(entityRecords)
      .where(eq(entityRecords.id, id))
      .for('update');
    // A deleted record's id may since have been given to a record of another entity.
    if (current && current.entityName !== entityName) throw recordIdTaken();
    if (current) await checkVersion(current, base, () => toWire(current, fieldNames));
    const version = (current?.version ?? (await lastKnownVersion(tx, 'entity-records', id))) + 1;
    const [row] = await tx
      .insert(entityRecords)
      .values({ id, entityName, fields, version })
      .onConflictDoUpdate({
        target: entityRecords.id,
        set: { fields, version, updatedAt: new Date() },
        // Taken meanwhile by another entity's record: that one stays as it is.
        setWhere: eq(entityRecords.entityName, entityName),
      })
      .returning();
    if (!row) throw recordIdTaken();
    const record = toWire(row, fieldNames);
    await recordRecordChanges(tx, [record], 'restore', actor);
    return record;
  });
}

/**
 * A record's versions, newest first (a page of them, or all), if it is (or was) a record of
 * `entityName`. @throws 404 when it never existed there.
 */
export async function listRecordVersions(
  db: Db,
  entityName: string,
  id: string,
  query?: VersionListQuery,
): Promise<Version[]> {
  const history = await listVersions(db, 'entity-records', id, query, entityName);
  if (history.length === 0 && (query?.page ?? 1) === 1) throw notFound('Record');
  return history;
}

/**
 * The records of `entityName` deleted and not restored since, most recently deleted first.
 * @throws 404 for an unknown entity.
 */
export async function listDeletedRecords(db: Db, entityName: string): Promise<DeletedItem[]> {
  await fieldNamesOf(sessionOf(db), entityName);
  return listDeleted(db, 'entity-records', entityName);
}
