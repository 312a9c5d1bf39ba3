import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';

/**
 * A grid's column layout lives in its URL beside the list's own view: `columns` names the
 * columns shown, in their order (`columns=email,username`), `widths` the widths set by hand
 * (`widths=email:240`). Columns are named without a `value:` style prefix, so a record
 * grid's URL reads `columns=name,price`. Absent, the grid's own layout stands.
 */

/** The URL parameters of the layout; a list's own view keeps them as they are. */
export const LAYOUT_PARAMS = ['columns', 'widths'] as const;

/** The narrowest and widest a width from a URL may make a column. */
const WIDTH_RANGE = { min: 40, max: 2000 };

/** A column's name in the URL: its field without a prefix (`value:price` → `price`). */
export const urlNameOf = (field: string) => field.slice(field.indexOf(':') + 1);

/** A column the chooser offers: it can be hidden and moved (not the actions, not fixed ones). */
export const isChoosable = (column: GridColDef) =>
  column.type !== 'actions' && column.hideable !== false;

export interface GridLayout {
  /** The choosable columns shown, in order (by field); undefined: the grid's own. */
  shown?: string[];
  /** Widths set by hand, by field. */
  widths: Record<string, number>;
}

/**
 * The layout a URL's `columns` and `widths` hold for these columns: unknown names and
 * widths out of range are dropped.
 */
export function layoutFromParams(
  columns: readonly GridColDef[],
  params: { columns: string | null; widths: string | null },
): GridLayout {
  const byName = new Map(
    columns.filter(isChoosable).map((column) => [urlNameOf(column.field), column.field]),
  );
  const listed = params.columns;
  const shown =
    listed === null
      ? undefined
      : [...new Set(listed.split(','))].flatMap((name) => {
          const field = byName.get(name);
          return field ? [field] : [];
        });
  const widths: Record<string, number> = {};
  for (const entry of (params.widths ?? '').split(',')) {
    const [name = '', px = ''] = entry.split(':');
    const field = byName.get(name);
    const width = Math.round(Number(px));
    if (field && px && width >= WIDTH_RANGE.min && width <= WIDTH_RANGE.max) widths[field] = width;
  }
  // A list naming no known column shows the grid's own (never an empty grid).
  return { shown: shown?.length ? shown : undefined, widths };
}

/** The URL parameters of a layout (without those it leaves at the grid's own). */
export function paramsOfLayout(layout: GridLayout): [string, string][] {
  const entries: [string, string][] = [];
  if (layout.shown) entries.push(['columns', layout.shown.map(urlNameOf).join(',')]);
  const widths = Object.entries(layout.widths).map(([field, px]) => `${urlNameOf(field)}:${px}`);
  if (widths.length > 0) entries.push(['widths', widths.join(',')]);
  return entries;
}

/** `next` with the layout parameters of `current`: a list's view changes, its layout stays. */
export function withLayoutOf(current: URLSearchParams, next: URLSearchParams): URLSearchParams {
  const merged = new URLSearchParams(next);
  for (const key of LAYOUT_PARAMS) {
    merged.delete(key);
    const value = current.get(key);
    if (value !== null) merged.set(key, value);
  }
  return merged;
}

/** `current` with another layout, the rest of its view as it is. */
export function withLayout(current: URLSearchParams, layout: GridLayout): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of LAYOUT_PARAMS) next.delete(key);
  for (const [key, value] of paramsOfLayout(layout)) next.set(key, value);
  return next;
}

/**
 * The columns as the layout arranges them: the shown ones in its order, then the hidden
 * ones in the grid's; the fixed columns keep their side (before or after the others);
 * widths set by hand replace the column's width (and its flex).
 */
export function arrangeColumns<Row extends GridValidRowModel>(
  columns: GridColDef<Row>[],
  layout: GridLayout,
): GridColDef<Row>[] {
  const sized = columns.map((column) => {
    const width = layout.widths[column.field];
    return width === undefined ? column : { ...column, width, flex: undefined };
  });
  if (!layout.shown) return sized;
  const firstChoosable = sized.findIndex(isChoosable);
  const before = sized.filter((column, index) => !isChoosable(column) && index < firstChoosable);
  const after = sized.filter((column, index) => !isChoosable(column) && index > firstChoosable);
  const choosable = sized.filter(isChoosable);
  const rank = (field: string) => {
    const index = layout.shown!.indexOf(field);
    return index === -1
      ? layout.shown!.length + choosable.findIndex((c) => c.field === field)
      : index;
  };
  return [...before, ...[...choosable].sort((a, b) => rank(a.field) - rank(b.field)), ...after];
}

/**
 * The grid's visibility model of a layout: the choosable columns it does not list are
 * hidden; without a list, those the grid hides by default.
 */
export function visibilityOf(
  columns: readonly GridColDef[],
  layout: GridLayout,
  hiddenByDefault: readonly string[] = [],
): Record<string, boolean> {
  const { shown } = layout;
  return Object.fromEntries(
    columns
      .filter(isChoosable)
      .map((column) => [
        column.field,
        shown ? shown.includes(column.field) : !hiddenByDefault.includes(column.field),
      ]),
  );
}

/** A view's query as it compares with another: its entries sorted, the page left out. */
export function viewKeyOf(query: string): string {
  const params = new URLSearchParams(query);
  params.delete('page');
  params.sort();
  return params.toString();
}
