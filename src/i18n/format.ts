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

/** Each unit of a relative time, with how many of it make the next. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/**
 * A moment within a week of `now` as a relative time (`5 minutes ago`, `il y a 5 minutes`,
 * `yesterday`, `in 3 days`), a moment further away as {@link formatDateTime}.
 */
export function formatMoment(value: string | number | Date, now = Date.now()): string {
  let amount = (new Date(value).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    // Whole units only: 59.6 seconds is `59 seconds ago`, not `60 seconds ago`.
    if (Math.abs(amount) < size) return relative(Math.trunc(amount), unit);
    amount /= size;
  }
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
