import type { DefinitionReport, EntityField } from '@common/schemas/entities';
import { valueSchemaOf } from '@common/schemas/fieldValues';
import type { Session } from '../../db/client';
import {
  type RecordsDefinition,
  TEXT_TYPES,
  columnOf,
  conversionOf,
  quoted,
  tableOf,
  typeOf,
} from '../records/recordTable';

/** Failures a report lists; the rest are counted. */
const REPORT_LISTED = 100;

/** The message of a value that does not become one of the new field's type. */
const conversionMessage = (field: EntityField) =>
  typeOf(field) === 'relation'
    ? `must be the id of a record of ${field.target}`
    : (valueSchemaOf(field).safeParse(Symbol('not a value')).error?.issues[0]?.message ??
      'cannot be converted');

interface Failure {
  id: string;
  value: string | null;
}

/** The rows of a statement made for one report (not prepared: it runs once). */
async function rowsOf<Row>(session: Session, text: string, values: unknown[] = []) {
  const query = session.query.bind(session) as (
    text: string,
    values: unknown[],
  ) => Promise<{ rows: unknown[] }>;
  return (await query(text, values)).rows as Row[];
}

/** Failing records of one rule: the first REPORT_LISTED and how many in all. */
async function failingRows(session: Session, from: string, where: string, value: string) {
  const rows = await rowsOf<Failure & { total: number }>(
    session,
    `select id::text as id, ${value} as value, (count(*) over ())::int as total
     from ${from} where ${where} order by created_at, id limit ${REPORT_LISTED}`,
  );
  return { rows, total: rows[0]?.total ?? 0 };
}

/** How many records follow each rule, and which fail it. */
class Report {
  failures: DefinitionReport['failures'] = [];
  failed = 0;

  add(field: EntityField, message: string, rows: Failure[], total: number) {
    this.failed += total;
    for (const row of rows) {
      if (this.failures.length >= REPORT_LISTED) break;
      this.failures.push({ _id: row.id, field: field.name, value: row.value, message });
    }
  }
}

/**
 * What changing an entity's definition from `before` to `after` would do to its records:
 * how many there are, how many have a value converted to a new type, and every value that
 * could not follow (one that does not convert, breaks a text field's new rules, points at
 * no record of a relation's target, leaves a required field empty, or repeats in a unique
 * one), the first REPORT_LISTED of them listed. `targets`: relation targets' ids by name.
 */
export async function definitionReport(
  session: Session,
  before: RecordsDefinition,
  after: RecordsDefinition,
  targets: Map<string, string>,
): Promise<DefinitionReport> {
  const table = quoted(tableOf(after.id));
  const old = new Map(before.fields.map((field) => [field.name, field]));
  const report = new Report();
  const [{ records } = { records: 0 }] = await rowsOf<{ records: number }>(
    session,
    `select count(*)::int as records from ${table}`,
  );
  const retyped: string[] = [];
  for (const field of after.fields) {
    const was = old.get(field.name);
    if (!was) {
      // A new field is empty in every record: a required one needs a default.
      if (field.required && field.default === undefined && records > 0) {
        const { rows, total } = await failingRows(session, table, 'true', 'null::text');
        report.add(field, 'is required', rows, total);
      }
      continue;
    }
    const column = quoted(columnOf(field.name));
    const { value, converts } = conversionOf(column, was, field);
    const isRetyped = typeOf(was) !== typeOf(field);
    if (isRetyped) retyped.push(`${column} is not null`);
    const asText = `${column}::text`;
    if (isRetyped) {
      const { rows, total } = await failingRows(
        session,
        table,
        `${column} is not null and not (${converts})`,
        asText,
      );
      report.add(field, conversionMessage(field), rows, total);
    }
    // A value that converts, as the new type, where it converts.
    const converted = `(case when ${converts} then ${value} end)`;
    if (TEXT_TYPES.includes(typeOf(field)) && (isRetyped || changedRules(was, field))) {
      await checkTexts(session, table, column, converted, field, report);
    }
    if (typeOf(field) === 'relation' && (isRetyped || was.target !== field.target)) {
      const target = quoted(tableOf(targets.get(field.target!)!));
      const { rows, total } = await failingRows(
        session,
        table,
        `${converted} is not null and not exists (select from ${target} t where t.id = ${converted})`,
        asText,
      );
      report.add(field, conversionMessage(field), rows, total);
    }
    if (field.required && (!was.required || isRetyped)) {
      // Empty before, or emptied by the conversion (a blank text); a value that does not
      // convert is told above.
      const blank = TEXT_TYPES.includes(typeOf(field)) ? ` or btrim(${converted}::text) = ''` : '';
      const { rows, total } = await failingRows(
        session,
        table,
        `${column} is null or ((${converts}) and (${converted} is null${blank}))`,
        asText,
      );
      report.add(field, 'is required', rows, total);
    }
    if (field.unique && (!was.unique || isRetyped)) {
      const { rows, total } = await failingRows(
        session,
        `(select *, count(*) over (partition by ${converted}) as repeats from ${table}) r`,
        `${converted} is not null and repeats > 1`,
        asText,
      );
      report.add(field, 'is taken by another record', rows, total);
    }
  }
  const [{ converted } = { converted: 0 }] = retyped.length
    ? await rowsOf<{ converted: number }>(
        session,
        `select count(*)::int as converted from ${table} where ${retyped.join(' or ')}`,
      )
    : [];
  return { records, converted, failed: report.failed, failures: report.failures };
}

/** Whether a text-like field's rules changed: a select's options, or between text kinds. */
const changedRules = (was: EntityField, field: EntityField) =>
  JSON.stringify(was.options ?? []) !== JSON.stringify(field.options ?? []);

/** How many values a text check reads at a time. */
const TEXT_BATCH = 10_000;

/**
 * Checks every value of a text-like field, as converted, against the field's rules
 * (`valueSchemaOf`: a select's options, an email's or a web address's form, a length), in
 * batches of TEXT_BATCH in the id order.
 */
async function checkTexts(
  session: Session,
  table: string,
  column: string,
  converted: string,
  field: EntityField,
  report: Report,
) {
  const schema = valueSchemaOf(field);
  const failing: Failure[] = [];
  let total = 0;
  let message = '';
  const batch = (after: string) =>
    `select id::text as id, ${converted} as value from ${table}
     where ${column} is not null ${after} order by id limit ${TEXT_BATCH}`;
  for (let after: string | undefined; ;) {
    const rows: Failure[] = after
      ? await rowsOf<Failure>(session, batch('and id > $1::uuid'), [after])
      : await rowsOf<Failure>(session, batch(''));
    for (const row of rows) {
      if (row.value === null || row.value.trim() === '') continue;
      const parsed = schema.safeParse(row.value);
      if (parsed.success) continue;
      total += 1;
      message ||= parsed.error.issues[0]!.message;
      if (failing.length < REPORT_LISTED) failing.push(row);
    }
    if (rows.length < TEXT_BATCH) break;
    after = rows.at(-1)!.id;
  }
  report.add(field, message, failing, total);
}
