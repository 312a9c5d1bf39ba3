/** A plain number, as a spreadsheet reads one (`-7.25`, `+3`, `1e-5`): never a formula. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break, quotes
 * doubled. A text a spreadsheet would run as a formula (starting with =, +, -, @, tab or
 * carriage return, but for a plain number) gets a leading apostrophe first (OWASP's CSV
 * injection advice).
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) && !NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV record, ended by CRLF (RFC 4180). */
export const csvRecord = (fields: (string | null)[]) => `${fields.map(csvField).join(',')}\r\n`;
