import { z } from 'zod';
import { multiLineText, singleLineText } from './text';

/** The types a field may have; `text` is the default (every field of the spec is text). */
export const FIELD_TYPES = [
  'text',
  'longText',
  'number',
  'integer',
  'boolean',
  'date',
  'datetime',
  'select',
  'email',
  'url',
  'relation',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A record's value on the wire: a string for text-like fields, else a JSON value of its type. */
export type FieldValue = string | number | boolean;
export const anyFieldValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** What a value's schema needs of its field. */
export interface TypedField {
  type?: FieldType;
  required?: boolean;
  unique?: boolean;
  options?: string[];
}

const TEXT_MAX = 10_000;
const LONG_TEXT_MAX = 100_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` naming a day that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

const DATETIME_MESSAGE =
  'must be a date and time with its time zone, such as 2026-11-26T14:30:00Z or 2026-11-26T15:30:00+01:00';

/**
 * The schema of one value of a field of `type`, without the empty case: what a filled-in
 * value must be. Datetimes come out in UTC (`…Z`, milliseconds), whatever offset they had.
 */
export function valueSchemaOf(field: TypedField): z.ZodType<FieldValue> {
  switch (field.type ?? 'text') {
    case 'text':
      return multiLineText().max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`);
    case 'longText':
      return multiLineText().max(LONG_TEXT_MAX, `must be at most ${LONG_TEXT_MAX} characters`);
    case 'number':
      return z.number({ error: 'must be a number' });
    case 'integer':
      return z
        .number({ error: 'must be a whole number' })
        .int('must be a whole number')
        .min(Number.MIN_SAFE_INTEGER, 'is too small')
        .max(Number.MAX_SAFE_INTEGER, 'is too large');
    case 'boolean':
      return z.boolean({ error: 'must be true or false' });
    case 'date':
      return z
        .string({ error: 'must be a date such as 2026-11-26' })
        .refine(isCalendarDate, 'must be a date such as 2026-11-26');
    case 'datetime':
      return z
        .string({ error: DATETIME_MESSAGE })
        .pipe(z.iso.datetime({ offset: true, error: DATETIME_MESSAGE }))
        .refine((value) => isCalendarDate(value.slice(0, 10)), DATETIME_MESSAGE)
        .transform((value) => new Date(value).toISOString());
    case 'select': {
      const options = field.options ?? [];
      return z
        .string({ error: `must be one of: ${options.join(', ')}` })
        .refine((value) => options.includes(value), `must be one of: ${options.join(', ')}`);
    }
    case 'email':
      return singleLineText({ error: 'must be an email address' })
        .max(254, 'must be at most 254 characters')
        .pipe(z.email('must be an email address'));
    case 'url':
      return singleLineText({ error: 'must be a web address' })
        .max(2048, 'must be at most 2048 characters')
        .pipe(z.url({ protocol: /^https?$/, error: 'must be a web address (http or https)' }));
    case 'relation':
      return z.uuid('must be the id of a record');
  }
}

/** A value is empty when absent, null, or (for text-like fields) blank. */
export const isEmptyValue = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The schema of a field's value in a write: a filled-in value of its type, or (unless the
 * field is required) an empty one, which comes out as null. Text keeps an empty string as
 * it was sent, as the spec's records always have.
 */
export function fieldValueSchema(field: TypedField): z.ZodType<FieldValue | null> {
  const filled = valueSchemaOf(field);
  const textual = (field.type ?? 'text') === 'text' || field.type === 'longText';
  return z.unknown().transform((value, ctx): FieldValue | null => {
    if (isEmptyValue(value)) {
      if (field.required) {
        ctx.addIssue({ code: 'custom', message: 'is required' });
        return z.NEVER;
      }
      // A unique text's blank is no value: two records may both leave it empty.
      if (textual && typeof value === 'string' && !field.unique) return value;
      if (value === undefined || value === null || typeof value === 'string') return null;
    }
    const parsed = filled.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/** A field as a record's values need it. */
export interface ValuedField extends TypedField {
  name: string;
  default?: FieldValue;
}

/** What is wrong with a record's values, per field (`fields` for keys that are no field). */
export interface ValueProblem {
  field: string;
  message: string;
}

/**
 * A record's values checked against its definition's fields: every field's value, typed
 * (null when empty), or what is wrong, per field. A new record's empty fields take their
 * defaults; a change replaces every value, as the spec's PUT does.
 */
export function parseRecordValues(
  fields: readonly ValuedField[],
  input: Record<string, unknown>,
  { creating }: { creating: boolean },
): { values: Record<string, FieldValue | null> } | { problems: ValueProblem[] } {
  const names = new Set(fields.map((field) => field.name));
  const unknown = Object.keys(input).filter((key) => !names.has(key));
  if (unknown.length > 0) {
    return { problems: [{ field: 'fields', message: `unknown fields: ${unknown.join(', ')}` }] };
  }
  const values: Record<string, FieldValue | null> = {};
  const problems: ValueProblem[] = [];
  for (const field of fields) {
    const given = input[field.name];
    // A new record's empty field takes the default, left out or blank (a grid's new row).
    const value =
      creating && field.default !== undefined && isEmptyValue(given) ? field.default : given;
    const parsed = fieldValueSchema(field).safeParse(value);
    if (parsed.success) values[field.name] = parsed.data;
    else problems.push({ field: field.name, message: parsed.error.issues[0]!.message });
  }
  return problems.length > 0 ? { problems } : { values };
}
