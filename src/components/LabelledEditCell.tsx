import { GridEditInputCell, type GridRenderEditCellParams } from '@mui/x-data-grid';
import { describedInputProps } from './CellMessage';

/**
 * A grid cell's text input in edit mode, named after its column: the grid's own input has
 * no label, so a screen reader would announce a bare "edit text" (axe: label). What is
 * typed reaches the grid's state at once, not 200 ms later, so a review or a copy of the
 * row's edit made right after typing has all of it. Use as a column's `renderEditCell`;
 * `describedBy` names a message about the value (it is then marked invalid).
 */
export function LabelledEditCell({
  describedBy,
  type,
  inputMode,
  ...params
}: GridRenderEditCellParams & {
  describedBy?: string;
  /** The input's type, when not the column's (a number's editor may be text). */
  type?: string;
  inputMode?: 'decimal';
}) {
  return (
    <GridEditInputCell
      {...params}
      debounceMs={0}
      slotProps={{
        root: {
          ...(type && { type }),
          slotProps: {
            htmlInput: { ...describedInputProps(params.colDef.headerName, describedBy), inputMode },
          },
        },
      }}
    />
  );
}
