import { createHash } from 'node:crypto';
import { type Session, namedQuery } from '../db/client';

/**
 * One key of a list's order, as raw SQL: its expression, its SQL type (the cursor holds its
 * values as text), its direction, and whether it may be null (PostgreSQL sorts nulls last
 * going up, first going down).
 */
export interface OrderKey {
  sql: string;
  type: string;
  descending: boolean;
  nullable: boolean;
}

/** The ORDER BY of `keys`. */
export const orderByOf = (keys: OrderKey[]) =>
  keys.map((key) => `${key.sql}${key.descending ? ' desc' : ''}`).join(', ');

/**
 * The SQL condition that holds for the rows after the one whose keys were `last` (as text),
 * in the order of `keys` (the last key unique, so the order is total): keyset paging, which
 * reads each batch from where the last ended instead of skipping an offset. `parameter`
 * adds a value to the statement's parameters and answers its placeholder.
 */
export function afterClause(
  keys: OrderKey[],
  last: (string | null)[],
  parameter: (value: unknown, cast: string) => string,
): string {
  const alternatives: string[] = [];
  const equalSoFar: string[] = [];
  keys.forEach((key, index) => {
    const value = last[index] ?? null;
    const placeholder = value === null ? '' : parameter(value, `::${key.type}`);
    // Past the value in this key's direction, nulls where PostgreSQL puts them.
    const past =
      value === null
        ? key.descending
          ? `${key.sql} is not null`
          : undefined
        : key.descending
          ? `${key.sql} < ${placeholder}`
          : key.nullable
            ? `(${key.sql} > ${placeholder} or ${key.sql} is null)`
            : `${key.sql} > ${placeholder}`;
    if (past) alternatives.push([...equalSoFar, past].join(' and '));
    equalSoFar.push(value === null ? `${key.sql} is null` : `${key.sql} = ${placeholder}`);
  });
  return alternatives.length
    ? `(${alternatives.map((clause) => `(${clause})`).join(' or ')})`
    : 'false';
}

/**
 * The rows after the one whose keys were `last`, as conditions each an index can serve in
 * order (a range on the first key, which its sort index starts from), to be read one after
 * the other (UNION ALL, then the order): afterClause's one OR made the database walk the
 * index from its start on every batch, so an export's batches cost more and more. Nulls,
 * last going up and first going down, are a part of their own.
 */
export function afterParts(
  keys: OrderKey[],
  last: (string | null)[],
  parameter: (value: unknown, cast: string) => string,
): string[] {
  const [first, ...rest] = keys;
  if (!first) return ['false'];
  const value = last[0] ?? null;
  const ties = rest.length ? afterClause(rest, last.slice(1), parameter) : 'false';
  if (value === null) {
    const nullsTail = `${first.sql} is null and ${ties}`;
    return first.descending ? [nullsTail, `${first.sql} is not null`] : [nullsTail];
  }
  const v = parameter(value, `::${first.type}`);
  const [from, past] = first.descending ? ['<=', '<'] : ['>=', '>'];
  const ranged = `${first.sql} ${from} ${v} and (${first.sql} ${past} ${v} or (${first.sql} = ${v} and ${ties}))`;
  return first.nullable && !first.descending ? [ranged, `${first.sql} is null`] : [ranged];
}

/**
 * A keyset batch's rows: `rowsWhere(condition)` is the statement of the batch's rows with
 * one more condition (a part of afterParts, or none for the first batch); several parts are
 * read as one ordered union, each part through its index, up to `limit` rows.
 */
export function batchRows(
  parts: string[] | undefined,
  rowsWhere: (condition: string | undefined) => string,
  orderBy: string,
  limit: string,
): string {
  if (!parts) return rowsWhere(undefined);
  if (parts.length === 1) return rowsWhere(parts[0]);
  return `select * from (${parts.map((part) => `(${rowsWhere(part)})`).join(' union all ')}) r
    order by ${orderBy} limit ${limit}`;
}

/** A statement's text and its parameters. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** Builds a statement's parameters: `parameter(value, cast)` adds one and answers `$n::cast`. */
export function parameters() {
  const values: unknown[] = [];
  const parameter = (value: unknown, cast = '') => {
    values.push(value);
    return `$${values.length}${cast}`;
  };
  return { values, parameter };
}

/**
 * Every row of a keyset-paged statement, a batch at a time: `statementOf(last, limit)`
 * answers the statement of up to `limit` rows after the one whose order keys were `last`
 * (from the start when undefined), each row with its keys as text in `cursor`. The first
 * batch is a tenth of the others, so the first rows come soon even when matches are sparse.
 */
export async function* inBatches<Row extends { cursor: (string | null)[] }>(
  run: (statement: Statement) => Promise<Row[]>,
  statementOf: (last: (string | null)[] | undefined, limit: number) => Statement,
  batch = 1_000,
): AsyncGenerator<Row[]> {
  let last: (string | null)[] | undefined;
  for (let limit = Math.ceil(batch / 10); ; limit = batch) {
    const rows = await run(statementOf(last, limit));
    if (rows.length) yield rows;
    if (rows.length < limit) return;
    last = rows.at(-1)!.cursor;
  }
}

/** Each batch of `batches` as `map` turns its rows. */
export async function* mapBatches<Row, Mapped>(
  batches: AsyncIterable<Row[]>,
  map: (row: Row) => Mapped,
): AsyncGenerator<Mapped[]> {
  for await (const batch of batches) yield batch.map(map);
}

/**
 * The statement of a list's next batch for `inBatches`: the rows of `source` (a subquery
 * aliased `r`) that match `where` (built with the same `parameter`), after `last`, in the
 * order of `keys`.
 */
export function batchStatement({
  source,
  where,
  keys,
  last,
  limit,
}: {
  source: string;
  where: (parameter: (value: unknown, cast?: string) => string) => string[];
  keys: OrderKey[];
  last: (string | null)[] | undefined;
  limit: number;
}): Statement {
  const { values, parameter } = parameters();
  const conditions = where(parameter);
  const parts = last && afterParts(keys, last, parameter);
  const orderBy = orderByOf(keys);
  const n = parameter(limit, '::int');
  const rowsWhere = (part: string | undefined) => {
    const all = [...conditions, ...(part ? [part] : [])];
    return `select r.*, array[${keys.map((key) => `${key.sql}::text`).join(', ')}] as cursor
      from (${source}) r ${all.length ? `where ${all.join(' and ')}` : ''}
      order by ${orderBy} limit ${n}`;
  };
  return { text: batchRows(parts, rowsWhere, orderBy, n), values };
}

/**
 * The condition that every word of `q` is a case-insensitive substring of `text` (SQL of the
 * shown text fields joined by spaces: a word holds no space, so it never spans two), the job
 * list's quick-search rule.
 */
export function everyWordIn(
  text: string,
  q: string | undefined,
  parameter: (value: unknown, cast?: string) => string,
): string[] {
  return (q ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `strpos(lower(${text}), lower(${parameter(word, '::text')})) > 0`);
}

/** Runs statements on `session`, each prepared once per connection (named by its text). */
export const runOn =
  <Row>(session: Session) =>
  ({ text, values }: Statement) =>
    namedQuery<Row>(
      session,
      `list_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`,
      text,
      values,
    );
