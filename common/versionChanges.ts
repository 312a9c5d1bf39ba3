import type { VersionChange } from './schemas/versions';

/**
 * The values of a snapshot that a comparison looks at: a record's `fields` (its document is
 * `{ _id, entity_name, fields, _version }`), any other document but its `_id` and `_version`
 * (which every change moves).
 */
export function comparedValues(document: Record<string, unknown>): Record<string, unknown> {
  const { fields } = document;
  if (fields && typeof fields === 'object' && !Array.isArray(fields) && 'entity_name' in document)
    return fields as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(document).filter(([key]) => key !== '_id' && key !== '_version'),
  );
}

/** A missing field, a null and an empty text all say the same: no value. */
const valueOf = (value: unknown) => (value === undefined || value === '' ? null : value);

/**
 * What differs from `before` to `after`, field by field (A–Z): `{ field, from, to }`, with
 * `null` for a field without a value.
 */
export function compareValues(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): VersionChange[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return fields
    .map((field) => ({ field, from: valueOf(before[field]), to: valueOf(after[field]) }))
    .filter(({ from, to }) => JSON.stringify(from) !== JSON.stringify(to));
}
