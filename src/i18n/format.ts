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

/** A moment with its date and time: `Nov 25, 2026, 10:06 PM`, `25 nov. 2026, 22:06`. */
export const formatDateTime = (value: string | number | Date) =>
  format(value, { dateStyle: 'medium', timeStyle: 'short' });

/** A day: `Nov 25, 2026`, `25 nov. 2026`. */
export const formatDate = (value: string | number | Date) => format(value, { dateStyle: 'medium' });

/** The exact moment in UTC, the same in every language (a hover's detail): `2026-11-25 22:06:59 UTC`. */
export const formatUtc = (value: string | number | Date) =>
  `${new Date(value).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
