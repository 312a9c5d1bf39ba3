import { i18n } from './i18n';

/**
 * Dates, times and numbers as people read them in the language in effect (`Intl`), in the
 * browser's time zone. The formatters are made once per language.
 */
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
function formatter<F>(key: string, make: (locale: string) => F): F {
  const id = `${i18n.locale}:${key}`;
  if (!cache.has(id)) cache.set(id, make(i18n.locale) as never);
  return cache.get(id) as F;
}

/** A moment with its date and time: `Nov 25, 2026, 10:06 PM`, `25 nov. 2026, 22:06`. */
export const formatDateTime = (value: string | number | Date) =>
  formatter(
    'dateTime',
    (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }),
  ).format(new Date(value));

/** A day: `Nov 25, 2026`, `25 nov. 2026`. */
export const formatDate = (value: string | number | Date) =>
  formatter('date', (locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium' })).format(
    new Date(value),
  );

/** A number: `12,345.5`, `12 345,5`. */
export const formatNumber = (value: number) =>
  formatter('number', (locale) => new Intl.NumberFormat(locale)).format(value);

/** The exact moment in UTC, the same in every language (a hover's detail): `2026-11-25 22:06:59 UTC`. */
export const formatUtc = (value: string | number | Date) =>
  `${new Date(value).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** How long ago (or how soon), in the largest whole unit: `3 minutes ago`, `il y a 3 minutes`. */
export function formatRelative(value: string | number | Date, now = Date.now()): string {
  const seconds = (new Date(value).getTime() - now) / 1000;
  const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? UNITS.at(-1)!;
  return formatter(
    'relative',
    (locale) => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
  ).format(Math.trunc(seconds / size), unit);
}
