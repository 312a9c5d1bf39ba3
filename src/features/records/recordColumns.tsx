import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { LabelledEditCell } from '@/components/LabelledEditCell';
import { rowActionsColumn } from '@/components/rowActions';
import type { RecordGridController, RecordRow } from './useRecordGrid';

/** The record grid's columns: one per field of the entity, then the row's actions. */
export function useRecordColumns(grid: RecordGridController): GridColDef<RecordRow>[] {
  const { entity, may, edit, mayEditRow, removal, history } = grid;
  const { rows } = edit.gridProps;
  const { isEditing, startEdit, saveEdit, cancelEdit } = edit;
  const ask = removal.ask;
  const openHistory = history.open;
  return useMemo(() => {
    const fieldColumns = entity.fields.map((field): GridColDef<RecordRow> => ({
      field: `value:${field.name}`,
      headerName: field.label,
      flex: 1,
      minWidth: 140,
      editable: may.mayEdit || may.mayAdd,
      renderEditCell: LabelledEditCell,
      valueGetter: (_value, row) => row.values[field.name] ?? '',
      valueSetter: (value, row) => ({
        ...row,
        values: { ...row.values, [field.name]: String(value ?? '') },
      }),
    }));
    if (!may.mayAdd && !may.mayEdit && !may.mayDelete && !may.mayReadVersions) return fieldColumns;
    // Rows are named by their place, as the grid shows them: `record 2`.
    const named = (row: RecordRow) => `record ${rows.findIndex((r) => r._id === row._id) + 1}`;
    const actions = rowActionsColumn<RecordRow>({
      width: 160,
      isEditing: (row) => isEditing(row._id),
      saveLabel: (row) => `Save ${named(row)}`,
      onSave: (row) => saveEdit(row._id),
      cancelLabel: (row) => `Cancel ${named(row)}`,
      onCancel: (row) => cancelEdit(row._id),
      actions: [
        {
          icon: <EditIcon />,
          label: (row) => `Edit ${named(row)}`,
          onClick: startEdit,
          shows: mayEditRow,
        },
        {
          icon: <HistoryIcon />,
          label: (row) => `Versions of ${named(row)}`,
          onClick: (row) => openHistory(row._id),
          shows: () => may.mayReadVersions,
        },
        {
          icon: <DeleteIcon />,
          label: (row) => `Delete ${named(row)}`,
          onClick: ask,
          shows: () => may.mayDelete,
        },
      ],
    });
    return [...fieldColumns, actions];
  }, [
    entity.fields,
    may,
    rows,
    isEditing,
    startEdit,
    saveEdit,
    cancelEdit,
    mayEditRow,
    ask,
    openHistory,
  ]);
}
