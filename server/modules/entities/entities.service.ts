import { asc, eq, sql } from 'drizzle-orm';
import type { Entity } from '@common/schemas/entities';
import type {
  DeletedItem,
  Version,
  VersionAction,
  VersionListQuery,
} from '@common/schemas/versions';
import type { Db, Tx } from '../../db/client';
import { entities, type EntityField } from '../../db/schema/entities';
import type { Actor } from '../../lib/audit';
import { recordChanges } from '../../lib/changes';
import { checkVersion } from '../../lib/concurrency';
import { badRequest, notFound } from '../../lib/errors';
import { looksLikeUuid } from '../../lib/uuid';
import { lastKnownVersion, listDeleted, listVersions, versionToRestore } from '../../lib/versions';
import { deleteRecordsOf } from '../records/records.service';

interface EntityInput {
  name: string;
  description: string;
  category: string;
  fields: EntityField[];
}

const toWire = (row: typeof entities.$inferSelect): Entity => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  category: row.category,
  fields: row.fields,
  _version: row.version,
});

/** Every entity definition, by category then name. */
export async function listEntities(db: Db): Promise<Entity[]> {
  const rows = await db.select().from(entities).orderBy(asc(entities.category), asc(entities.name));
  return rows.map(toWire);
}

/** A definition's change, in its history and in the audit log (within the change's transaction). */
const recordEntityChange = (
  tx: Tx,
  entity: Entity,
  action: VersionAction,
  actor: Actor,
  more = '',
) =>
  recordChanges(
    tx,
    actor,
    'entities',
    action,
    [{ id: entity._id, document: entity, named: `the entity ${entity.name}` }],
    { more },
  );

/** One definition, by id or by name. @throws 404. */
export async function getEntity(db: Db, idOrName: string): Promise<Entity> {
  const [row] = await db
    .select()
    .from(entities)
    .where(looksLikeUuid(idOrName) ? eq(entities.id, idOrName) : eq(entities.name, idOrName));
  if (!row) throw notFound('Entity');
  return toWire(row);
}

/**
 * Defines an entity and records its first version.
 * @throws 409 NAME_TAKEN when the name is taken (its unique constraint, translated by
 * `lib/pgErrors.ts`).
 */
export async function createEntity(db: Db, input: EntityInput, actor: Actor): Promise<Entity> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(entities).values(input).returning();
    const entity = toWire(row!);
    await recordEntityChange(tx, entity, 'create', actor);
    return entity;
  });
}

/**
 * Changes a definition's description, category and fields, and records the version.
 * @throws 404 for an unknown entity; 400 when the name differs (it never changes); 409
 * VERSION_CONFLICT when `base` names another version than the current one.
 */
export async function updateEntity(
  db: Db,
  id: string,
  input: EntityInput,
  actor: Actor,
  base: readonly number[] = [],
): Promise<Entity> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(entities).where(eq(entities.id, id)).for('update');
    if (!current) throw notFound('Entity');
    await checkVersion(current, base, () => toWire(current));
    if (current.name !== input.name) {
      throw badRequest('The name of an entity cannot change', [
        { field: 'body.name', message: 'cannot change' },
      ]);
    }
    const [row] = await tx
      .update(entities)
      .set({
        description: input.description,
        category: input.category,
        fields: input.fields,
        version: sql`${entities.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(entities.id, id))
      .returning();
    const entity = toWire(row!);
    await recordEntityChange(tx, entity, 'update', actor);
    return entity;
  });
}

/**
 * Deletes a definition and its records, each delete in its history, in one transaction.
 * @throws 404.
 */
export async function deleteEntity(db: Db, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(entities).where(eq(entities.id, id)).for('update');
    if (!current) throw notFound('Entity');
    const entity = toWire(current);
    const records = await deleteRecordsOf(
      tx,
      entity.name,
      entity.fields.map((field) => field.name),
      actor,
    );
    await tx.delete(entities).where(eq(entities.id, id));
    await recordEntityChange(tx, entity, 'delete', actor, ` and its ${records} records`);
  });
}

/**
 * Makes version `versionId` of a definition current again (a deleted one comes back with its
 * id and name, without its records: each can be restored from its own history) and records
 * a `restore` version, in one transaction.
 * @throws 404 when it has no such version; 409 NAME_TAKEN when another entity took its name,
 * VERSION_CONFLICT when `base` names another version than the current one.
 */
export async function restoreEntity(
  db: Db,
  id: string,
  versionId: string,
  actor: Actor,
  base: readonly number[] = [],
): Promise<Entity> {
  return db.transaction(async (tx) => {
    const snapshot = (await versionToRestore(tx, 'entities', id, versionId)) as Entity;
    const [current] = await tx.select().from(entities).where(eq(entities.id, id)).for('update');
    if (current) await checkVersion(current, base, () => toWire(current));
    const values = {
      description: snapshot.description,
      category: snapshot.category,
      fields: snapshot.fields,
      version: (current?.version ?? (await lastKnownVersion(tx, 'entities', id))) + 1,
    };
    const [row] = await tx
      .insert(entities)
      .values({ id, name: snapshot.name, ...values })
      .onConflictDoUpdate({ target: entities.id, set: { ...values, updatedAt: new Date() } })
      .returning();
    const entity = toWire(row!);
    await recordEntityChange(tx, entity, 'restore', actor);
    return entity;
  });
}

/** A definition's versions, newest first (a page of them, or all). @throws 404 when it never existed. */
export async function listEntityVersions(
  db: Db,
  id: string,
  query?: VersionListQuery,
): Promise<Version[]> {
  const history = await listVersions(db, 'entities', id, query);
  if (history.length === 0 && (query?.page ?? 1) === 1) throw notFound('Entity');
  return history;
}

/** The definitions deleted and not restored since, most recently deleted first. */
export const listDeletedEntities = (db: Db): Promise<DeletedItem[]> => listDeleted(db, 'entities');
