import { type GridRowModesModel, GridRowModes } from '@mui/x-data-grid';

/**
 * A grid edited row by row (spec section 4, the record grid's rule): one row is the editing
 * one. Starting to edit another row saves the current one (its mode goes back to view,
 * which makes the grid save it) and makes the new row the editing one.
 */
export function startEditing(
  modes: GridRowModesModel,
  id: string,
  fieldToFocus?: string,
): GridRowModesModel {
  const next: GridRowModesModel = {};
  for (const [rowId, mode] of Object.entries(modes)) {
    if (rowId !== id && mode.mode === GridRowModes.Edit) next[rowId] = { mode: GridRowModes.View };
  }
  next[id] = { mode: GridRowModes.Edit, fieldToFocus };
  return next;
}

/** Leaves edit mode keeping the edits: the grid saves the row. */
export const saveRow = (modes: GridRowModesModel, id: string): GridRowModesModel => ({
  ...modes,
  [id]: { mode: GridRowModes.View },
});

/** Leaves edit mode dropping the edits. */
export const cancelRow = (modes: GridRowModesModel, id: string): GridRowModesModel => ({
  ...modes,
  [id]: { mode: GridRowModes.View, ignoreModifications: true },
});
