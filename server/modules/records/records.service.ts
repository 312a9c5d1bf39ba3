import { createHash } from 'node:crypto';
import { BULK_MAX_ITEMS, RECORD_EXACT_TOTAL } from '@common/constants';
import { messages } from '@common/messages';
import type {
  BulkResult,
  EntityField,
  EntityRecord,
  RecordPage,
  RecordPageQuery,
  RecordSelection,
} from '@common/schemas/entities';
import {
  type FieldValue,
  isCalendarDate,
  isEmptyValue,
  parseRecordValues,
} from '@common/schemas/fieldValues';
import { CREATED_BY, type RolePolicy, meetsWhere } from '@common/schemas/policies';
import type {
  DeletedItem,
  Version,
  VersionAction,
  VersionListQuery,
} from '@common/schemas/versions';
import { type Db, type Session, type Tx, namedQuery, sessionOf } from '../../db/client';
import type { Actor } from '../../lib/audit';
import { changeAndRecord, changeSummary, recordChanges } from '../../lib/changes';
import { checkVersion } from '../../lib/concurrency';
import {
  AppError,
  type RefusedItem,
  badRequest,
  bulkRefused,
  conflict,
  notFound,
} from '../../lib/errors';
import type { ExportColumn } from '../../lib/exports';
import { inBatches, mapBatches } from '../../lib/keyset';
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
  castParameter,
  columnOf,
  documentOf,
  literal,
  quoted,
  relationConstraintOf,
  SQL_TYPES,
  TEXT_TYPES,
  tableOf,
  typeOf,
  uniqueIndexOf,
  wireValue,
} from './recordTable';
import {
  type RecordAccess,
  type RowPolicy,
  type WriteScope,
  appliedTo,
  boundPolicySql,
  fieldsDenied,
  keepRestricted,
  knownIn,
  policyDenied,
  rowPolicySql,
  scopeCondition,
  withoutHidden,
  writeScope,
} from './recordPolicies';
import {
  type RelatedEntity,
  WINDOW_HITS,
  exportBatchStatement,
  pageOf,
  selectionStatement,
  pageRequestOf,
  pageStatements,
} from './recordsPage';

/**
 * An entity's definition, as its records' statements need it. @throws 404 for an unknown
 * entity. `lock`: held (key share) until the transaction ends, so that the definition, and
 * the table it describes, cannot change under a write.
 */
export async function definitionOf(
  session: Session,
  entityName: string,
  { lock = false } = {},
): Promise<PolicedDefinition> {
  const [entity] = await namedQuery<PolicedDefinition>(
    session,
    lock ? 'entity_definition_locked' : 'entity_definition',
    `select id::text as id, name, fields, policies from entities
     where name = $1${lock ? ' for key share' : ''}`,
    [entityName],
  );
  if (!entity) throw notFound('Entity');
  return entity;
}

/** An entity's definition, or undefined when there is none (a deleted one's histories stay). */
const definitionIfAny = (session: Session, entityName: string) =>
  definitionOf(session, entityName).catch((error: unknown) => {
    if (error instanceof AppError && error.statusCode === 404) return undefined;
    throw error;
  });

/** An entity's definition with its record policies. */
export interface PolicedDefinition extends RecordsDefinition {
  policies: RolePolicy[];
}

/**
 * What `access` may read of an entity: the definition narrowed to the fields it sees
 * (`hidden`: those it does not), and the records it may read (a page's `policy`); all of
 * both without access (the server's own use).
 */
export function readScope(definition: PolicedDefinition, access: RecordAccess | undefined) {
  const applied = appliedTo(definition.policies, access)?.read;
  const hidden = new Set(applied?.hidden);
  const visible = { ...definition, fields: definition.fields.filter((f) => !hidden.has(f.name)) };
  const policy: RowPolicy | undefined = applied?.where
    ? { fields: definition.fields, where: applied.where, user: access!.user }
    : undefined;
  return { visible, policy, hidden };
}

/** A statement of an entity's records, named by its text: planned once per connection. */
export const recordsQuery = <Row>(session: Session, text: string, values: unknown[]) =>
  namedQuery<Row>(session, statementName(text), text, values);

/** A prepared statement's name for a text made from a definition: one name, one text. */
export const statementName = (text: string) =>
  `records_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;

/** The id is a record's of another entity (the 409 the primary key gives a create). */
const recordIdTaken = () => conflict('ID_TAKEN', messages.server.recordIdTaken);

/**
 * Words read as yes and as no (PostgreSQL's boolean cast, which a change of type uses, also
 * reads their prefixes).
 */
const TRUE_WORDS = ['true', 't', 'yes', 'y', 'on', '1'];
const FALSE_WORDS = ['false', 'f', 'no', 'n', 'off', '0'];

/**
 * A value of a version saved before its field changed type, as the change converted the
 * records then (`conversionOf`): a number or a yes/no read from its text, anything as text.
 * What does not convert is left as it was, and refused by the field's schema, by name.
 */
export function asTypeOf(field: EntityField, value: unknown): unknown {
  const type = typeOf(field);
  if (typeof value === 'string' && (type === 'number' || type === 'integer')) {
    const number = value.trim() === '' ? NaN : Number(value.trim());
    return Number.isFinite(number) ? number : value;
  }
  if (typeof value === 'string' && type === 'boolean') {
    const word = value.trim().toLowerCase();
    return TRUE_WORDS.includes(word) ? true : FALSE_WORDS.includes(word) ? false : value;
  }
  if (typeof value === 'boolean' && (type === 'number' || type === 'integer')) return Number(value);
  if (typeof value === 'string' && type === 'datetime' && isCalendarDate(value))
    return `${value}T00:00:00.000Z`;
  if (typeof value === 'string' && type === 'date' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const at = new Date(value);
    return Number.isNaN(at.getTime()) ? value : at.toISOString().slice(0, 10);
  }
  if ((typeof value === 'number' || typeof value === 'boolean') && TEXT_TYPES.includes(type))
    return String(value);
  return value;
}

/** Checked values of a write, by field name. @throws 400 naming each field at fault. */
function checkedValues(
  definition: RecordsDefinition,
  input: Record<string, unknown>,
  creating: boolean,
): Record<string, FieldValue | null> {
  const checked = parseRecordValues(definition.fields, input, { creating });
  if ('values' in checked) return checked.values;
  throw badRequest(
    checked.problems.map(({ field, message }) => `${field} ${message}`).join('; '),
    checked.problems.map(({ field, message }) => ({
      field: field === 'fields' ? 'body.fields' : `body.fields.${field}`,
      message,
    })),
  );
}

/** The parameters of a write's values, in the definition's field order. */
const valueParameters = (definition: RecordsDefinition, values: Record<string, unknown>) =>
  definition.fields.map((field) => values[field.name] ?? null);

/**
 * What a write's refusal by the database means: a unique field's value taken (409
 * NOT_UNIQUE naming it), an id taken, a relation to no record (400 naming the field).
 * Anything else is rethrown.
 */
export function refusalOf(error: unknown, definition: RecordsDefinition): never {
  const facts = pgErrorFacts(error);
  const fieldWith = (name: (field: EntityField) => string) =>
    definition.fields.find((field) => facts?.constraint === name(field));
  if (facts?.code === '23505') {
    if (facts.constraint === `${tableOf(definition.id)}_pkey`) throw recordIdTaken();
    const field = fieldWith((f) => uniqueIndexOf(definition.id, f.name));
    if (field) {
      throw new AppError(409, 'NOT_UNIQUE', messages.server.notUnique(field.label), {
        fields: [{ field: `body.fields.${field.name}`, message: 'is taken by another record' }],
      });
    }
  }
  if (facts?.code === '23503') {
    const field = fieldWith((f) => relationConstraintOf(definition.id, f.name));
    if (field) {
      throw badRequest(`${field.name} names no record of ${field.target}`, [
        {
          field: `body.fields.${field.name}`,
          message: `must be the id of a record of ${field.target}`,
        },
      ]);
    }
  }
  throw error;
}

/** Runs a write of `definition`'s records, its database refusals told as refusalOf says. */
async function writing<T>(definition: RecordsDefinition, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    refusalOf(error, definition);
  }
}

/** How the audit log names a record of `entityName`. */
export const aRecordOf = (entityName: string) => `a record of ${entityName}`;

/** What a write of a record answers: its row as a changed item (lib/changes.ts). */
export const returningItem = (
  definition: RecordsDefinition,
  summary: string,
) => `returning id::text as id,
  ${documentOf(definition)} as document, version, ${literal(definition.name)}::text as entity_name,
  ${summary}::text as summary`;

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

/** How many records each step of the plain list reads. */
const STREAM_BATCH = 1000;

/**
 * An entity's records, oldest first, read in batches (keyset paging on `created_at, id`),
 * so that the whole list of a large entity holds one batch in memory at a time.
 * @throws 404 for an unknown entity (before the first record).
 */
export async function openRecordList(
  db: Db,
  entityName: string,
  access?: RecordAccess,
): Promise<AsyncGenerator<EntityRecord>> {
  const session = sessionOf(db);
  const { visible, policy } = readScope(await definitionOf(session, entityName), access);
  const table = quoted(tableOf(visible.id));
  // A statement of a batch after `after` (SQL on the cursor's `taken` parameters): with the
  // policy's condition, its values numbered from there.
  const batch = (after: string | undefined, taken: number) => {
    const values: unknown[] = [];
    const policed =
      policy && rowPolicySql(policy, (v, cast = '') => `$${taken + values.push(v)}${cast}`);
    const where = [after, policed].filter(Boolean);
    return {
      // The cursor keeps `created_at` as PostgreSQL's text: a JS Date would drop its microseconds.
      text: `select ${documentOf(visible)} as document, created_at::text as at from ${table}
        ${where.length ? `where ${where.join(' and ')}` : ''}
        order by created_at, id limit ${STREAM_BATCH}`,
      values,
    };
  };
  const first = batch(undefined, 0);
  const next = batch('(created_at, id) > ($1::timestamptz, $2::uuid)', 2);
  return (async function* () {
    let after: [string, string] | undefined;
    for (;;) {
      const rows = await recordsQuery<{ document: EntityRecord; at: string }>(
        session,
        after ? next.text : first.text,
        after ? [...after, ...next.values] : first.values,
      );
      for (const row of rows) yield row.document;
      const last = rows.at(-1);
      if (!last || rows.length < STREAM_BATCH) return;
      after = [last.at, last.document._id];
    }
  })();
}

/** The entities `definition`'s relations point at, by name, as a page shows their records. */
export async function relatedOf(session: Session, definition: RecordsDefinition) {
  const targets = definition.fields.flatMap((field) => (field.target ? [field.target] : []));
  const related = new Map<string, RelatedEntity>();
  if (!targets.length) return related;
  const rows = await namedQuery<{
    id: string;
    name: string;
    fields: EntityField[];
    display: string | null;
    policies: RolePolicy[];
  }>(
    session,
    'related_entities',
    `select id::text as id, name, fields, display_field as display, policies from entities
     where name = any($1::text[])`,
    [targets],
  );
  for (const { id, name, fields, display, policies } of rows) {
    const displayField = fields.find((field) => field.name === display) ?? fields[0]!;
    related.set(name, { id, displayField, fields, policies });
  }
  return related;
}

/**
 * `records` with the display values of their relations (`_display`) that `access` may read:
 * none of an entity whose display field is hidden from them, and none of a related record its
 * entity's read condition keeps from them (one query per such relation for all `records`).
 */
async function withReadableDisplays<T extends { fields?: unknown; _display?: unknown }>(
  session: Session,
  definition: RecordsDefinition,
  related: Map<string, RelatedEntity>,
  records: T[],
  access: RecordAccess | undefined,
): Promise<T[]> {
  const unreadable = new Map<string, Set<string> | 'all'>();
  for (const field of definition.fields) {
    const target = field.target === undefined ? undefined : related.get(field.target);
    const applied = target && appliedTo(target.policies, access)?.read;
    if (!applied) continue;
    if (applied.hidden.includes(target.displayField.name)) {
      unreadable.set(field.name, 'all');
      continue;
    }
    if (!applied.where) continue;
    const ids = [
      ...new Set(
        records.flatMap((record) => {
          const value = (record.fields as Record<string, unknown> | undefined)?.[field.name];
          return typeof value === 'string' && looksLikeUuid(value) ? [value] : [];
        }),
      ),
    ];
    if (!ids.length) continue;
    const readable = scopeCondition(target.fields, applied.where, access!, 0)!;
    const rows = await recordsQuery<{ id: string }>(
      session,
      `select id::text as id from ${quoted(tableOf(target.id))}
       where id = any($${readable.values.length + 1}::uuid[]) and ${readable.sql}`,
      [...readable.values, ids],
    );
    const seen = new Set(rows.map((row) => row.id));
    unreadable.set(field.name, new Set(ids.filter((id) => !seen.has(id))));
  }
  if (!unreadable.size) return records;
  return records.map((record) => {
    if (!record._display || typeof record._display !== 'object') return record;
    const values = (record.fields ?? {}) as Record<string, unknown>;
    const display = Object.fromEntries(
      Object.entries(record._display).filter(([name]) => {
        const kept = unreadable.get(name);
        return kept === undefined || (kept !== 'all' && !kept.has(String(values[name])));
      }),
    );
    return { ...record, _display: display };
  });
}

/**
 * A page of an entity's records: sorted, filtered and searched as `query` asks, with each
 * relation's record by its display value, and the total.
 * @throws 404 for an unknown entity; 400 naming each parameter at fault.
 */
export async function listRecordPage(
  db: Db,
  entityName: string,
  query: RecordPageQuery,
  access?: RecordAccess,
): Promise<RecordPage> {
  const session = sessionOf(db);
  const definition = await definitionOf(session, entityName);
  const { visible, policy } = readScope(definition, access);
  const request = pageRequestOf(visible, query, policy, definition.fields);
  const related = await relatedOf(session, visible);
  const statements = pageStatements(visible, request, related);
  // The total first (counted up to RECORD_EXACT_TOTAL + 1): the page is read by the plan
  // that suits as many matches (few: all of them, then sorted; many: along the sort order).
  const [counted] = await recordsQuery<{ total: number }>(
    session,
    statements.total.text,
    statements.total.values,
  );
  const few = counted!.total <= RECORD_EXACT_TOTAL && statements.fewRecords;
  const { text, values } = few || statements.records;
  const read = await recordsQuery<{ document: EntityRecord }>(session, text, values);
  const documents = read.map((row) => row.document);
  const rows = (await withReadableDisplays(session, visible, related, documents, access)).map(
    (document) => ({ document }),
  );
  const total = counted!.total;
  if (total <= RECORD_EXACT_TOTAL) return pageOf(rows, total, false);
  const key = JSON.stringify([statements.exactTotal.text, statements.exactTotal.values]);
  const known = largeTotals.get(key);
  if (known && Date.now() - known.at < LARGE_TOTAL_KEPT_MS) {
    // Kept a while, it may have drifted a little: an estimate now, whatever it was.
    return pageOf(rows, known.total, true);
  }
  const large = await largeTotal(session, statements, query);
  largeTotals.delete(key);
  largeTotals.set(key, { total: large.total, at: Date.now() });
  if (largeTotals.size > LARGE_TOTALS_KEPT) largeTotals.delete(largeTotals.keys().next().value!);
  return pageOf(rows, large.total, large.totalIsEstimate);
}

/**
 * An entity's records for an export: the list's filter and order (`query` as a page takes it,
 * without paging), read in keyset batches, so the server holds one batch whatever the
 * records; with the columns an export may write (the id, then each field by its label; a
 * relation by the display value of the record it points at).
 * @throws 404 for an unknown entity; 400 naming each parameter at fault.
 */
export async function exportRecords(
  db: Db,
  entityName: string,
  query: RecordPageQuery,
  access?: RecordAccess,
) {
  const session = sessionOf(db);
  const entity = await definitionOf(session, entityName);
  const { visible: definition, policy } = readScope(entity, access);
  const request = pageRequestOf(definition, query, policy, entity.fields);
  const related = await relatedOf(session, definition);
  const columns: ExportColumn<EntityRecord>[] = [
    { name: '_id', label: 'ID', value: (record) => record._id },
    ...definition.fields.map((field) => ({
      name: field.name,
      label: field.label || field.name,
      value: (record: EntityRecord) =>
        typeOf(field) === 'relation'
          ? (record._display?.[field.name] ?? record.fields[field.name])
          : record.fields[field.name],
    })),
  ];
  const batches = inBatches(
    ({ text, values }) =>
      recordsQuery<{ document: EntityRecord; cursor: (string | null)[] }>(session, text, values),
    (last, limit) => exportBatchStatement(definition, request, related, last, limit),
  );
  async function* readable() {
    for await (const batch of mapBatches(batches, (row) => row.document))
      yield withReadableDisplays(session, definition, related, batch, access);
  }
  return { name: entityName, columns, batches: readable() };
}

/**
 * Totals past RECORD_EXACT_TOTAL this server worked out lately, by statement (a filter of
 * a definition), oldest first: an estimate or a count of 10,000 or more costs 20 ms to
 * 1 s, and a person pages through one filter. A few hundred kB at most, whatever the records.
 */
const largeTotals = new Map<string, { total: number; at: number }>();
const LARGE_TOTALS_KEPT = 1_000;
const LARGE_TOTAL_KEPT_MS = 30_000;

/** A uniform point in the UUID order, the same for the same parameters. */
const pointOf = (query: RecordPageQuery) => {
  const filter = Object.entries(query).filter(
    ([key]) => !['page', 'perPage', 'sort'].includes(key),
  );
  const hex = createHash('md5').update(JSON.stringify(filter.sort())).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

/**
 * A total past RECORD_EXACT_TOTAL: the table's size from its statistics when nothing is
 * filtered, else the share of matches in a sample scaled to it, flagged as estimates;
 * counted when the statistics are missing or the sample holds too few matches to trust.
 */
async function largeTotal(
  session: Session,
  statements: ReturnType<typeof pageStatements>,
  query: RecordPageQuery,
): Promise<{ total: number; totalIsEstimate: boolean }> {
  const [{ rows } = { rows: null }] = await recordsQuery<{ rows: number | null }>(
    session,
    statements.rows.text,
    [],
  );
  if (rows !== null && !statements.window) {
    return { total: Math.round(rows), totalIsEstimate: true };
  }
  if (rows !== null && statements.window) {
    const [sample] = await recordsQuery<{ hits: number; seen: number }>(
      session,
      statements.window.text,
      [...statements.window.values, pointOf(query)],
    );
    if (sample!.hits >= WINDOW_HITS) {
      return {
        total: Math.round((sample!.hits / sample!.seen) * Math.max(rows, sample!.seen)),
        totalIsEstimate: true,
      };
    }
  }
  const [exact] = await recordsQuery<{ total: number }>(
    session,
    statements.exactTotal.text,
    statements.exactTotal.values,
  );
  return { total: exact!.total, totalIsEstimate: false };
}

/**
 * SQL columns `readable` and `writable`: whether `scope` may see a row and write it, their
 * values numbered from `$2` (after a statement's own `$1`). `narrowed`: whether either can
 * be false.
 */
function seenAndWritable(definition: RecordsDefinition, scope: WriteScope) {
  const readable = scopeCondition(definition.fields, scope.readWhere, scope, 1);
  const taken = 1 + (readable?.values.length ?? 0);
  const writable = scopeCondition(definition.fields, scope.where, scope, taken);
  return {
    narrowed: Boolean(readable || writable),
    columns: `${readable?.sql ?? 'true'} as readable, ${writable?.sql ?? 'true'} as writable`,
    values: [...(readable?.values ?? []), ...(writable?.values ?? [])],
  };
}

/**
 * The record `id` as a write by `scope` finds it, locked (every field, hidden ones too);
 * undefined when there is none. @throws 404 when `scope` may not see it (to its writer, it
 * is not there); 403 POLICY_DENIED when it sees it but may not `action` it.
 */
async function recordToWrite(
  session: Session,
  definition: RecordsDefinition,
  id: string,
  scope: WriteScope,
  action: 'update' | 'delete',
): Promise<EntityRecord | undefined> {
  const tests = seenAndWritable(definition, scope);
  const [row] = await recordsQuery<{
    document: EntityRecord;
    readable: boolean;
    writable: boolean;
  }>(
    session,
    `select ${documentOf(definition)} as document, ${tests.columns}
     from ${quoted(tableOf(definition.id))} where id = $1 for update`,
    [id, ...tests.values],
  );
  if (!row) return undefined;
  if (!row.readable) throw notFound('Record');
  if (!row.writable) throw policyDenied(action, scope.roles);
  return row.document;
}

/**
 * @throws 403 POLICY_DENIED (of `action`) when the record `id`, as a write just left it, is
 * outside `scope`'s condition: the write is undone with its transaction.
 */
async function checkWritten(
  session: Session,
  definition: RecordsDefinition,
  id: string,
  scope: WriteScope,
  action: 'create' | 'update',
) {
  const allowed = scopeCondition(definition.fields, scope.where, scope, 1);
  if (!allowed) return;
  const [row] = await recordsQuery<{ allowed: boolean }>(
    session,
    `select ${allowed.sql} as allowed from ${quoted(tableOf(definition.id))} where id = $1`,
    [id, ...allowed.values],
  );
  if (!row?.allowed) throw policyDenied(action, scope.roles, { result: true });
}

/** A new record's values when nothing is given: each field's default. */
const defaultsOf = (definition: RecordsDefinition) =>
  Object.fromEntries(definition.fields.map((field) => [field.name, field.default ?? null]));

/**
 * Whether `id` is (or, deleted, was last) a record of another entity than `entityName`,
 * by the histories: record ids are one space across entities, but each entity has its
 * own table.
 */
async function isRecordOfAnother(session: Session, id: string, entityName: string) {
  const [last] = await namedQuery<{ entity_name: string; action: string }>(
    session,
    'record_last_version',
    `select document->>'entity_name' as entity_name, action from versions
     where resource = 'entity-records' and document_id = $1
     order by version_date desc nulls last, id desc nulls last limit 1`,
    [id],
  );
  return last !== undefined && last.action !== 'delete' && last.entity_name !== entityName;
}

/**
 * Adds a record (with the id the client chose, if any) and its first version.
 * @throws 404 for an unknown entity; 400 naming each field at fault; 409 ID_TAKEN for a
 * taken id, NOT_UNIQUE for a unique field's value another record has.
 */
export async function createRecord(
  db: Db,
  entityName: string,
  input: { _id?: string; fields: Record<string, unknown> },
  actor: Actor,
  access?: RecordAccess,
): Promise<{ _id: string }> {
  return db.transaction(async (tx) => {
    const session = sessionOf(tx);
    const definition = await definitionOf(session, entityName, { lock: true });
    const scope = writeScope(definition.policies, access, 'create');
    // A new record's blank asks for the default (a grid's new row sends every cell): for a
    // field the writer may not set, that is no value given.
    const asked = Object.fromEntries(
      Object.entries(input.fields).filter(
        ([name, value]) => !(scope.restricted.has(name) && isEmptyValue(value)),
      ),
    );
    const given = keepRestricted(definition.fields, asked, defaultsOf(definition), scope);
    const values = checkedValues(definition, given, true);
    if (input._id && (await isRecordOfAnother(session, input._id, entityName))) {
      throw recordIdTaken();
    }
    // A reader the policies narrow may not take the id of a record deleted here: its
    // history would become theirs to read.
    if (input._id && scope.readWhere && (await lastKnownVersion(tx, 'entity-records', input._id)))
      throw recordIdTaken();
    const columns = definition.fields.map((field) => quoted(columnOf(field.name)));
    const parameters = definition.fields.map((field, i) => castParameter(field, i + 4));
    const text = `insert into ${quoted(tableOf(definition.id))} (id, created_by, ${columns.join(', ')})
      values (coalesce($1::uuid, gen_random_uuid()), $3::uuid, ${parameters.join(', ')})
      ${returningItem(definition, '$2')}`;
    const [id] = await writing(definition, () =>
      changeAndRecord(
        session,
        statementName(text),
        {
          text,
          values: [
            input._id ?? null,
            changeSummary('create', aRecordOf(entityName)),
            actor.id,
            ...valueParameters(definition, values),
          ],
        },
        actor,
        'entity-records',
        'create',
      ),
    );
    await checkWritten(session, definition, id!, scope, 'create');
    return { _id: id! };
  });
}

/**
 * Replaces a record's field values and records the version.
 * @throws 404 for an unknown entity or record; 400 naming each field at fault; 409
 * VERSION_CONFLICT when `base` names another version than the current one, NOT_UNIQUE for a
 * unique field's value another record has.
 */
export async function updateRecord(
  db: Db,
  entityName: string,
  id: string,
  fields: Record<string, unknown>,
  actor: Actor,
  base: readonly number[] = [],
  access?: RecordAccess,
): Promise<EntityRecord> {
  return db.transaction(async (tx) => {
    const session = sessionOf(tx);
    const definition = await definitionOf(session, entityName, { lock: true });
    const scope = writeScope(definition.policies, access, 'update');
    const current = await recordToWrite(session, definition, id, scope, 'update');
    if (!current) throw notFound('Record');
    await checkVersion({ version: current._version }, base, () =>
      withoutHidden(current, scope.hidden),
    );
    const given = keepRestricted(definition.fields, fields, current.fields, scope);
    const values = checkedValues(definition, given, false);
    const assignments = definition.fields.map(
      (field, i) => `${quoted(columnOf(field.name))} = ${castParameter(field, i + 2)}`,
    );
    const [row] = await writing(definition, () =>
      recordsQuery<{ document: EntityRecord }>(
        session,
        `update ${quoted(tableOf(definition.id))}
         set ${[...assignments, 'version = version + 1', 'updated_at = now()'].join(', ')}
         where id = $1 returning ${documentOf(definition)} as document`,
        [id, ...valueParameters(definition, values)],
      ),
    );
    await checkWritten(session, definition, id, scope, 'update');
    const record = row!.document;
    await recordRecordChanges(tx, [record], 'update', actor);
    return withoutHidden(record, scope.hidden);
  });
}

/** The relation fields of every entity that point at `entityName`, with their entity. */
export async function relationsTo(session: Session, entityName: string) {
  return namedQuery<{ id: string; name: string; field: string }>(
    session,
    'relations_to_entity',
    `select e.id::text as id, e.name, f->>'name' as field
     from entities e, jsonb_array_elements(e.fields) f
     where f->>'type' = 'relation' and f->>'target' = $1`,
    [entityName],
  );
}

/** 409 REFERENCED: how many records point at record `id` of `entityName`, and from where. */
async function referencedError(session: Session, entityName: string, id: string) {
  const counts: { where: string; count: number }[] = [];
  for (const relation of await relationsTo(session, entityName)) {
    const [row] = await recordsQuery<{ count: number }>(
      session,
      `select count(*)::int as count from ${quoted(tableOf(relation.id))}
       where ${quoted(columnOf(relation.field))} = $1`,
      [id],
    );
    if (row!.count > 0)
      counts.push({ where: `${relation.name}.${relation.field}`, count: row!.count });
  }
  const count = counts.reduce((sum, c) => sum + c.count, 0);
  return new AppError(409, 'REFERENCED', messages.server.referenced(count), {
    count,
    fields: counts.map(({ where, count: n }) => ({
      field: where,
      message: `${n} records point here`,
    })),
  });
}

/**
 * Deletes a record and records it in its history (which stays).
 * @throws 404; 409 REFERENCED while records point at it through a relation.
 */
export async function deleteRecord(
  db: Db,
  entityName: string,
  id: string,
  actor: Actor,
  access?: RecordAccess,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const session = sessionOf(tx);
      const definition = await definitionOf(session, entityName, { lock: true });
      const scope = writeScope(definition.policies, access, 'delete');
      if (
        (scope.where || scope.readWhere) &&
        !(await recordToWrite(session, definition, id, scope, 'delete'))
      )
        throw notFound('Record');
      const text = `delete from ${quoted(tableOf(definition.id))} where id = $1
        ${returningItem(definition, '$2')}`;
      const deleted = await changeAndRecord(
        session,
        statementName(text),
        {
          text,
          values: [id, changeSummary('delete', aRecordOf(entityName))],
        },
        actor,
        'entity-records',
        'delete',
      );
      if (!deleted.length) throw notFound('Record');
    });
  } catch (error) {
    // A relation's foreign key refused it: say how many records still point here.
    if (pgErrorFacts(error)?.code === '23503') {
      throw await referencedError(sessionOf(db), entityName, id);
    }
    throw error;
  }
}

/**
 * Deletes every record of an entity, each delete in its history (within `tx`; the entity's
 * delete is the audit event). Answers how many there were.
 */
export async function deleteRecordsOf(
  tx: Tx,
  definition: RecordsDefinition,
  actor: Actor,
): Promise<number> {
  const rows = await recordsQuery<{ document: EntityRecord }>(
    sessionOf(tx),
    `delete from ${quoted(tableOf(definition.id))} returning ${documentOf(definition)} as document`,
    [],
  );
  const records = rows.map((row) => row.document);
  await recordRecordChanges(tx, records, 'delete', actor, { audited: false });
  return records.length;
}

/** Runs a restore of records: one pointing at a record deleted since is a conflict, 409. */
async function restoring<T>(definition: RecordsDefinition, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const facts = pgErrorFacts(error);
    const field = definition.fields.find(
      (f) => facts?.constraint === relationConstraintOf(definition.id, f.name),
    );
    if (facts?.code === '23503' && field) {
      throw conflict('CONFLICT', messages.server.pointsAtDeleted(field.label, field.target!));
    }
    refusalOf(error, definition);
  }
}

/**
 * Brings back, as they were, the records deleted with their entity (within `tx`, once the
 * entity's table is back): those whose last version is a delete written at the entity's last
 * delete (one transaction, one time), so records deleted before it, or restored or reused
 * since, stay as they are. Each gets its `restore` version (the entity's restore is the
 * audit event). Answers how many came back.
 * @throws 409 CONFLICT when one points at a record deleted since (pointsAtDeleted).
 */
export async function restoreRecordsDeletedWith(
  tx: Tx,
  definition: RecordsDefinition,
  actor: Actor,
): Promise<number> {
  const columns = definition.fields.map((field) => quoted(columnOf(field.name)));
  // The snapshots hold the API's values, which cast from text to each column's type.
  const values = definition.fields.map(
    (field) => `(d.document->'fields'->>${literal(field.name)})::${SQL_TYPES[typeOf(field)]}`,
  );
  const rows = await restoring(definition, () =>
    recordsQuery<{ document: EntityRecord }>(
      sessionOf(tx),
      `with deleted_at as (
         select max(version_date) as at from versions
         where resource = 'entities' and document_id = $1 and action = 'delete'),
       last_versions as (
         select distinct on (v.document_id) v.document_id, v.action, v.version_date, v.document
         from versions v
         where v.resource = 'entity-records' and v.document_id in (
           select document_id from versions
           where resource = 'entity-records' and action = 'delete'
             and version_date = (select at from deleted_at) and document->>'entity_name' = $2)
         order by v.document_id, v.version_date desc nulls last, v.id desc nulls last)
       insert into ${quoted(tableOf(definition.id))} (id, version, created_by, created_at${columns.map((c) => `, ${c}`).join('')})
       select d.document_id, (d.document->>'_version')::int + 1, (d.document->>'_createdBy')::uuid,
              (select min(version_date) from versions f
               where f.resource = 'entity-records' and f.document_id = d.document_id)${values.map((v) => `, ${v}`).join('')}
       from last_versions d
       where d.action = 'delete' and d.version_date = (select at from deleted_at)
       returning ${documentOf(definition)} as document`,
      [definition.id, definition.name],
    ),
  );
  const records = rows.map((row) => row.document);
  await recordRecordChanges(tx, records, 'restore', actor, { audited: false });
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
  access?: RecordAccess,
): Promise<EntityRecord> {
  return db.transaction((tx) =>
    restoreRecordIn(tx, entityName, id, versionId, actor, base, access),
  );
}

/**
 * restoreRecord within `tx`. With policies, a record there is restored as an update (its
 * fields the writer may not set must stay as they are), and a deleted one as a create of
 * the record as it was, its every field included.
 */
async function restoreRecordIn(
  tx: Tx,
  entityName: string,
  id: string,
  versionId: string,
  actor: Actor,
  base: readonly number[] = [],
  access?: RecordAccess,
): Promise<EntityRecord> {
  const session = sessionOf(tx);
  const definition = await definitionOf(session, entityName, { lock: true });
  const snapshot = await versionToRestore(tx, 'entity-records', id, versionId, entityName);
  const current = await recordToWrite(
    session,
    definition,
    id,
    writeScope(definition.policies, access, 'update'),
    'update',
  );
  const scope = writeScope(definition.policies, access, current ? 'update' : 'create');
  const names = new Set(definition.fields.map((field) => field.name));
  const kept = Object.entries((snapshot.fields ?? {}) as Record<string, unknown>).filter(([name]) =>
    names.has(name),
  );
  const typed = Object.fromEntries(
    kept.map(([name, value]) => {
      const field = definition.fields.find((candidate) => candidate.name === name)!;
      return [name, asTypeOf(field, value)];
    }),
  );
  const creator = typeof snapshot._createdBy === 'string' ? snapshot._createdBy : null;
  // With policies, what the writer may not set stays as it is: on a record there, as it
  // is; on a deleted one, as it was deleted (a record the writer could read then).
  let asItIs: Record<string, unknown> | undefined = current?.fields;
  if (!current && scope.user && (scope.readWhere || scope.restricted.size)) {
    const deleted = await deletedDocument(tx, 'entity-records', id, 'Record');
    asItIs = (deleted.fields ?? {}) as Record<string, unknown>;
    const values = { ...asItIs, [CREATED_BY]: deleted._createdBy ?? null };
    if (!meetsWhere(scope.readWhere, values, scope.user, knownIn(definition.fields)))
      throw notFound('Record');
  }
  const settable = Object.fromEntries(
    Object.entries(typed).filter(([name]) => !scope.restricted.has(name)),
  );
  const given = asItIs ? keepRestricted(definition.fields, settable, asItIs, scope) : typed;
  const values = checkedValues(definition, given, false);
  // A deleted record's id may since have been given to a record of another entity.
  if (!current && (await isRecordOfAnother(session, id, entityName))) throw recordIdTaken();
  if (current)
    await checkVersion({ version: current._version }, base, () =>
      withoutHidden(current, scope.hidden),
    );
  const version = (current?._version ?? (await lastKnownVersion(tx, 'entity-records', id))) + 1;
  const columns = definition.fields.map((field) => quoted(columnOf(field.name)));
  const parameters = definition.fields.map((field, i) => castParameter(field, i + 4));
  const [row] = await writing(definition, () =>
    recordsQuery<{ document: EntityRecord }>(
      session,
      // A deleted record comes back where it was in the order records were added: its
      // first version's date is when it was added; and by whom it was added.
      `insert into ${quoted(tableOf(definition.id))} (id, version, created_at, created_by, ${columns.join(', ')})
       values ($1, $2, coalesce((select min(version_date) from versions
                                 where resource = 'entity-records' and document_id = $1), now()),
               $3::uuid, ${parameters.join(', ')})
       on conflict (id) do update set
         ${[...columns.map((c) => `${c} = excluded.${c}`), 'version = excluded.version', 'updated_at = now()'].join(', ')}
       returning ${documentOf(definition)} as document`,
      [
        id,
        version,
        creator && looksLikeUuid(creator) ? creator : null,
        ...valueParameters(definition, values),
      ],
    ),
  );
  await checkWritten(session, definition, id, scope, current ? 'update' : 'create');
  const record = row!.document;
  await recordRecordChanges(tx, [record], 'restore', actor);
  return withoutHidden(record, scope.hidden);
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
  access?: RecordAccess,
): Promise<Version[]> {
  const history = await listVersions(db, 'entity-records', id, query, entityName);
  if (history.length === 0 && (query?.page ?? 1) === 1) throw notFound('Record');
  const session = sessionOf(db);
  const hidden = await unreadableParts(db, entityName, id, access);
  const labelled = await withRelationLabels(session, entityName, history, access);
  return labelled.map((version) => ({
    ...version,
    document: withoutHidden(version.document, hidden),
    changes: version.changes.filter((change) => !hidden.has(change.field)),
  }));
}

/**
 * The fields of a record's history `access` may not read. @throws 404 when it may not read
 * the record (as it is, or as it was last when deleted).
 */
async function unreadableParts(
  db: Db,
  entityName: string,
  id: string,
  access: RecordAccess | undefined,
): Promise<Set<string>> {
  const reader = await recordReader(db, entityName, id);
  const read = access && (await reader(access));
  if (read === false) throw notFound('Record');
  return new Set(read ? read.hidden : []);
}

/**
 * Who may read the record `id` of `entityName` by its entity's policies: a check per reader
 * (false, or the fields hidden from them), the definition read once. A record that is gone
 * is read as it was last; one of a deleted entity, by that entity's last policies.
 */
export async function recordReader(
  db: Db,
  entityName: string,
  id: string,
): Promise<(access: RecordAccess) => Promise<false | { hidden: string[] }>> {
  const session = sessionOf(db);
  const there = await definitionIfAny(session, entityName);
  const [last] = there
    ? []
    : await namedQuery<{ document: PolicedDefinition }>(
        session,
        'entity_last_definition',
        `select jsonb_build_object('fields', document->'fields',
                  'policies', coalesce(document->'policies', '[]'::jsonb)) as document
         from versions where resource = 'entities' and document->>'name' = $1
         order by version_date desc nulls last, id desc nulls last limit 1`,
        [entityName],
      );
  const definition = there ?? last?.document;
  return async (access) => {
    const applied = definition && appliedTo(definition.policies, access)?.read;
    if (!applied?.where) return { hidden: applied?.hidden ?? [] };
    const readable = there && scopeCondition(there.fields, applied.where, access, 1)!;
    const [row] = readable
      ? await recordsQuery<{ readable: boolean }>(
          session,
          `select ${readable.sql} as readable from ${quoted(tableOf(there.id))} where id = $1`,
          [id, ...readable.values],
        )
      : [];
    if (row) return row.readable && { hidden: applied.hidden };
    const [lastVersion] = await listVersions(
      db,
      'entity-records',
      id,
      { page: 1, perPage: 1 },
      entityName,
    );
    const values = {
      ...(lastVersion?.document.fields as object),
      [CREATED_BY]: lastVersion?.document._createdBy ?? null,
    };
    return (
      lastVersion !== undefined &&
      meetsWhere(applied.where, values, access.user, knownIn(definition!.fields)) && {
        hidden: applied.hidden,
      }
    );
  };
}

/**
 * `history` with each snapshot's relations shown by their records' display values as they
 * are now (`document._display`, as a page has them) where `access` may read them: one query
 * per related entity for the whole page of versions. A record deleted since shows by its id.
 */
async function withRelationLabels(
  session: Session,
  entityName: string,
  history: Version[],
  access: RecordAccess | undefined,
): Promise<Version[]> {
  // The history of a record of a deleted entity is still read: by its ids.
  const definition = await definitionIfAny(session, entityName);
  if (!definition) return history;
  const related = await relatedOf(session, definition);
  const labels = new Map<string, FieldValue>();
  for (const [target, { id: targetId, displayField }] of related) {
    const names = definition.fields.filter((field) => field.target === target).map((f) => f.name);
    const ids = history.flatMap((version) => {
      const values = (version.document.fields ?? {}) as Record<string, unknown>;
      // A snapshot from before the field was a relation may hold any text.
      return names
        .map((name) => values[name])
        .filter((value) => typeof value === 'string' && looksLikeUuid(value));
    });
    if (!ids.length) continue;
    const shown = wireValue(displayField, `t.${quoted(columnOf(displayField.name))}`);
    const rows = await recordsQuery<{ id: string; shown: FieldValue | null }>(
      session,
      `select t.id::text as id, ${shown} as shown from ${quoted(tableOf(targetId))} t
       where t.id = any($1::uuid[])`,
      [[...new Set(ids)]],
    );
    for (const row of rows) if (row.shown !== null) labels.set(row.id, row.shown);
  }
  if (!labels.size) return history;
  const documents = history.map((version) => {
    const values = (version.document.fields ?? {}) as Record<string, unknown>;
    const display = Object.fromEntries(
      definition.fields.flatMap((field) => {
        const label = field.target ? labels.get(String(values[field.name])) : undefined;
        return label === undefined ? [] : [[field.name, label]];
      }),
    );
    return { ...version.document, _display: display };
  });
  const readable = await withReadableDisplays(session, definition, related, documents, access);
  return history.map((version, i) => ({ ...version, document: readable[i]! }));
}

/**
 * The records of `entityName` deleted and not restored since, most recently deleted first.
 * @throws 404 for an unknown entity.
 */
export async function listDeletedRecords(
  db: Db,
  entityName: string,
  access?: RecordAccess,
): Promise<DeletedItem[]> {
  const definition = await definitionOf(sessionOf(db), entityName);
  const { policy, hidden } = readScope(definition, access);
  // Snapshots, not rows: what the reader could read of each as it was deleted.
  const deleted = await listDeleted(
    db,
    'entity-records',
    entityName,
    policy && boundPolicySql(policy, 'snapshot'),
  );
  if (!hidden.size) return deleted;
  return deleted.map((item) => ({ ...item, document: withoutHidden(item.document, hidden) }));
}

/**
 * The ids of the records a bulk action names: those chosen, or every record the list's
 * search and filter match. @throws 400 for a filter the list refuses, or when more than
 * BULK_MAX_ITEMS match.
 */
async function selectedIds(
  session: Session,
  definition: PolicedDefinition,
  selection: RecordSelection,
  access: RecordAccess | undefined,
): Promise<string[]> {
  if (selection.ids) return [...new Set(selection.ids)];
  const matching = selection.matching ?? {};
  const { visible, policy } = readScope(definition, access);
  const request = pageRequestOf(visible, matching as RecordPageQuery, policy, definition.fields);
  const { text, values } = selectionStatement(visible, request, BULK_MAX_ITEMS + 1);
  const rows = await recordsQuery<{ id: string }>(session, text, values);
  if (rows.length > BULK_MAX_ITEMS) {
    const message = messages.server.tooManyForBulk(BULK_MAX_ITEMS);
    throw badRequest(message, [{ field: 'body.selection.matching', message }]);
  }
  return rows.map((row) => row.id);
}

/**
 * `ids` as a bulk `action` of `scope` may take them: those it cannot see left out (to it,
 * they are not there). @throws 409 BULK_REFUSED naming, as POLICY_DENIED, each it sees but
 * may not write.
 */
async function writableIds(
  session: Session,
  definition: RecordsDefinition,
  ids: string[],
  scope: WriteScope,
  action: 'update' | 'delete',
): Promise<string[]> {
  const tests = seenAndWritable(definition, scope);
  if (!tests.narrowed) return ids;
  const rows = await recordsQuery<{ id: string; readable: boolean; writable: boolean }>(
    session,
    `select id::text as id, ${tests.columns}
     from ${quoted(tableOf(definition.id))} where id = any($1::uuid[]) for update`,
    [ids, ...tests.values],
  );
  const refused = rows.filter((row) => row.readable && !row.writable);
  if (refused.length) {
    const message = policyDenied(action, scope.roles).message;
    throw bulkRefused(refused.map(({ id }) => ({ id, code: 'POLICY_DENIED', message })));
  }
  const unseen = new Set(rows.filter((row) => !row.readable).map((row) => row.id));
  return ids.filter((id) => !unseen.has(id));
}

/**
 * A bulk write's records, each with its version and audit line (within `tx`). An update is
 * refused whole when it did not find some of `ids` (deleted meanwhile, or never of this
 * entity); a delete leaves those out (what was asked is so) and answers the ids it deleted.
 */
async function recordedBulk(
  tx: Tx,
  ids: string[],
  rows: { document: EntityRecord }[],
  action: 'delete' | 'update',
  actor: Actor,
): Promise<BulkResult> {
  const seen = new Set(rows.map((row) => row.document._id));
  const missing = ids
    .filter((id) => !seen.has(id))
    .map((id): RefusedItem => ({ id, code: 'NOT_FOUND', message: messages.server.recordGone }));
  if (missing.length && action === 'update') throw bulkRefused(missing);
  await recordRecordChanges(
    tx,
    rows.map((row) => row.document),
    action,
    actor,
  );
  return { ids: ids.filter((id) => seen.has(id)) };
}

/**
 * The records among `ids` that records outside `ids` point at (through any relation, of any
 * entity), each once with how many point at it: a delete of `ids` would leave those dangling.
 */
async function referencedAmong(
  session: Session,
  definition: RecordsDefinition,
  ids: string[],
): Promise<RefusedItem[]> {
  const counts = new Map<string, number>();
  for (const relation of await relationsTo(session, definition.name)) {
    const column = quoted(columnOf(relation.field));
    const rows = await recordsQuery<{ id: string; count: number }>(
      session,
      `select ${column}::text as id, count(*)::int as count from ${quoted(tableOf(relation.id))}
       where ${column} = any($1::uuid[]) and not (id = any($1::uuid[]))
       group by ${column}`,
      [ids],
    );
    for (const { id, count } of rows) counts.set(id, (counts.get(id) ?? 0) + count);
  }
  return [...counts].map(([id, count]) => ({
    id,
    code: 'REFERENCED',
    message: messages.server.referenced(count),
  }));
}

/**
 * Deletes the chosen records of `entityName` in one transaction, each with its version and
 * audit line. Refused whole (409 BULK_REFUSED, per item) when records of any entity still
 * point at some of them, or some are gone.
 * @throws 404 for an unknown entity; 400 as selectedIds.
 */
export async function bulkDeleteRecords(
  db: Db,
  entityName: string,
  selection: RecordSelection,
  actor: Actor,
  access?: RecordAccess,
): Promise<BulkResult> {
  return db.transaction(async (tx) => {
    const session = sessionOf(tx);
    const definition = await definitionOf(session, entityName, { lock: true });
    const scope = writeScope(definition.policies, access, 'delete');
    const ids = await writableIds(
      session,
      definition,
      await selectedIds(session, definition, selection, access),
      scope,
      'delete',
    );
    const refused = await referencedAmong(session, definition, ids);
    if (refused.length) throw bulkRefused(refused);
    let rows: { document: EntityRecord }[];
    try {
      rows = await recordsQuery<{ document: EntityRecord }>(
        session,
        `delete from ${quoted(tableOf(definition.id))} where id = any($1::uuid[])
         returning ${documentOf(definition)} as document`,
        [ids],
      );
    } catch (error) {
      // A link made since the check above: the transaction is spent; say so as a whole.
      if (pgErrorFacts(error)?.code === '23503') {
        throw bulkRefused([
          { id: ids[0]!, code: 'REFERENCED', message: messages.server.linkedMeanwhile },
        ]);
      }
      throw error;
    }
    return recordedBulk(tx, ids, rows, 'delete', actor);
  });
}

/**
 * Sets `fields` to the same values on every chosen record of `entityName`, in one
 * transaction, each with its version and audit line; the records' other fields stay.
 * @throws 400 for a value its field refuses (naming it); 409 NOT_UNIQUE for a unique field
 * given to more than one record, BULK_REFUSED for records gone meanwhile.
 */
export async function bulkUpdateRecords(
  db: Db,
  entityName: string,
  { selection, fields }: { selection: RecordSelection; fields: Record<string, unknown> },
  actor: Actor,
  access?: RecordAccess,
): Promise<BulkResult> {
  return db.transaction(async (tx) => {
    const session = sessionOf(tx);
    const definition = await definitionOf(session, entityName, { lock: true });
    const scope = writeScope(definition.policies, access, 'update');
    const given = definition.fields.filter((field) => Object.hasOwn(fields, field.name));
    // Keys that are not fields are refused by name, as a record's write refuses them.
    const values = checkedValues({ ...definition, fields: given }, fields, false);
    if (given.length === 0) {
      throw badRequest('fields must name at least one field', [
        { field: 'body.fields', message: 'must name at least one field' },
      ]);
    }
    const restricted = given.filter((field) => scope.restricted.has(field.name));
    if (restricted.length) throw fieldsDenied(restricted, scope.fieldRoles);
    const ids = await selectedIds(session, definition, selection, access);
    const writable = await writableIds(session, definition, ids, scope, 'update');
    const assignments = given.map(
      (field, i) => `${quoted(columnOf(field.name))} = ${castParameter(field, i + 2)}`,
    );
    const still = scopeCondition(definition.fields, scope.where, scope, 1 + given.length);
    const rows = await writing(definition, () =>
      recordsQuery<{ document: EntityRecord; allowed: boolean }>(
        session,
        `update ${quoted(tableOf(definition.id))}
         set ${[...assignments, 'version = version + 1', 'updated_at = now()'].join(', ')}
         where id = any($1::uuid[])
         returning ${documentOf(definition)} as document, ${still?.sql ?? 'true'} as allowed`,
        [writable, ...given.map((field) => values[field.name] ?? null), ...(still?.values ?? [])],
      ),
    );
    const moved = rows.filter((row) => !row.allowed);
    if (moved.length) {
      const message = policyDenied('update', scope.roles, { result: true }).message;
      throw bulkRefused(
        moved.map((row) => ({ id: row.document._id, code: 'POLICY_DENIED', message })),
      );
    }
    // Those the writer cannot see are, to it, gone: refused as such.
    return recordedBulk(tx, ids, rows, 'update', actor);
  });
}

/**
 * Brings deleted records of `entityName` back as they were deleted (an Undo of a delete),
 * in one transaction, each with its `restore` version and audit line. Refused whole
 * (BULK_REFUSED, per item) when some are not deleted, or were never records of it.
 */
export async function bulkRestoreRecords(
  db: Db,
  entityName: string,
  ids: string[],
  actor: Actor,
  access?: RecordAccess,
): Promise<BulkResult> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const session = sessionOf(tx);
    await definitionOf(session, entityName, { lock: true });
    const latest = await namedQuery<{ id: string; document_id: string; action: string }>(
      session,
      'records_latest_versions',
      `select distinct on (document_id) id::text as id, document_id::text, action
       from versions where resource = 'entity-records' and document_id = any($1::uuid[])
         and document->>'entity_name' = $2
       order by document_id, version_date desc nulls last, id desc nulls last`,
      [unique, entityName],
    );
    const byId = new Map(latest.map((row) => [row.document_id, row]));
    const refused = unique.flatMap((id): RefusedItem[] => {
      const last = byId.get(id);
      if (!last) return [{ id, code: 'NOT_FOUND', message: messages.server.noHistory }];
      if (last.action !== 'delete')
        return [{ id, code: 'CONFLICT', message: messages.server.notDeleted }];
      return [];
    });
    if (refused.length) throw bulkRefused(refused);
    for (const id of unique) {
      try {
        await restoreRecordIn(tx, entityName, id, byId.get(id)!.id, actor, [], access);
      } catch (error) {
        // The first record refused ends the transaction: it is named with its reason.
        if (error instanceof AppError) {
          throw bulkRefused([{ id, code: error.code, message: error.message }]);
        }
        throw error;
      }
    }
    return { ids: unique };
  });
}
