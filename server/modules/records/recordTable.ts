import { createHash } from 'node:crypto';
import type { EntityField } from '@common/schemas/entities';
import type { FieldType } from '@common/schemas/fieldValues';

/**
 * Each entity keeps its records in a table of its own, a typed column per field, so that
 * PostgreSQL sorts, filters, indexes and constrains them by type (unique indexes, foreign
 * keys for relations). This file says how a definition maps to that table: its names, its
 * DDL, and the SQL that reads a record as the API shows it. Every name in it is made here
 * from an entity id or a field name (letters, digits, `_`), and quoted.
 */

/** What the table of an entity is made from. */
export interface RecordsDefinition {
  id: string;
  name: string;
  fields: EntityField[];
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** A quoted SQL identifier. */
export const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** A quoted SQL string literal. */
export const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The table of an entity's records: by its id, which never changes (its name neither). */
export const tableOf = (entityId: string) => `records_${entityId.replaceAll('-', '')}`;

/**
 * The column of a field: `f_` and its name (so no field meets `id` or `version`), shortened
 * with a hash past PostgreSQL's 63-byte names. The migration that made the tables
 * (0020) computes the same.
 */
export const columnOf = (fieldName: string) =>
  fieldName.length <= 61
    ? `f_${fieldName}`
    : `f_${fieldName.slice(0, 44)}_${md5(fieldName).slice(0, 16)}`;

/** The unique index of a field: by a hash, as column names may already take 63 bytes. */
export const uniqueIndexOf = (entityId: string, fieldName: string) =>
  `${tableOf(entityId)}_${md5(fieldName).slice(0, 12)}_unique`;

/** The column type of each field type. */
export const SQL_TYPES: Record<FieldType, string> = {
  text: 'text',
  longText: 'text',
  number: 'double precision',
  integer: 'bigint',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamptz',
  select: 'text',
  email: 'text',
  url: 'text',
  relation: 'uuid',
};

export const typeOf = (field: EntityField): FieldType => field.type ?? 'text';

/**
 * Field types kept as text: a quick search and `contains` look into them, a blank one is
 * empty, and their rules (options, formats, lengths) are checked in JavaScript.
 */
export const TEXT_TYPES: readonly FieldType[] = ['text', 'longText', 'select', 'email', 'url'];

/**
 * A column's definition in CREATE TABLE or ADD COLUMN (`targets`: relation targets' entity
 * ids by name). A relation is a foreign key: the database keeps it true under concurrent
 * writes, and refuses to delete a record something points at.
 */
export function columnDefinition(
  entityId: string,
  field: EntityField,
  targets: Map<string, string>,
): string {
  const type = typeOf(field);
  let definition = `${quoted(columnOf(field.name))} ${SQL_TYPES[type]}`;
  if (field.required) definition += ' not null';
  if (type === 'relation') {
    definition += ` constraint ${quoted(relationConstraintOf(entityId, field.name))}
      references ${quoted(tableOf(targets.get(field.target!)!))} (id)`;
  }
  return definition;
}

/** The columns every record has, beside one per field. */
const RECORD_COLUMNS = [
  'id uuid primary key default gen_random_uuid()',
  'version integer not null default 1',
  'created_at timestamptz not null default now()',
  'updated_at timestamptz not null default now()',
  // Who added the record (a user id): policies compare it with the signed-in user.
  'created_by uuid',
];

/** The statements that make an entity's table, with its indexes. */
export function createTableStatements(
  definition: RecordsDefinition,
  targets: Map<string, string>,
): string[] {
  const table = quoted(tableOf(definition.id));
  const columns = definition.fields.map((field) => columnDefinition(definition.id, field, targets));
  return [
    `create table ${table} (${[...RECORD_COLUMNS, ...columns].join(',\n      ')})`,
    `create index ${quoted(`${tableOf(definition.id)}_created`)} on ${table} (created_at, id)`,
    `create index ${quoted(`${tableOf(definition.id)}_creator`)} on ${table} (created_by, id)`,
    ...definition.fields.flatMap((field) => fieldIndexStatements(definition.id, field)),
    ...searchIndexStatements(
      definition.fields,
      tableOf(definition.id),
      searchIndexOf(definition.id),
    ),
  ];
}

/**
 * The index that sorts a field's records, `(column, id)` as a page orders them (the id
 * breaks ties, so pages never overlap); a relation's also finds, when the record it points
 * at is deleted, whether any still does. A long text has none: it is read, not sorted.
 */
export const sortIndexOf = (entityId: string, fieldName: string) =>
  `${tableOf(entityId)}_${md5(fieldName).slice(0, 12)}_sort`;

const sortIndexStatement = (entityId: string, field: EntityField) =>
  `create index if not exists ${quoted(sortIndexOf(entityId, field.name))}
   on ${quoted(tableOf(entityId))} (${quoted(columnOf(field.name))}, id)`;

/** The indexes a field's settings ask for: its sort index, and a unique one when unique. */
export function fieldIndexStatements(entityId: string, field: EntityField): string[] {
  const statements: string[] = [];
  if (field.unique) {
    statements.push(
      `create unique index ${quoted(uniqueIndexOf(entityId, field.name))}
       on ${quoted(tableOf(entityId))} (${quoted(columnOf(field.name))})`,
    );
  }
  if (typeOf(field) !== 'longText') statements.push(sortIndexStatement(entityId, field));
  return statements;
}

/** The trigram index that finds a quick search's words in a record's text fields. */
export const searchIndexOf = (entityId: string) => `${tableOf(entityId)}_search`;

/**
 * SQL of a record's text-like fields, lowered and joined by spaces (a word holds no
 * whitespace, so it is in one of them exactly when it is in this): what a quick search
 * looks in, and what its trigram index holds. Undefined for an entity with none.
 */
export function searchTextOf(fields: readonly EntityField[]): string | undefined {
  const columns = fields
    .filter((field) => TEXT_TYPES.includes(typeOf(field)))
    .map((field) => `coalesce(${quoted(columnOf(field.name))}, '')`);
  return columns.length ? `lower(${columns.join(` || ' ' || `)})` : undefined;
}

/** The statement making an entity's search index (none without text fields). */
function searchIndexStatements(
  fields: readonly EntityField[],
  table: string,
  name: string,
): string[] {
  const text = searchTextOf(fields);
  return text
    ? [`create index ${quoted(name)} on ${quoted(table)} using gin ((${text}) gin_trgm_ops)`]
    : [];
}

/** A field's value as JSON on the wire: datetimes in UTC with milliseconds, the rest as typed. */
export function wireValue(field: EntityField, column = quoted(columnOf(field.name))): string {
  if (typeOf(field) === 'datetime') {
    return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return column;
}

// jsonb_build_object takes at most 100 arguments: 50 pairs.
const PAIRS_PER_CALL = 40;

/** SQL answering a record's `fields` as jsonb (its empty fields left out, as the spec's records have them). */
export function fieldsObject(fields: EntityField[]): string {
  if (fields.length === 0) return `'{}'::jsonb`;
  const calls: string[] = [];
  for (let i = 0; i < fields.length; i += PAIRS_PER_CALL) {
    const pairs = fields
      .slice(i, i + PAIRS_PER_CALL)
      .map((field) => `${literal(field.name)}, ${wireValue(field)}`);
    calls.push(`jsonb_build_object(${pairs.join(', ')})`);
  }
  return `jsonb_strip_nulls(${calls.join(' || ')})`;
}

/** SQL answering a record of `definition` as the API shows it (jsonb). */
export const documentOf = (definition: RecordsDefinition) =>
  `(jsonb_build_object('_id', id, 'entity_name', ${literal(definition.name)}::text,
    '_version', version, 'fields', ${fieldsObject(definition.fields)})
    || case when created_by is null then '{}'::jsonb
       else jsonb_build_object('_createdBy', created_by) end)`;

/** A parameter cast to its field's column type. */
export const castParameter = (field: EntityField, index: number) =>
  `$${index}::${SQL_TYPES[typeOf(field)]}`;

/** The foreign key of a relation field. */
export const relationConstraintOf = (entityId: string, fieldName: string) =>
  `${tableOf(entityId)}_${md5(fieldName).slice(0, 12)}_ref`;

/** The largest integer a JSON number holds exactly. */
const SAFE_INTEGER = 9007199254740991;

/** The words PostgreSQL reads as dates and times: no date a person typed. */
const SPECIAL_DATES = `('now', 'today', 'tomorrow', 'yesterday', 'epoch', 'infinity', '-infinity', 'allballs')`;

/**
 * How a column's values become those of another field type: `value`, SQL converting it (in
 * ALTER COLUMN … USING), and `converts`, SQL telling whether a (non-empty) value does. Text
 * is trimmed and read as the new type by PostgreSQL's own cast (`record_value_converts`,
 * migration 0020, tries the very same); anything becomes text as the API shows it; numbers,
 * booleans, dates and datetimes become each other where that keeps their meaning.
 */
export function conversionOf(column: string, from: EntityField, to: EntityField) {
  const [source, target] = [SQL_TYPES[typeOf(from)], SQL_TYPES[typeOf(to)]];
  const pair = `${typeOf(from)}>${typeOf(to)}`;
  if (source === target) return { value: column, converts: 'true' };
  if (target === 'text') {
    const value =
      typeOf(from) === 'datetime'
        ? wireValue(from, column)
        : typeOf(from) === 'date'
          ? `to_char(${column}, 'YYYY-MM-DD')`
          : `${column}::text`;
    return { value, converts: 'true' };
  }
  if (source === 'text') {
    const value = `nullif(btrim(${column}), '')::${target}`;
    const read = `record_value_converts(${column}, ${literal(target)})`;
    // PostgreSQL reads 'NaN' and 'Infinity' as numbers; JSON has neither.
    // Nor has it PostgreSQL's special dates ('now', 'infinity', …), which read as dates.
    const bounded =
      target === 'bigint'
        ? `${value} between -${SAFE_INTEGER} and ${SAFE_INTEGER}`
        : target === 'double precision'
          ? `${value} not in ('NaN', 'Infinity', '-Infinity')`
          : target === 'date' || target === 'timestamptz'
            ? `lower(btrim(${column})) not in ${SPECIAL_DATES}`
            : 'true';
    return { value, converts: `case when ${read} then ${bounded} else false end` };
  }
  switch (pair) {
    case 'integer>number':
      return { value: `${column}::${target}`, converts: 'true' };
    case 'number>integer':
      return {
        value: `${column}::bigint`,
        converts: `${column} = trunc(${column}) and ${column} between -${SAFE_INTEGER} and ${SAFE_INTEGER}`,
      };
    case 'boolean>integer':
    case 'boolean>number':
      return { value: `${column}::int::${target}`, converts: 'true' };
    case 'date>datetime':
      return { value: `${column}::timestamp at time zone 'UTC'`, converts: 'true' };
    case 'datetime>date':
      return { value: `(${column} at time zone 'UTC')::date`, converts: 'true' };
    default:
      return { value: `null::${target}`, converts: 'false' };
  }
}

/**
 * The statements that take an entity's table from definition `before` to `after` (same
 * entity) when no field's column changes type (see `rebuildTableStatements`; a text becoming
 * an email keeps its column): columns dropped, added; NOT NULL, unique and relation constraints as
 * the new fields ask. The database refuses what some records cannot follow (a value that
 * does not convert, an empty required field, a repeated unique value), and with it the
 * whole change.
 */
export function alterTableStatements(
  before: RecordsDefinition,
  after: RecordsDefinition,
  targets: Map<string, string>,
): string[] {
  const table = quoted(tableOf(after.id));
  const old = new Map(before.fields.map((field) => [field.name, field]));
  const statements: string[] = [];
  // Other text fields: the search index is made again over them, at the end.
  const searched = searchTextOf(before.fields) !== searchTextOf(after.fields);
  if (searched) statements.push(`drop index if exists ${quoted(searchIndexOf(after.id))}`);
  for (const field of before.fields) {
    if (!after.fields.some((f) => f.name === field.name)) {
      statements.push(`alter table ${table} drop column ${quoted(columnOf(field.name))}`);
    }
  }
  for (const field of after.fields) {
    const was = old.get(field.name);
    const column = quoted(columnOf(field.name));
    if (!was) {
      const definition = columnDefinition(after.id, field, targets);
      if (field.required && field.default !== undefined) {
        // The records there are take the default, as a new record does.
        const value = `${literal(String(field.default))}::${SQL_TYPES[typeOf(field)]}`;
        statements.push(`alter table ${table} add column ${definition} default ${value}`);
        statements.push(`alter table ${table} alter column ${column} drop default`);
      } else {
        statements.push(`alter table ${table} add column ${definition}`);
      }
      statements.push(...fieldIndexStatements(after.id, field));
      continue;
    }
    const retyped = typeOf(was) !== typeOf(field);
    const retargeted = retyped || was.target !== field.target;
    if (typeOf(was) === 'relation' && retargeted) {
      statements.push(
        `alter table ${table} drop constraint ${quoted(relationConstraintOf(after.id, field.name))}`,
      );
    }
    if (was.unique && !field.unique) {
      statements.push(`drop index ${quoted(uniqueIndexOf(after.id, field.name))}`);
    }
    if (typeOf(field) === 'relation' && retargeted) {
      statements.push(
        `alter table ${table} add constraint ${quoted(relationConstraintOf(after.id, field.name))}
         foreign key (${column}) references ${quoted(tableOf(targets.get(field.target!)!))} (id)`,
      );
    }
    if (!was.required && field.required) {
      statements.push(`alter table ${table} alter column ${column} set not null`);
    }
    if (was.required && !field.required) {
      statements.push(`alter table ${table} alter column ${column} drop not null`);
    }
    if (!was.unique && field.unique) {
      statements.push(
        `create unique index ${quoted(uniqueIndexOf(after.id, field.name))} on ${table} (${column})`,
      );
    }
    if (typeOf(field) === 'longText' && typeOf(was) !== 'longText') {
      statements.push(`drop index if exists ${quoted(sortIndexOf(after.id, field.name))}`);
    }
    if (typeOf(field) !== 'longText' && typeOf(was) === 'longText') {
      statements.push(sortIndexStatement(after.id, field));
    }
  }
  if (searched) {
    statements.push(
      ...searchIndexStatements(after.fields, tableOf(after.id), searchIndexOf(after.id)),
    );
  }
  return statements;
}

/** A relation of another entity that points at this one: its table's constraint. */
export interface IncomingRelation {
  /** The pointing entity's id. */
  id: string;
  /** Its relation field's name. */
  field: string;
}

/** A name an index of the table being rebuilt takes until the old table is gone. */
const nextName = (name: string) => `records_next_${md5(name).slice(0, 24)}`;

/**
 * The statements that take an entity's table from `before` to `after` when a field changes
 * type, keeping the records readable meanwhile: ALTER COLUMN … TYPE rewrites the table under
 * an exclusive lock (9.6 s at 1,000,000 records, every read waiting), so the records are
 * copied, converted, into a new table that is indexed beside the old one (reads go on; writes
 * wait on the definition's lock), and the two are swapped at the end, where only the drop
 * and the renames hold the exclusive lock. Relations pointing here (`incoming`) are dropped
 * and added again around the swap, `not valid`: the ids are the same, and no record of this
 * entity could be deleted meanwhile. A relation from here that the old table had is added
 * `not valid` too: every value was a record of its target, whose key kept it there; one new
 * here (a text become a relation, another target) is validated.
 */
export function rebuildTableStatements(
  before: RecordsDefinition,
  after: RecordsDefinition,
  targets: Map<string, string>,
  incoming: IncomingRelation[],
): string[] {
  const table = tableOf(after.id);
  const next = `${table}_next`;
  const old = new Map(before.fields.map((field) => [field.name, field]));
  const columns = after.fields.map((field) => {
    const definition = `${quoted(columnOf(field.name))} ${SQL_TYPES[typeOf(field)]}`;
    return field.required ? `${definition} not null` : definition;
  });
  const values = after.fields.map((field) => {
    const was = old.get(field.name);
    const column = quoted(columnOf(field.name));
    if (was) return conversionOf(column, was, field).value;
    // A new field: the records there are take its default when it is required, as on ALTER.
    return field.required && field.default !== undefined
      ? `${literal(String(field.default))}::${SQL_TYPES[typeOf(field)]}`
      : `null::${SQL_TYPES[typeOf(field)]}`;
  });
  const indexes = after.fields.flatMap((field) => [
    ...(field.unique ? [{ name: uniqueIndexOf(after.id, field.name), unique: true, field }] : []),
    ...(typeOf(field) !== 'longText'
      ? [{ name: sortIndexOf(after.id, field.name), unique: false, field }]
      : []),
  ]);
  const search = searchIndexStatements(after.fields, next, nextName(searchIndexOf(after.id)));
  const names = [
    `${table}_created`,
    `${table}_creator`,
    ...indexes.map((index) => index.name),
    ...(search.length ? [searchIndexOf(after.id)] : []),
  ];
  const pointing = incoming.filter((relation) => relation.id !== after.id);
  const constraint = (relation: IncomingRelation) =>
    `${quoted(tableOf(relation.id))} add constraint ${quoted(relationConstraintOf(relation.id, relation.field))}
     foreign key (${quoted(columnOf(relation.field))}) references ${quoted(table)} (id) not valid`;
  return [
    `create table ${quoted(next)} (${[...RECORD_COLUMNS, ...columns].join(',\n      ')})`,
    `insert into ${quoted(next)} (id, version, created_at, updated_at, created_by${after.fields
      .map((field) => `, ${quoted(columnOf(field.name))}`)
      .join('')})
     select id, version, created_at, updated_at, created_by${values.map((v) => `, ${v}`).join('')}
     from ${quoted(table)}`,
    `create index ${quoted(nextName(`${table}_created`))} on ${quoted(next)} (created_at, id)`,
    `create index ${quoted(nextName(`${table}_creator`))} on ${quoted(next)} (created_by, id)`,
    ...indexes.map(
      ({ name, unique, field }) =>
        `create ${unique ? 'unique ' : ''}index ${quoted(nextName(name))} on ${quoted(next)}
         (${quoted(columnOf(field.name))}${unique ? '' : ', id'})`,
    ),
    ...search,
    ...after.fields
      .filter((field) => typeOf(field) === 'relation')
      .flatMap((field) => {
        const name = quoted(relationConstraintOf(after.id, field.name));
        const was = old.get(field.name);
        const kept = was && typeOf(was) === 'relation' && was.target === field.target;
        return [
          `alter table ${quoted(next)} add constraint ${name}
           foreign key (${quoted(columnOf(field.name))})
           references ${quoted(field.target === after.name ? next : tableOf(targets.get(field.target!)!))} (id)
           not valid`,
          // A relation new here (or to another entity) was true when checked, but a record
          // it names may have gone since: the database reads them again.
          ...(kept ? [] : [`alter table ${quoted(next)} validate constraint ${name}`]),
        ];
      }),
    `analyze ${quoted(next)}`,
    // The swap: from here to the commit, the records wait.
    ...pointing.map(
      (relation) =>
        `alter table ${quoted(tableOf(relation.id))}
         drop constraint ${quoted(relationConstraintOf(relation.id, relation.field))}`,
    ),
    `drop table ${quoted(table)}`,
    `alter table ${quoted(next)} rename to ${quoted(table)}`,
    `alter index ${quoted(`${next}_pkey`)} rename to ${quoted(`${table}_pkey`)}`,
    ...names.map((name) => `alter index ${quoted(nextName(name))} rename to ${quoted(name)}`),
    ...pointing.map((relation) => `alter table ${constraint(relation)}`),
  ];
}
