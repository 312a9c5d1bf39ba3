import type {
  GridColDef,
  GridColumnResizeParams,
  GridColumnVisibilityModel,
  GridValidRowModel,
} from '@mui/x-data-grid';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  type GridLayout,
  arrangeColumns,
  isChoosable,
  layoutFromParams,
  visibilityOf,
  withLayout,
} from '@/lib/gridLayout';

const NONE: readonly string[] = [];

/** A column as the chooser lists it. */
export interface ChoosableColumn {
  field: string;
  name: string;
  shown: boolean;
}

/**
 * A DataGrid's column layout (which columns, in which order, how wide), kept in the URL
 * (`lib/gridLayout.ts`), so that it is part of the view a link, a reload or a saved view
 * shows. Hiding a column from the grid's own menu, resizing one, and the column chooser all
 * write it there.
 */
export function useGridLayout<Row extends GridValidRowModel>(
  columns: GridColDef<Row>[],
  { hiddenByDefault = NONE }: { hiddenByDefault?: readonly string[] } = {},
) {
  const [params, setParams] = useSearchParams();
  const columnsParam = params.get('columns');
  const widthsParam = params.get('widths');
  const layout = useMemo(
    () => layoutFromParams(columns, { columns: columnsParam, widths: widthsParam }),
    // The layout changes with its own parameters, not with every change of the URL.
    [columns, columnsParam, widthsParam],
  );
  const arranged = useMemo(() => arrangeColumns(columns, layout), [columns, layout]);
  const visibility = useMemo(
    () => visibilityOf(columns, layout, hiddenByDefault),
    [columns, layout, hiddenByDefault],
  );

  const show = useCallback(
    (next: GridLayout, replace = false) =>
      setParams((current) => withLayout(current, next), { replace }),
    [setParams],
  );

  /** The choosable columns in their order, shown or not. */
  const choosable = useMemo<ChoosableColumn[]>(
    () =>
      arranged.filter(isChoosable).map((column) => ({
        field: column.field,
        name: column.headerName ?? column.field,
        shown: visibility[column.field] !== false,
      })),
    [arranged, visibility],
  );
  const shownIn = (list: ChoosableColumn[]) => list.filter((c) => c.shown).map((c) => c.field);

  return {
    columns: arranged,
    gridProps: {
      // The grid's own "Manage columns" would list the selection and actions columns too:
      // the column chooser takes its place.
      disableColumnSelector: true,
      columnVisibilityModel: visibility,
      onColumnVisibilityModelChange: (model: GridColumnVisibilityModel) => {
        const shown = choosable.filter((column) => model[column.field] !== false);
        // The grid never shows no column at all.
        if (shown.length > 0) show({ ...layout, shown: shown.map((column) => column.field) });
      },
      onColumnWidthChange: ({ colDef, width }: GridColumnResizeParams) =>
        show({ ...layout, widths: { ...layout.widths, [colDef.field]: Math.round(width) } }, true),
    },
    chooser: {
      columns: choosable,
      /** Shows or hides a column (the last one shown stays). */
      toggle: (field: string) => {
        const next = choosable.map((c) => (c.field === field ? { ...c, shown: !c.shown } : c));
        if (shownIn(next).length > 0)
          show({ ...layout, shown: next.filter((c) => c.shown).map((c) => c.field) });
      },
      /** Moves a shown column one place earlier (-1) or later (+1) among the shown ones. */
      move: (field: string, by: -1 | 1) => {
        const shown = shownIn(choosable);
        const from = shown.indexOf(field);
        const to = from + by;
        if (from === -1 || to < 0 || to >= shown.length) return;
        [shown[from], shown[to]] = [shown[to]!, shown[from]!];
        show({ ...layout, shown });
      },
      /** Back to the grid's own columns, order and widths. */
      reset: () => show({ widths: {} }),
      isChanged: layout.shown !== undefined || Object.keys(layout.widths).length > 0,
    },
  };
}

export type GridLayoutController = ReturnType<typeof useGridLayout>;
