/**
 * A date field's value is a calendar day, `YYYY-MM-DD`, with no time zone. The browser's
 * date inputs and locale formats read a Date in local time, so a day is shown as the local
 * midnight that begins it, and read back from a Date's local year, month and day.
 */

/** Day `YYYY-MM-DD` as the local Date that begins it. */
export function localDateOf(day: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date);
}

/** A local Date's calendar day, `YYYY-MM-DD`. */
export const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
