import CancelIcon from '@mui/icons-material/Close';
import SaveIcon from '@mui/icons-material/Save';
import {
  GridActionsCell,
  GridActionsCellItem,
  type GridColDef,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import type { ReactElement } from 'react';
import { t } from '@/i18n/useT';

/** One action of a row in view mode: its icon, its label (naming the row), what it does. */
export interface RowAction<Row> {
  icon: ReactElement;
  label(row: Row): string;
  onClick(row: Row): void;
  /** Whether the row offers it; by default every row does. */
  shows?(row: Row): boolean;
}

interface RowActionsOptions<Row> {
  /** Whether the row is in edit mode: it then offers Save and Cancel only. */
  isEditing(row: Row): boolean;
  /** Save and Cancel of a row being edited: their labels name the row. */
  saveLabel(row: Row): string;
  onSave(row: Row): void;
  cancelLabel(row: Row): string;
  onCancel(row: Row): void;
  /** The actions of a row in view mode, in order. */
  actions: RowAction<Row>[];
  width: number;
}

const item = <Row,>(action: RowAction<Row>, row: Row) => (
  <GridActionsCellItem
    key={action.label(row)}
    icon={action.icon}
    label={action.label(row)}
    onClick={() => action.onClick(row)}
  />
);

/**
 * A grid's actions column (`Actions`, in the language in effect when it is made: make it
 * again when `useT`'s `t` changes): Save and Cancel while the row is edited, its other
 * actions otherwise, each a button named for the row. `useGridLayout` puts it first on a
 * phone, where the last column would be out of reach.
 */
export function rowActionsColumn<Row extends GridValidRowModel>({
  isEditing,
  saveLabel,
  onSave,
  cancelLabel,
  onCancel,
  actions,
  width,
}: RowActionsOptions<Row>): GridColDef<Row> {
  const save = { icon: <SaveIcon />, label: saveLabel, onClick: onSave };
  const cancel = { icon: <CancelIcon />, label: cancelLabel, onClick: onCancel };
  return {
    field: 'actions',
    type: 'actions',
    headerName: t('grid.actions'),
    width,
    getActions: () => [],
    renderCell: (params) => {
      const { row } = params;
      const offered = isEditing(row)
        ? [save, cancel]
        : actions.filter((action) => action.shows?.(row) ?? true);
      return (
        <GridActionsCell {...params}>{offered.map((action) => item(action, row))}</GridActionsCell>
      );
    },
  };
}
