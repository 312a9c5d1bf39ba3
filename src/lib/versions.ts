import { VERSION_PAGE_SIZE } from '@common/constants';
import type { Version } from '@common/schemas/versions';
import { comparedValues } from '@common/versionChanges';

/** Keys of a snapshot that say nothing to a reader (spec section 3). */
export const HIDDEN_VERSION_KEYS = new Set(['_id', 'entity_name', 'path', '__v', 'lastModified']);

export const NO_CHANGES = 'No changes';

/** Version histories load `VERSION_PAGE_SIZE` at a time; a short page is the last. */
export const versionPages = {
  initialPageParam: 1,
  getNextPageParam: (lastPage: Version[], _allPages: Version[][], lastPageParam: number) =>
    lastPage.length < VERSION_PAGE_SIZE ? undefined : lastPageParam + 1,
};

/** The query string of a page of a history. */
export const versionPageQuery = (page: number) => `?page=${page}&perPage=${VERSION_PAGE_SIZE}`;

/** What a snapshot shows: a record's field values, any other document's fields. */
const shownValues = (version: Version) => comparedValues(version.document);

/** The fields shown for every version: all the snapshots' keys but the hidden ones. */
export function versionFields(versions: Version[]): string[] {
  const keys = new Set<string>();
  for (const version of versions) {
    for (const key of Object.keys(shownValues(version)))
      if (!HIDDEN_VERSION_KEYS.has(key)) keys.add(key);
  }
  return [...keys];
}

/** A value as the history shows it: empty for none, JSON for a list or an object. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** What a version shows for a field: its value, or 'No changes' when its snapshot lacks it. */
export function versionValue(version: Version, field: string): string {
  const values = shownValues(version);
  return field in values ? displayValue(values[field]) : NO_CHANGES;
}

/** The `If-Match` of a write based on version `version` of an item (none: last write wins). */
export const ifMatch = (version?: number) =>
  version === undefined ? undefined : { 'if-match': `"${version}"` };
