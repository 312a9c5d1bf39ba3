/**
 * The first record of a CSV text (RFC 4180: quoted fields may hold commas, doubled quotes
 * and line breaks), without a byte-order mark: a file's column headings, read in the
 * browser from its first bytes to map them before the file is sent.
 */
export function firstRecordOf(text: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  const source = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (quoted) {
      if (char === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') break;
    else field += char;
  }
  fields.push(field);
  return fields;
}
