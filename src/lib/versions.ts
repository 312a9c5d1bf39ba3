import type {
  FetchArgs,
  FetchBaseQueryError,
  FetchBaseQueryMeta,
  QueryReturnValue,
} from '@reduxjs/toolkit/query';
import { VERSION_PAGE_SIZE } from '@common/constants';
import { messages } from '@common/messages';
import type { Version } from '@common/schemas/versions';
import type { FieldType } from '@common/schemas/fieldValues';
import { comparedValues } from '@common/versionChanges';
import { formatDate, formatDateTime, formatNumber } from '@/i18n/format';
import { t } from '@/i18n/useT';
import { localDateOf } from './calendarDays';

/** Keys of a snapshot that say nothing to a reader (spec section 3). */
export const HIDDEN_VERSION_KEYS = new Set(['_id', 'entity_name', 'path', '__v', 'lastModified']);

/** What a history says of a version that changed nothing (or of a field its snapshot lacks). */
export const noChanges = () => t('history.noChanges');

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

/**
 * The fields shown for every version: all the snapshots' keys but the hidden ones, in the
 * item's order (`order`: as its form shows them) and then as they come.
 */
export function versionFields(versions: Version[], order: readonly string[] = []): string[] {
  const keys = new Set<string>();
  for (const version of versions) {
    for (const key of Object.keys(shownValues(version)))
      if (!HIDDEN_VERSION_KEYS.has(key)) keys.add(key);
  }
  return inOrder([...keys], order, (key) => key);
}

/** `items` by their field's place in `order`; the fields it does not name after, as they were. */
export function inOrder<T>(items: T[], order: readonly string[], fieldOf: (item: T) => string) {
  const place = (item: T) => {
    const at = order.indexOf(fieldOf(item));
    return at === -1 ? order.length : at;
  };
  return [...items].sort((a, b) => place(a) - place(b));
}

/** A value as the history shows it: empty for none, JSON for a list or an object. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Shows a value of a field as a reader reads it. */
export type ValueShower = (field: string, value: unknown) => string;

/** How a history reads an item's fields, where the item says more than their names. */
export interface HistoryFields {
  /** The fields in the order the item's form shows them (the history shows them so). */
  order?: readonly string[];
  /** What a reader calls a field (its label, in the language in effect). */
  labelOf?(field: string): string;
  /** A field's type, where the item's fields are typed (a record's): its values show by it. */
  typeOf?(field: string): FieldType | undefined;
  /** A value the item shows its own way (an entity's fields), or undefined for the usual way. */
  show?(field: string, value: unknown): string | undefined;
}

/**
 * How a history shows its values: the item's own way where it has one (`fields.show`), else
 * by each field's type where it is known (`fields.typeOf`), a date as a date, a datetime in
 * local time, a boolean as yes or no, a relation by the display value the server gave it in
 * some version (`document._display`), else as text.
 */
export function valueShower(versions: Version[], fields: HistoryFields = {}): ValueShower {
  const labels = new Map<string, string>();
  for (const { document } of versions) {
    const display = (document._display ?? {}) as Record<string, unknown>;
    const values = comparedValues(document);
    for (const [field, label] of Object.entries(display))
      labels.set(String(values[field]), String(label));
  }
  return (field, value) => {
    if (value === null || value === undefined || value === '') return '';
    const own = fields.show?.(field, value);
    if (own !== undefined) return own;
    // A version from before its field changed type keeps the value it had: shown as it is.
    const type = fields.typeOf?.(field);
    if (type === 'boolean' && typeof value === 'boolean')
      return t(value ? 'history.yes' : 'history.no');
    if ((type === 'number' || type === 'integer') && typeof value === 'number')
      return formatNumber(value);
    if (type === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))
      return formatDate(localDateOf(value));
    if (type === 'datetime' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
      const at = new Date(value);
      if (!Number.isNaN(at.getTime())) return formatDateTime(at);
    }
    if (type === 'relation') return labels.get(String(value)) ?? displayValue(value);
    return displayValue(value);
  };
}

/** What a version shows for a field: its value, or 'No changes' when its snapshot lacks it. */
export function versionValue(version: Version, field: string, show: ValueShower): string {
  const values = shownValues(version);
  return field in values ? show(field, values[field]) : noChanges();
}

/** The `If-Match` of a write based on version `version` of an item (none: last write wins). */
export const ifMatch = (version?: number) =>
  version === undefined ? undefined : { 'if-match': `"${version}"` };

type Answer<T> = QueryReturnValue<T, FetchBaseQueryError, FetchBaseQueryMeta | undefined>;
type BaseQuery = (args: string | FetchArgs) => Answer<unknown> | PromiseLike<Answer<unknown>>;

/** What a restore of an item with no history answers: there is nothing to restore. */
const noHistory: FetchBaseQueryError = {
  status: 404,
  data: {
    statusCode: 404,
    error: 'Not Found',
    code: 'NOT_FOUND',
    message: messages.server.notFound,
  },
};

/**
 * A restore's `queryFn`: makes version `versionId` of the item at `itemUrl` current again,
 * naming `version` (the one shown as current). Without `versionId`, it brings the item
 * back as it was deleted (its newest version, the delete); should someone have brought it
 * back meanwhile, it answers the item as it is now.
 */
export async function restoreItem<Item>(
  baseQuery: BaseQuery,
  itemUrl: string,
  versionId: string | undefined,
  version?: number,
): Promise<Answer<Item>> {
  let restoring = versionId;
  if (!restoring) {
    const newest = await baseQuery(`${itemUrl}/versions?page=1&perPage=1`);
    if (newest.error) return { error: newest.error };
    const [latest] = newest.data as Version[];
    if (!latest) return { error: noHistory };
    if (latest.action !== 'delete') return { data: latest.document as Item };
    restoring = latest._id;
  }
  // The endpoint's response schema checks what it is.
  return (await baseQuery({
    url: `${itemUrl}/versions/${restoring}/restore`,
    method: 'POST',
    headers: ifMatch(version),
  })) as Answer<Item>;
}
