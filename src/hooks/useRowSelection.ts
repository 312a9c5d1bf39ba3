import type { GridRowSelectionModel } from '@mui/x-data-grid';
import { useMemo, useState } from 'react';

/** No row: a new set each time, as the grid may change the one it is given. */
const none = (): GridRowSelectionModel => ({ type: 'include', ids: new Set() });

/**
 * A server-paged grid's selection: rows ticked on any page (they stay ticked across pages),
 * or, once asked, every row the list's search and filter match ("Select all N matching"),
 * however many pages they fill. Another search or filter (`viewKey`) clears it.
 */
export function useRowSelection({
  viewKey,
  total,
  pageIds,
  mayWidenToAll,
}: {
  /** The list's search and filter: a change of them clears the selection. */
  viewKey: string;
  /** How many rows the search and filter match. */
  total: number;
  /** The rows of the page on screen. */
  pageIds: string[];
  /** Whether "all matching" may be offered (a total known exactly, and not past the limit). */
  mayWidenToAll: boolean;
}) {
  const [model, setModel] = useState<GridRowSelectionModel>(none);
  const [allMatching, setAllMatching] = useState(false);
  const [selectedFor, setSelectedFor] = useState(viewKey);
  if (selectedFor !== viewKey) {
    setSelectedFor(viewKey);
    setModel(none());
    setAllMatching(false);
  }
  const ids = useMemo(() => [...model.ids].map(String), [model]);
  const clear = () => {
    setModel(none());
    setAllMatching(false);
  };
  return {
    /** How many rows are selected. */
    count: allMatching ? total : ids.length,
    /** Every row of the search and filter, rather than the ticked ones. */
    allMatching,
    ids,
    /** The whole page is ticked and more rows match: "Select all N matching" is offered. */
    mayWiden:
      mayWidenToAll &&
      !allMatching &&
      total > ids.length &&
      pageIds.length > 0 &&
      pageIds.every((id) => model.ids.has(id)),
    selectAllMatching: () => setAllMatching(true),
    clear,
    gridProps: {
      checkboxSelection: true,
      // Ticks on other pages stay while the user pages.
      keepNonExistentRowsSelected: true,
      // Every row shows ticked while all matching are selected.
      rowSelectionModel: allMatching ? { type: 'include' as const, ids: new Set(pageIds) } : model,
      onRowSelectionModelChange: (next: GridRowSelectionModel) => {
        // A row unticked after "all matching": back to the rows ticked one by one, this page's
        // as the grid now shows them.
        setAllMatching(false);
        // The page's ticks as the grid says (its header box answers "all but these"); the
        // ticks on other pages stay as they were.
        const onPage = new Set(pageIds);
        const tickedHere =
          next.type === 'include'
            ? pageIds.filter((id) => next.ids.has(id))
            : pageIds.filter((id) => !next.ids.has(id));
        const elsewhere = [...model.ids].filter((id) => !onPage.has(String(id)));
        setModel({ type: 'include', ids: new Set([...elsewhere, ...tickedHere]) });
      },
    },
  };
}

export type RowSelection = ReturnType<typeof useRowSelection>;
