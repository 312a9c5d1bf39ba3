import type { Version } from '@common/schemas/versions';

/** Keys of a snapshot that say nothing to a reader (spec section 3). */
export const HIDDEN_VERSION_KEYS = new Set(['_id', 'entity_name', 'path', '__v', 'lastModified']);

export const NO_CHANGES = 'No changes';

/** The fields shown for every version: all the snapshots' keys but the hidden ones. */
export function versionFields(versions: Version[]): string[] {
  const keys = new Set<string>();
  for (const { document } of versions) {
    for (const key of Object.keys(document)) if (!HIDDEN_VERSION_KEYS.has(key)) keys.add(key);
  }
  return [...keys];
}

/** What a version shows for a field: its value, or 'No changes' when its snapshot lacks it. */
export function versionValue(version: Version, field: string): string {
  if (!(field in version.document)) return NO_CHANGES;
  const value = version.document[field];
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
