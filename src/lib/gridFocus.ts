import type { GridApi } from '@mui/x-data-grid';
import type { RefObject } from 'react';

/**
 * Puts the keyboard on the grid's first column heading: where it goes once the bar it was
 * in is gone (a bulk action done), rather than to the top of the page.
 */
export function focusGridHeading(apiRef: RefObject<GridApi | null>) {
  const api = apiRef.current;
  const [first] = api?.getVisibleColumns() ?? [];
  if (api && first) api.setColumnHeaderFocus(first.field);
}
