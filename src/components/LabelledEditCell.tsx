import { GridEditInputCell, type GridRenderEditCellParams } from '@mui/x-data-grid';

/**
 * A grid cell's text input in edit mode, named after its column: the grid's own input has
 * no label, so a screen reader would announce a bare "edit text" (axe: label).
 * Use as a column's `renderEditCell`.
 */
export function LabelledEditCell(params: GridRenderEditCellParams) {
  return (
    <GridEditInputCell
      {...params}
      slotProps={{
        root: { slotProps: { htmlInput: { 'aria-label': params.colDef.headerName } } },
      }}
    />
  );
}
