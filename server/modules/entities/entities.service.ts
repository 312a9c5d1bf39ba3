import { isDeepStrictEqual } from 'node:util';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { messages } from '@common/messages';
import type { DefinitionReport, Entity, EntityField } from '@common/schemas/entities';
import type {
  DeletedItem,
  Version,
  VersionAction,
  VersionListQuery,
} from '@common/schemas/versions';
import { type Db, type Tx, sessionOf } from '../../db/client';
import { entities } from '../../db/schema/entities';
import type { Actor } from '../../lib/audit';
import { recordChanges } from '../../lib/changes';
import { checkVersion } from '../../lib/concurrency';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { pgErrorFacts } from '../../lib/pgErrors';
import { looksLikeUuid } from '../../lib/uuid';
import {
  deletedDocument,
  lastKnownVersion,
  listDeleted,
  listVersions,
  versionToRestore,
} from '../../lib/versions';
import {
  type RecordsDefinition,
  alterTableStatements,
  rebuildTableStatements,
  SQL_TYPES,
  typeOf,
  createTableStatements,
  quoted,
  tableOf,
} from '../records/recordTable';
import {
  deleteRecordsOf,
  relationsTo,
  restoreRecordsDeletedWith,
} from '../records/records.service';
import { definitionReport } from './definitionReport';
import { policyProblems, storedPolicies } from '../records/recordPolicies';
import { roles } from '../../db/schema/roles';
import type { RolePolicy } from '@common/schemas/policies';

interface EntityInput {
  name: string;
  description: string;
  category: string;
  fields: EntityField[];
  displayField?: string;
}

const toWire = (row: typeof entities.$inferSelect): Entity => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  category: row.category,
  fields: row.fields,
  ...(row.displayField ? { displayField: row.displayField } : {}),
  ...(row.policies.length ? { policies: row.policies } : {}),
  _version: row.version,
});

const definitionOf = (entity: Entity): RecordsDefinition => ({
  id: entity._id,
  name: entity.name,
  fields: entity.fields,
});

/**
 * The ids of the entities `fields`' relations point at, by name (`self`: the entity being
 * defined, which may point at itself). @throws 400 naming each target that is no entity.
 */
async function targetsOf(
  tx: Tx,
  fields: EntityField[],
  self: { id: string; name: string },
): Promise<Map<string, string>> {
  const names = fields.flatMap((field) => (field.target ? [field.target] : []));
  const found = names.length
    ? await tx
        .select({ id: entities.id, name: entities.name })
        .from(entities)
        .where(inArray(entities.name, names))
        // Held until the change commits: a target cannot be deleted under it.
        .for('key share')
    : [];
  const targets = new Map(found.map((row) => [row.name, row.id]));
  targets.set(self.name, self.id);
  const missing = fields.flatMap((field, index) =>
    field.target && !targets.has(field.target)
      ? [{ field: `body.fields.${index}.target`, message: messages.server.noSuchEntity }]
      : [],
  );
  if (missing.length) throw badRequest(messages.server.noSuchEntity, missing);
  return targets;
}

/** SQLSTATE classes of values that do not convert (22) and constraints that do not hold (23). */
const REFUSED_BY_RECORDS = /^2[23]/;

/**
 * Runs the DDL of a definition change in `tx`. @throws 409 DEFINITION_CONFLICT when some
 * records cannot follow it (then nothing changes: the transaction is rolled back).
 */
async function changeTable(tx: Tx, statements: string[]) {
  try {
    for (const statement of statements) await tx.execute(sql.raw(statement));
  } catch (error) {
    const facts = pgErrorFacts(error);
    if (facts && REFUSED_BY_RECORDS.test(facts.code)) {
      throw new AppError(409, 'DEFINITION_CONFLICT', messages.server.definitionConflict, {
        cause: error,
      });
    }
    throw error;
  }
}

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
    const targets = await targetsOf(tx, entity.fields, { id: entity._id, name: entity.name });
    await changeTable(tx, createTableStatements(definitionOf(entity), targets));
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
        displayField: input.displayField ?? null,
        version: sql`${entities.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(entities.id, id))
      .returning();
    const entity = toWire(row!);
    await changeRecordsTable(tx, toWire(current), entity);
    await recordEntityChange(tx, entity, 'update', actor);
    return entity;
  });
}

/**
 * Takes an entity's records from definition `before` to `after`, in `tx`, after checking
 * every record can follow. @throws 409 DEFINITION_CONFLICT with the report when some
 * cannot (the caller's transaction then changes nothing); 400 for a relation to no entity.
 */
async function changeRecordsTable(tx: Tx, before: Entity, after: Entity) {
  const targets = await targetsOf(tx, after.fields, { id: after._id, name: after.name });
  const report = await definitionReport(
    sessionOf(tx),
    definitionOf(before),
    definitionOf(after),
    targets,
  );
  if (report.failed > 0) {
    throw new AppError(409, 'DEFINITION_CONFLICT', messages.server.definitionConflict, {
      report,
    });
  }
  const [from, to] = [definitionOf(before), definitionOf(after)];
  // A column of another type rewrites every record: into a new table, so that they stay
  // readable. Between text types (text, email, a choice…) the column stays as it is.
  const retyped = to.fields.some((field) => {
    const was = from.fields.find((candidate) => candidate.name === field.name);
    return was !== undefined && SQL_TYPES[typeOf(was)] !== SQL_TYPES[typeOf(field)];
  });
  await changeTable(
    tx,
    retyped
      ? rebuildTableStatements(from, to, targets, await relationsTo(sessionOf(tx), after.name))
      : alterTableStatements(from, to, targets),
  );
}

/**
 * Sets an entity's record policies (a version of the entity, and an audit event). They hold
 * from the next request on, on every server: each request reads them with the definition.
 * @throws 404; 400 naming each part at fault (recordPolicies.ts, policyProblems); 409
 * VERSION_CONFLICT when `base` names another version than the current one.
 */
export async function updateEntityPolicies(
  db: Db,
  id: string,
  policies: RolePolicy[],
  actor: Actor,
  base: readonly number[] = [],
): Promise<Entity> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(entities).where(eq(entities.id, id)).for('update');
    if (!current) throw notFound('Entity');
    await checkVersion(current, base, () => toWire(current));
    const named = policies.map((policy) => policy.role);
    const known = named.length
      ? await tx.select({ name: roles.name }).from(roles).where(inArray(roles.name, named))
      : [];
    const problems = policyProblems(
      current.fields,
      policies,
      new Set(known.map((role) => role.name)),
    );
    if (problems.length)
      throw badRequest(problems.map((p) => `${p.field} ${p.message}`).join('; '), problems);
    const [row] = await tx
      .update(entities)
      .set({
        policies: storedPolicies(current.fields, policies),
        version: sql`${entities.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(entities.id, id))
      .returning();
    const entity = toWire(row!);
    await recordEntityChange(tx, entity, 'update', actor, ': its record policies');
    return entity;
  });
}

/**
 * What changing a definition as `input` says would do to its records, changing nothing:
 * `PUT /api/entities/{id}?dryRun=true`. @throws 404; 400 as updateEntity.
 */
export async function reportEntityChange(
  db: Db,
  id: string,
  input: EntityInput,
): Promise<DefinitionReport> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(entities).where(eq(entities.id, id));
    if (!current) throw notFound('Entity');
    const before = toWire(current);
    const after: Entity = { ...before, fields: input.fields };
    const targets = await targetsOf(tx, after.fields, { id, name: before.name });
    return definitionReport(sessionOf(tx), definitionOf(before), definitionOf(after), targets);
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
    const pointing = (await relationsTo(sessionOf(tx), entity.name)).filter(
      (relation) => relation.id !== id,
    );
    if (pointing.length) {
      throw new AppError(
        409,
        'REFERENCED',
        messages.server.entityReferenced(pointing.map((r) => `${r.name}.${r.field}`)),
      );
    }
    const records = await deleteRecordsOf(tx, definitionOf(entity), actor);
    await tx.execute(sql.raw(`drop table ${quoted(tableOf(id))}`));
    await tx.delete(entities).where(eq(entities.id, id));
    await recordEntityChange(tx, entity, 'delete', actor, ` and its ${records} records`);
  });
}

/**
 * Makes version `versionId` of a definition current again and records a `restore` version,
 * in one transaction. A deleted one comes back with its id and name, and with the records
 * deleted with it (those deleted before stay in their own histories).
 * @throws 404 when it has no such version; 409 NAME_TAKEN when another entity took its name,
 * VERSION_CONFLICT when `base` names another version than the current one, CONFLICT when a
 * record deleted with it points at a record deleted since, DEFINITION_CONFLICT when its
 * records cannot follow the version restored.
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
      displayField: snapshot.displayField ?? null,
      // A version without policies (perhaps from before there were any) keeps those there
      // are: restoring fields must not quietly lift who may read which records.
      policies: snapshot.policies ?? current?.policies ?? [],
      version: (current?.version ?? (await lastKnownVersion(tx, 'entities', id))) + 1,
    };
    const [row] = await tx
      .insert(entities)
      .values({ id, name: snapshot.name, ...values })
      .onConflictDoUpdate({ target: entities.id, set: { ...values, updatedAt: new Date() } })
      .returning();
    const entity = toWire(row!);
    let withRecords = '';
    if (current) {
      await changeRecordsTable(tx, toWire(current), entity);
    } else {
      // Its records come back as they were deleted, into a table of the definition they were
      // deleted with; then, restoring another version, they follow it as an edit would.
      const deleted = (await deletedDocument(tx, 'entities', id, 'Entity')) as Entity;
      const targets = await targetsOf(tx, deleted.fields, { id, name: deleted.name });
      await changeTable(tx, createTableStatements(definitionOf(deleted), targets));
      const records = await restoreRecordsDeletedWith(tx, definitionOf(deleted), actor);
      withRecords = ` and its ${records} records`;
      if (!isDeepStrictEqual(deleted.fields, entity.fields))
        await changeRecordsTable(tx, deleted, entity);
    }
    await recordEntityChange(tx, entity, 'restore', actor, withRecords);
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
