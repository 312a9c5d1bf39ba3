import type { GridFilterItem, GridSortDirection } from '@mui/x-data-grid';
import { RECORD_PAGE_SIZE } from '@common/constants';
import { type EntityField, RECORD_FILTER_KEY, type RecordFilterOp } from '@common/schemas/entities';
import type { FieldType } from '@common/schemas/fieldValues';

/**
 * The record grid's view (page, size, sort, quick search, filter) lives in the page's URL,
 * in the API's own words (`sort=name:asc`, `filter[name][op]=value`), so a link or a reload
 * shows the same view and the URL's query is the page's request.
 */

export const RECORD_PAGE_SIZES = [25, RECORD_PAGE_SIZE, 100] as const;

/** The longest quick search the server takes. */
export const RECORD_SEARCH_MAX_LENGTH = 200;

/** One filter as the grid holds it (the community grid has one at a time). */
export interface RecordFilter {
  /** A field's name. */
  field: string;
  /** The grid's operator: `contains`, `=`, `onOrAfter`, `between`, … */
  operator: string;
  value?: unknown;
}

export interface RecordView {
  page: number;
  perPage: number;
  sort?: { field: string; sort: NonNullable<GridSortDirection> };
  q: string;
  filter?: RecordFilter;
}

/** How a column of each type filters: the grid's operator for each op of the API. */
type FilterKind = 'text' | 'number' | 'date' | 'select' | 'boolean' | 'relation';

const kindOf = (type: FieldType = 'text'): FilterKind => {
  switch (type) {
    case 'number':
    case 'integer':
      return 'number';
    case 'date':
    case 'datetime':
      return 'date';
    case 'select':
    case 'boolean':
    case 'relation':
      return type;
    default:
      return 'text';
  }
};

const GRID_OPERATORS: Record<FilterKind, Partial<Record<RecordFilterOp, string>>> = {
  text: { contains: 'contains', eq: 'equals', ne: 'doesNotEqual' },
  number: { eq: '=', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' },
  date: { eq: 'is', ne: 'not', gt: 'after', gte: 'onOrAfter', lt: 'before', lte: 'onOrBefore' },
  select: { eq: 'is', ne: 'not', in: 'isAnyOf' },
  boolean: { eq: 'is' },
  relation: {},
};

/** The operator that asks for two bounds (`gte` and `lte`), offered for numbers and dates. */
export const BETWEEN = 'between';

/** The grid operators a field's column offers: those the server can answer. */
export function gridOperatorsOf(field: EntityField): string[] {
  const kind = kindOf(field.type);
  const operators = Object.values(GRID_OPERATORS[kind]);
  if (kind === 'number' || field.type === 'date') operators.push(BETWEEN);
  if (kind !== 'boolean') operators.push('isEmpty', 'isNotEmpty');
  return operators;
}

/** A filter value as the API reads it; undefined while there is none to send. */
function valueText(field: EntityField, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  switch (field.type) {
    case 'number':
      return Number.isFinite(Number(value)) ? String(Number(value)) : undefined;
    // A whole-number field compares with whole numbers (the server refuses 2.5).
    case 'integer':
      return Number.isInteger(Number(value)) ? String(Number(value)) : undefined;
    // The grid's date input makes a UTC midnight; its datetime input, a local time.
    case 'date': {
      const day = value instanceof Date ? value : new Date(String(value));
      return Number.isNaN(day.getTime()) ? undefined : day.toISOString().slice(0, 10);
    }
    case 'datetime': {
      const at = value instanceof Date ? value : new Date(String(value));
      return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
    }
    default:
      return String(value);
  }
}

/** The API's parameters of a filter: none while it is incomplete (no value typed yet). */
export function filterParams(field: EntityField, filter: RecordFilter): [string, string][] {
  const key = (op: RecordFilterOp) => `filter[${field.name}][${op}]`;
  const { operator, value } = filter;
  if (operator === 'isEmpty' || operator === 'isNotEmpty')
    return [[key('empty'), String(operator === 'isEmpty')]];
  if (operator === BETWEEN) {
    const [from, to] = Array.isArray(value) ? value : [];
    const bounds: [string, string][] = [];
    const low = valueText(field, from);
    const high = valueText(field, to);
    if (low !== undefined) bounds.push([key('gte'), low]);
    if (high !== undefined) bounds.push([key('lte'), high]);
    return bounds;
  }
  const entry = Object.entries(GRID_OPERATORS[kindOf(field.type)]).find(
    ([, gridOperator]) => gridOperator === operator,
  );
  if (!entry) return [];
  const op = entry[0] as RecordFilterOp;
  if (op === 'in') {
    const texts = (Array.isArray(value) ? value : []).map((one) => valueText(field, one));
    const given = texts.filter((text): text is string => text !== undefined);
    return given.length ? [[key('in'), given.join(',')]] : [];
  }
  const text = valueText(field, value);
  return text === undefined ? [] : [[key(op), text]];
}

/** The filter that URL parameters describe (the first field filtered), if any. */
function filterOf(
  fields: readonly EntityField[],
  params: URLSearchParams,
): RecordFilter | undefined {
  const ops = new Map<RecordFilterOp, string>();
  let field: EntityField | undefined;
  for (const [key, value] of params) {
    const match = RECORD_FILTER_KEY.exec(key);
    const named = match && fields.find((candidate) => candidate.name === match[1]);
    if (!named || (field && named !== field)) continue;
    field = named;
    ops.set(match[2] as RecordFilterOp, value);
  }
  if (!field) return undefined;
  const filter = readFilter(field, ops);
  // Only what the column offers (no `empty` on a yes/no, no `between` on a datetime).
  return filter && gridOperatorsOf(field).includes(filter.operator) ? filter : undefined;
}

/** The grid's filter of a field's ops in the URL, if they make one. */
function readFilter(
  field: EntityField,
  ops: Map<RecordFilterOp, string>,
): RecordFilter | undefined {
  const empty = ops.get('empty');
  if (empty !== undefined)
    return { field: field.name, operator: empty === 'false' ? 'isNotEmpty' : 'isEmpty' };
  const gte = ops.get('gte');
  const lte = ops.get('lte');
  if (gte !== undefined && lte !== undefined)
    return { field: field.name, operator: BETWEEN, value: [gte, lte] };
  for (const [op, operator] of Object.entries(GRID_OPERATORS[kindOf(field.type)])) {
    const text = ops.get(op as RecordFilterOp);
    if (text !== undefined)
      return { field: field.name, operator, value: op === 'in' ? text.split(',') : text };
  }
  return undefined;
}

/** The view a URL describes; anything missing or unknown takes its default. */
export function viewFromParams(
  fields: readonly EntityField[],
  params: URLSearchParams,
): RecordView {
  const page = Number(params.get('page'));
  const perPage = Number(params.get('perPage'));
  const [sortField, direction] = (params.get('sort') ?? '').split(':');
  const sorted = fields.some((field) => field.name === sortField);
  return {
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, 1_000_000) : 1,
    perPage: (RECORD_PAGE_SIZES as readonly number[]).includes(perPage)
      ? perPage
      : RECORD_PAGE_SIZE,
    sort: sorted ? { field: sortField!, sort: direction === 'desc' ? 'desc' : 'asc' } : undefined,
    q: (params.get('q') ?? '').trim().slice(0, RECORD_SEARCH_MAX_LENGTH),
    filter: filterOf(fields, params),
  };
}

/**
 * The URL of a view, leaving defaults out; with `asRequest`, the page's request (which
 * always names its page, so the server answers a page and not the plain array).
 */
export function paramsFromView(
  fields: readonly EntityField[],
  view: RecordView,
  asRequest = false,
): URLSearchParams {
  const params = new URLSearchParams();
  if (asRequest || view.page !== 1) params.set('page', String(view.page));
  if (asRequest || view.perPage !== RECORD_PAGE_SIZE) params.set('perPage', String(view.perPage));
  if (view.sort) params.set('sort', `${view.sort.field}:${view.sort.sort}`);
  if (view.q) params.set('q', view.q);
  const field = view.filter && fields.find((candidate) => candidate.name === view.filter!.field);
  if (field) for (const [key, value] of filterParams(field, view.filter!)) params.set(key, value);
  return params;
}

/** The grid's filter item of a view's filter (its columns are `value:<name>`). */
export const gridFilterItem = (filter: RecordFilter): GridFilterItem => ({
  id: 1,
  field: `value:${filter.field}`,
  operator: filter.operator,
  value: filter.value,
});
