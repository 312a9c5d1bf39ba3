import type { GridApi } from '@mui/x-data-grid';
import { type FocusEvent, type RefObject, useCallback } from 'react';

/**
 * The `onBlur` for a DataGrid's container (the grid given `apiRef`): once the focus leaves
 * the grid for elsewhere on the page, the grid forgets the cell the keyboard left it on.
 * It would focus a cell again when its rows change, taking the focus from wherever the
 * person went: typing a job filter after moving in the grid sent the rest of the typing
 * to the grid.
 */
export function useGridFocusRelease(apiRef: RefObject<GridApi | null>) {
  return useCallback(
    (event: FocusEvent<HTMLElement>) => {
      const to = event.relatedTarget;
      // Focus gone nowhere (another window) comes back to the same cell, and so does focus
      // gone into a dialog or menu (MUI's modals) opened from a cell: the grid keeps it.
      if (!(to instanceof Element) || event.currentTarget.contains(to)) return;
      if (to.closest('.MuiModal-root')) return;
      apiRef.current?.setState((state) => ({
        ...state,
        focus: {
          cell: null,
          columnHeader: null,
          columnHeaderFilter: null,
          columnGroupHeader: null,
        },
      }));
    },
    [apiRef],
  );
}
