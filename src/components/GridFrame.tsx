import { Box, Button, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { GridApi, GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { type ReactNode, type RefObject, useCallback, useEffect, useMemo, useState } from 'react';
import { useGridFocusRelease } from '@/hooks/useGridFocusRelease';
import { useT } from '@/i18n/useT';

/** Columns out of sight on either side of a grid's viewport. */
interface Offscreen {
  left: { field: string; name: string }[];
  right: { field: string; name: string }[];
}

/** What may stick out of the viewport before a column counts as out of sight (its padding). */
const SLACK_PX = 8;

/** The grid's columns that are (partly) scrolled out of sight, kept in step with the grid. */
function useOffscreenColumns(apiRef: RefObject<GridApi | null>): Offscreen {
  const [offscreen, setOffscreen] = useState<Offscreen>({ left: [], right: [] });
  useEffect(() => {
    const api = apiRef.current;
    if (!api) return;
    const measure = () => {
      const { left: scrolled } = api.getScrollPosition();
      const { isReady, viewportInnerSize } = api.getRootDimensions();
      const width = viewportInnerSize.width;
      const next: Offscreen = { left: [], right: [] };
      // Not laid out yet (or never, in a test's DOM): nothing is known to be out of sight.
      for (const column of isReady && width > 0 ? api.getVisibleColumns() : []) {
        const start = api.getColumnPosition(column.field);
        const named = { field: column.field, name: column.headerName ?? column.field };
        if (start < scrolled - SLACK_PX) next.left.push(named);
        else if (start + column.computedWidth > scrolled + width + SLACK_PX) next.right.push(named);
      }
      setOffscreen((last) => (JSON.stringify(last) === JSON.stringify(next) ? last : next));
    };
    measure();
    const stops = [
      api.subscribeEvent('scrollPositionChange', measure),
      api.subscribeEvent('viewportInnerSizeChange', measure),
      api.subscribeEvent('columnWidthChange', measure),
      api.subscribeEvent('columnsChange', measure),
    ];
    return () => stops.forEach((stop) => stop());
  }, [apiRef]);
  return offscreen;
}

/** Buttons that scroll the grid to its columns out of sight, on the side they are. */
function OffscreenColumns({ apiRef, label }: { apiRef: RefObject<GridApi | null>; label: string }) {
  const t = useT();
  const { left, right } = useOffscreenColumns(apiRef);
  const scrollTo = useCallback(
    (field: string) => {
      const api = apiRef.current;
      api?.scrollToIndexes({ colIndex: api.getColumnIndex(field) });
      // The button goes with the column's coming into sight: the keyboard goes to its header.
      api?.setColumnHeaderFocus(field);
    },
    [apiRef],
  );
  if (left.length === 0 && right.length === 0) return null;
  const side = (columns: Offscreen['left'], arrow: string, where: string) =>
    columns.length > 0 && (
      <Stack direction="row" useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 0.5 }}>
        <Typography variant="body2" color="text.secondary">
          {where}
        </Typography>
        {columns.map(({ field, name }) => (
          <Button
            key={field}
            size="small"
            sx={{ minWidth: 0, py: 0, textTransform: 'none' }}
            aria-label={t('grid.scrollToColumn', { name })}
            onClick={() => scrollTo(field)}
          >
            {arrow === '←' ? `← ${name}` : `${name} →`}
          </Button>
        ))}
      </Stack>
    );
  return (
    <Stack
      component="nav"
      aria-label={t('grid.offscreen', { label })}
      direction="row"
      useFlexGap
      sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 0.5 }}
    >
      {side(left, '←', t('grid.columnsLeft')) || <span />}
      {side(right, '→', t('grid.columnsRight'))}
    </Stack>
  );
}

interface GridFrameProps {
  apiRef: RefObject<GridApi | null>;
  /** The grid's name (its `aria-label`, in the language in effect), for the columns' navigation. */
  label: string;
  height: number | string;
  children: ReactNode;
}

/**
 * The frame of every DataGrid: the grid at its height; on a narrow screen, buttons naming
 * the columns out of sight (scrolling to them), the rows-per-page choice the grid hides
 * there, and its pager's buttons kept in sight; once the focus leaves the grid, the grid
 * forgets the cell it had (`useGridFocusRelease`).
 */
export function GridFrame({ apiRef, label, height, children }: GridFrameProps) {
  const releaseGridFocus = useGridFocusRelease(apiRef);
  return (
    <>
      <OffscreenColumns apiRef={apiRef} label={label} />
      <Box
        sx={(theme) => ({
          height,
          // The grid hides the page size on a phone; the choice stays (named by its label).
          '& .MuiDataGrid-footerContainer .MuiTablePagination-input': { display: 'inline-flex' },
          // On a phone the pager's four buttons stay in sight: narrower margins, and the rows
          // shown wrap onto two lines (`1–50 of about / 1,000,000`) rather than push them out.
          [theme.breakpoints.down('sm')]: {
            '& .MuiTablePagination-toolbar': { pl: 1, pr: 0 },
            '& .MuiTablePagination-spacer': { display: 'none' },
            '& .MuiTablePagination-input': { ml: 0, mr: 1 },
            '& .MuiTablePagination-displayedRows': {
              flex: '1 1 auto',
              minWidth: 0,
              whiteSpace: 'normal',
              lineHeight: 1.25,
              textAlign: 'right',
            },
            '& .MuiTablePagination-actions': { ml: 0.5 },
          },
        })}
        onBlur={releaseGridFocus}
      >
        {children}
      </Box>
    </>
  );
}

/**
 * A grid's columns as the screen's width wants them: on a phone its actions come first, in
 * reach, rather than off-screen to the right.
 */
export function useGridColumns<Row extends GridValidRowModel>(
  columns: GridColDef<Row>[],
): GridColDef<Row>[] {
  const isPhone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return useMemo(() => {
    if (!isPhone) return columns;
    const actions = columns.filter((column) => column.type === 'actions');
    return [...actions, ...columns.filter((column) => column.type !== 'actions')];
  }, [columns, isPhone]);
}
