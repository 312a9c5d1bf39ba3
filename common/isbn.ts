/**
 * ISBN checks. An ISBN is written with or without hyphens and spaces; it is stored
 * normalised: digits only, with a final X allowed for ISBN-10.
 */

/** The ISBN without hyphens and spaces, upper-cased (a final x becomes X). */
export const normaliseIsbn = (isbn: string) => isbn.replace(/[\s-]/g, '').toUpperCase();

function validIsbn10(isbn: string): boolean {
  if (!/^\d{9}[\dX]$/.test(isbn)) return false;
  const sum = [...isbn].reduce(
    (total, char, index) => total + (char === 'X' ? 10 : Number(char)) * (10 - index),
    0,
  );
  return sum % 11 === 0;
}

function validIsbn13(isbn: string): boolean {
  if (!/^\d{13}$/.test(isbn)) return false;
  const sum = [...isbn].reduce(
    (total, char, index) => total + Number(char) * (index % 2 ? 3 : 1),
    0,
  );
  return sum % 10 === 0;
}

/** True for a valid ISBN-10 or ISBN-13 (checksum included), in any usual writing. */
export function isValidIsbn(isbn: string): boolean {
  const normalised = normaliseIsbn(isbn);
  return validIsbn10(normalised) || validIsbn13(normalised);
}
