import { i18n } from './i18n';

/**
 * Dates and times as people read them in the language in effect (`Intl`), in the browser's
 * time zone; the formatters are made once per language. (Numbers inside a message go
 * through ICU's `{n, number}`.)
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function format(value: string | number | Date, options: Intl.DateTimeFormatOptions): string {
  const key = `${i18n.locale}:${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) formatters.set(key, (formatter = new Intl.DateTimeFormat(i18n.locale, options)));
  return formatter.format(new Date(value));
}

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();
function relative(amount: number, unit: Intl.RelativeTimeFormatUnit): string {
  let formatter = relativeFormatters.get(i18n.locale);
  if (!formatter) {
    formatter = new Intl.RelativeTimeFormat(i18n.locale, { numeric: 'auto' });
    relativeFormatters.set(i18n.locale, formatter);
  }
  return formatter.format(amount, unit);
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Local midnight of a moment's day. */
const dayStart = (at: number) => new Date(at).setHours(0, 0, 0, 0);

/**
 * A moment within a week of `now` as a relative time (`now`, `5 minutes ago`,
 * `il y a 3 heures`, `yesterday`, `in 3 days`), a moment further away as
 * {@link formatDateTime}. Days are the calendar's: 26 hours ago, past two midnights, is
 * `2 days ago`, not `yesterday`.
 */
export function formatMoment(value: string | number | Date, now = Date.now()): string {
  const at = new Date(value).getTime();
  const ms = at - now;
  // Whole units only: 59 minutes and 50 seconds is `59 minutes ago`, not `60 minutes ago`.
  if (Math.abs(ms) < MINUTE_MS) return relative(0, 'second');
  if (Math.abs(ms) < HOUR_MS) return relative(Math.trunc(ms / MINUTE_MS), 'minute');
  if (Math.abs(ms) < DAY_MS) return relative(Math.trunc(ms / HOUR_MS), 'hour');
  // Rounded: a day with a clock change is 23 or 25 hours long.
  const days = Math.round((dayStart(at) - dayStart(now)) / DAY_MS);
  if (Math.abs(days) < 7) return relative(days, 'day');
  return formatDateTime(value);
}

/** A moment with its date and time: `Nov 25, 2026, 10:06 PM`, `25 nov. 2026, 22:06`. */
export const formatDateTime = (value: string | number | Date) =>
  format(value, { dateStyle: 'medium', timeStyle: 'short' });

/** A day: `Nov 25, 2026`, `25 nov. 2026`. */
export const formatDate = (value: string | number | Date) => format(value, { dateStyle: 'medium' });

/** The exact moment in UTC, the same in every language (a hover's detail): `2026-11-25 22:06:59 UTC`. */
export const formatUtc = (value: string | number | Date) =>
  `${new Date(value).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(useGrouping = true): Intl.NumberFormat {
  const key = `${i18n.locale}:${useGrouping}`;
  let formatter = numberFormats.get(key);
  if (!formatter) {
    // Every digit the value has: a stored 0.12345 is not shown as 0.123.
    formatter = new Intl.NumberFormat(i18n.locale, { maximumFractionDigits: 20, useGrouping });
    numberFormats.set(key, formatter);
  }
  return formatter;
}

/** A number as the language in effect writes it: `1,234.5`, `1 234,5`. */
export const formatNumber = (value: number) => numberFormat().format(value);

/** A number to edit, as the language in effect writes it but without groups: `1234,5`. */
export const numberToEdit = (value: number) => numberFormat(false).format(value);

/**
 * A number typed as the language in effect writes it (`3,75` in French, `1,000.5` in
 * English; a point is a decimal point in both), or NaN when it is not one. Group separators
 * count only before three digits: English `3,75` is NaN, not 375.
 */
export function parseNumber(text: string): number {
  const parts = numberFormat().formatToParts(1000.5);
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  // French groups with a narrow no-break space; people type a plain space, or none.
  const groups = /\s/.test(group) ? '[\\s\\u00a0\\u202f]' : `[${group}]`;
  const plain = text
    .trim()
    .replace(new RegExp(`(\\d)${groups}(?=\\d{3}(?!\\d))`, 'g'), '$1')
    .replace(decimal, '.');
  return plain === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(plain) ? NaN : Number(plain);
}
