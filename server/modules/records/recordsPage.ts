import { RECORD_EXACT_TOTAL, RECORD_PAGE_SIZE } from '@common/constants';
import {
  type EntityField,
  type EntityRecord,
  RECORD_FILTER_KEY,
  RECORD_FILTER_OPS,
  type RecordFilterOp,
  type RecordPage,
  type RecordPageQuery,
} from '@common/schemas/entities';
import { type FieldType, type FieldValue, valueSchemaOf } from '@common/schemas/fieldValues';
import type { FieldError } from '@common/schemas/apiError';
import { badRequest } from '../../lib/errors';
import type { RolePolicy } from '@common/schemas/policies';
import { type RowPolicy, rowPolicySql } from './recordPolicies';
import { type OrderKey, afterParts, batchRows, orderByOf, parameters } from '../../lib/keyset';
import {
  type RecordsDefinition,
  SQL_TYPES,
  TEXT_TYPES,
  columnOf,
  documentOf,
  literal,
  quoted,
  searchTextOf,
  tableOf,
  typeOf,
  wireValue,
} from './recordTable';

/** Field types that compare by order (`lt`, `lte`, `gt`, `gte`). */
const ORDERED_TYPES: readonly FieldType[] = ['number', 'integer', 'date', 'datetime'];

/** The ops a field of `type` takes. */
function opsOf(type: FieldType): readonly RecordFilterOp[] {
  return RECORD_FILTER_OPS.filter(
    (op) =>
      (op !== 'contains' || TEXT_TYPES.includes(type)) &&
      (!['lt', 'lte', 'gt', 'gte'].includes(op) || ORDERED_TYPES.includes(type)) &&
      (op !== 'in' || type !== 'boolean'),
  );
}

/** A query-string value read as a value of `field`'s type. */
function queryValue(field: EntityField, text: string): FieldValue {
  switch (typeOf(field)) {
    case 'number':
    case 'integer':
      return text.trim() === '' ? NaN : Number(text);
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

/** One condition of a page: a field, an op, and its parameter (typed, or a list for `in`). */
interface Condition {
  field: EntityField;
  op: RecordFilterOp;
  value: FieldValue | FieldValue[] | boolean;
}

/** What a page asks, checked against the definition. */
export interface PageRequest {
  page: number;
  perPage: number;
  order: { field: EntityField; descending: boolean }[];
  words: string[];
  conditions: Condition[];
  /** The records a policy lets the caller read (all when absent). */
  policy?: RowPolicy;
  /** The fields whose text the search index holds: all the entity's, hidden ones too. */
  searchFields: readonly EntityField[];
}

/**
 * A records page's parameters checked against `definition` (the fields the caller may read;
 * `searchFields`, all of the entity's, when a policy hides some).
 * @throws 400 naming each parameter at fault (an unknown field, an op its type does not
 * take, a value not of its type).
 */
export function pageRequestOf(
  definition: RecordsDefinition,
  query: RecordPageQuery,
  policy?: RowPolicy,
  searchFields: readonly EntityField[] = definition.fields,
): PageRequest {
  const problems: FieldError[] = [];
  const byName = new Map(definition.fields.map((field) => [field.name, field]));
  const order: PageRequest['order'] = [];
  for (const part of (query.sort ?? '').split(',').filter(Boolean)) {
    const [name, direction = 'asc', ...rest] = part.trim().split(':');
    const field = byName.get(name!);
    if (!field || rest.length || !['asc', 'desc'].includes(direction)) {
      problems.push({
        field: 'querystring.sort',
        message: `${part} is not field:asc or field:desc`,
      });
    } else order.push({ field, descending: direction === 'desc' });
  }
  const conditions: Condition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (['page', 'perPage', 'sort', 'q'].includes(key) || raw === undefined) continue;
    const match = RECORD_FILTER_KEY.exec(key);
    const field = match && byName.get(match[1]!);
    const op = match?.[2] as RecordFilterOp;
    if (!match) {
      problems.push({ field: `querystring.${key}`, message: 'is not a parameter of this list' });
    } else if (!field) {
      problems.push({ field: `querystring.${key}`, message: `${match[1]} is not a field` });
    } else if (!opsOf(typeOf(field)).includes(op)) {
      const ops = opsOf(typeOf(field)).join(', ');
      problems.push({
        field: `querystring.${key}`,
        message: `must be one of ${ops} for this field`,
      });
    } else if (op === 'empty') {
      if (raw !== 'true' && raw !== 'false') {
        problems.push({ field: `querystring.${key}`, message: 'must be true or false' });
      } else conditions.push({ field, op, value: raw === 'true' });
    } else if (op === 'contains') {
      conditions.push({ field, op, value: String(raw) });
    } else {
      const texts = op === 'in' ? String(raw).split(',') : [String(raw)];
      const values: FieldValue[] = [];
      for (const text of texts) {
        const parsed = valueSchemaOf(field).safeParse(queryValue(field, text));
        if (parsed.success) values.push(parsed.data);
        else
          problems.push({ field: `querystring.${key}`, message: parsed.error.issues[0]!.message });
      }
      conditions.push({ field, op, value: op === 'in' ? values : values[0]! });
    }
  }
  if (problems.length) {
    throw badRequest(problems.map((p) => `${p.field} ${p.message}`).join('; '), problems);
  }
  return {
    page: query.page ?? 1,
    perPage: query.perPage ?? RECORD_PAGE_SIZE,
    order,
    words: (query.q ?? '').split(/\s+/).filter(Boolean),
    conditions,
    policy,
    searchFields,
  };
}

/** SQL of a page's conditions, its parameters numbered from `$1` in `parameters`. */
function whereOf(definition: RecordsDefinition, request: PageRequest, parameters: unknown[]) {
  const parameter = (value: unknown, cast = '') => {
    parameters.push(value);
    return `$${parameters.length}${cast}`;
  };
  const contains = (column: string, word: string) =>
    `strpos(lower(${column}), lower(${parameter(word, '::text')})) > 0`;
  // Each word in the text fields joined, as the search index holds them: its trigrams
  // find the candidates (a word of one or two letters has none, and is tested on each).
  // With text fields hidden from the reader, the index still finds the candidates (of all
  // the text fields), then the word is tested on those the reader may read.
  const searchText = searchTextOf(definition.fields);
  const indexedText = searchTextOf(request.searchFields);
  const clauses = request.words.map((word) => {
    if (!searchText) return 'false';
    const pattern = parameter(`%${word.replace(/[\\%_]/g, '\\$&')}%`, '::text');
    return indexedText === searchText
      ? `${searchText} like lower(${pattern})`
      : `(${indexedText} like lower(${pattern}) and ${searchText} like lower(${pattern}))`;
  });
  for (const { field, op, value } of request.conditions) {
    const column = quoted(columnOf(field.name));
    const type = SQL_TYPES[typeOf(field)];
    const textual = TEXT_TYPES.includes(typeOf(field));
    const empty = textual ? `(${column} is null or btrim(${column}) = '')` : `${column} is null`;
    const compared = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;
    if (op === 'empty') clauses.push(value ? empty : `not ${empty}`);
    else if (op === 'contains') clauses.push(contains(column, value as string));
    else if (op === 'ne')
      clauses.push(`${column} is distinct from ${parameter(value, `::${type}`)}`);
    else if (op === 'in') clauses.push(`${column} = any(${parameter(value, `::${type}[]`)})`);
    else clauses.push(`${column} ${compared[op]} ${parameter(value, `::${type}`)}`);
  }
  if (request.policy) clauses.push(rowPolicySql(request.policy, parameter));
  return clauses.join(' and ');
}

/** A related entity as a page shows its records: its table and display field. */
export interface RelatedEntity {
  id: string;
  displayField: EntityField;
  /** All of its fields and its record policies: whose display values a reader may see. */
  fields: EntityField[];
  policies: RolePolicy[];
}

/**
 * SQL answering each relation's record by its display value, as jsonb: one subquery per
 * relation field, on the target's primary key, in the page's own statement.
 */
function displayObject(definition: RecordsDefinition, related: Map<string, RelatedEntity>) {
  const pairs = definition.fields.flatMap((field) => {
    const target = field.target === undefined ? undefined : related.get(field.target);
    if (typeOf(field) !== 'relation' || !target) return [];
    const shown = wireValue(target.displayField, `t.${quoted(columnOf(target.displayField.name))}`);
    return [
      `'${field.name}', (select ${shown} from ${quoted(tableOf(target.id))} t
        where t.id = r.${quoted(columnOf(field.name))})`,
    ];
  });
  return pairs.length ? `jsonb_strip_nulls(jsonb_build_object(${pairs.join(', ')}))` : undefined;
}

/**
 * The keys a page is sorted by: the fields asked for, else the order records were added in,
 * then the id (in the last key's direction), so the order is total.
 */
function orderKeysOf(request: PageRequest): OrderKey[] {
  const fieldKeys = request.order.map(({ field, descending }) => ({
    sql: `r.${quoted(columnOf(field.name))}`,
    type: SQL_TYPES[typeOf(field)],
    descending,
    nullable: true,
  }));
  const added = { sql: 'r.created_at', type: 'timestamptz', descending: false, nullable: false };
  const descending = request.order.at(-1)?.descending ?? false;
  return [
    ...(fieldKeys.length ? fieldKeys : [added]),
    { sql: 'r.id', type: 'uuid', descending, nullable: false },
  ];
}

/** A record's document, with its relations' display values when it has relations. */
function documentWithDisplay(definition: RecordsDefinition, related: Map<string, RelatedEntity>) {
  const display = displayObject(definition, related);
  return display
    ? `${documentOf(definition)} || jsonb_build_object('_display', ${display})`
    : documentOf(definition);
}

/**
 * The statement of an export's next batch: up to `limit` records of the page's filter and
 * order after the one whose order keys were `last` (all from the start when undefined),
 * each with its keys as text (`cursor`) for the batch after.
 */
export function exportBatchStatement(
  definition: RecordsDefinition,
  request: PageRequest,
  related: Map<string, RelatedEntity>,
  last: (string | null)[] | undefined,
  limit: number,
) {
  const { values, parameter } = parameters();
  const keys = orderKeysOf(request);
  const filter = whereOf(definition, request, values);
  const parts = last && afterParts(keys, last, parameter);
  const orderBy = orderByOf(keys);
  const n = parameter(limit, '::int');
  const rowsWhere = (part: string | undefined) => {
    const conditions = [filter, part].filter(Boolean);
    return `select * from ${quoted(tableOf(definition.id))} r
      ${conditions.length ? `where ${conditions.join(' and ')}` : ''}
      order by ${orderBy} limit ${n}`;
  };
  return {
    text: `select ${documentWithDisplay(definition, related)} as document,
             array[${keys.map((key) => `${key.sql}::text`).join(', ')}] as cursor
           from (${batchRows(parts, rowsWhere, orderBy, n)}) r
           order by ${orderBy}`,
    values,
  };
}

/** The statement of the ids of up to `limit` records of the page's filter (a bulk selection). */
export function selectionStatement(
  definition: RecordsDefinition,
  request: PageRequest,
  limit: number,
) {
  const { values, parameter } = parameters();
  const conditions = whereOf(definition, request, values);
  return {
    text: `select id::text as id from ${quoted(tableOf(definition.id))} r
           ${conditions ? `where ${conditions}` : ''} limit ${parameter(limit, '::int')}`,
    values,
  };
}

/** The statements of a page: its records, and its total counted up to RECORD_EXACT_TOTAL + 1. */
export function pageStatements(
  definition: RecordsDefinition,
  request: PageRequest,
  related: Map<string, RelatedEntity>,
) {
  const parameters: unknown[] = [];
  const conditions = whereOf(definition, request, parameters);
  const where = conditions ? `where ${conditions}` : '';
  const table = quoted(tableOf(definition.id));
  const orderBy = orderByOf(orderKeysOf(request));
  const document = documentWithDisplay(definition, related);
  const n = parameters.length;
  const pageValues = [...parameters, request.perPage, (request.page - 1) * request.perPage];
  return {
    records: {
      // The page's rows first, then their documents: the relations' display values are
      // looked up for the page only, not for the rows an offset skips.
      text: `select ${document} as document from
             (select * from ${table} r ${where} order by ${orderBy}
              limit $${n + 1} offset $${n + 2}) r
             order by ${orderBy}`,
      values: pageValues,
    },
    /**
     * The same page when its total says few records match: all of them first (through the
     * filter's indexes), then sorted. Walking the sort order instead, as the planner would
     * when it expects more matches than there are, reads most of the table to find few.
     */
    fewRecords: conditions && {
      text: `with matching as materialized (select * from ${table} r ${where})
             select ${document} as document from
             (select * from matching r order by ${orderBy}
              limit $${n + 1} offset $${n + 2}) r
             order by ${orderBy}`,
      values: pageValues,
    },
    total: {
      text: `select count(*)::int as total from
             (select from ${table} r ${where} limit $${n + 1}) as counted`,
      values: [...parameters, RECORD_EXACT_TOTAL + 1],
    },
    exactTotal: {
      text: `select count(*)::int as total from ${table} r ${where}`,
      values: parameters,
    },
    /**
     * The matches among WINDOW_ROWS records from a point in the id order (ids are random
     * UUIDs, so a run of them is a random sample), going round past the last: an estimate's
     * sample. `$n+1` is the point, so a filter's pages all show one total.
     */
    window: conditions && {
      text: `select count(*) filter (where ${conditions})::int as hits, count(*)::int as seen
             from (select * from (select * from ${table} where id >= $${n + 1} order by id
                                  limit ${WINDOW_ROWS}) after_point
                   union all
                   select * from (select * from ${table} where id < $${n + 1} order by id
                                  limit ${WINDOW_ROWS}) before_point
                   limit ${WINDOW_ROWS}) r`,
      values: parameters,
    },
    /** How many records the table holds, as its statistics scaled to its size now tell. */
    rows: {
      text: `select case when reltuples < 0 or relpages = 0 then null
               else reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int)
             end::float8 as rows
             from pg_class where oid = ${literal(tableOf(definition.id))}::regclass`,
      values: [],
    },
  };
}

/** Records in an estimate's sample (see `window` in pageStatements). */
const WINDOW_ROWS = 20_000;

/**
 * Matches a sample must hold for its estimate to be kept (about 5 % at two standard
 * deviations); with fewer, the total is counted.
 */
export const WINDOW_HITS = 1_600;

/** A page from its rows and total. */
export const pageOf = (
  rows: { document: EntityRecord }[],
  total: number,
  totalIsEstimate: boolean,
): RecordPage => ({ records: rows.map((row) => row.document), total, totalIsEstimate });
