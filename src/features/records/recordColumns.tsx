import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import { LabelledEditCell } from '@/components/LabelledEditCell';
import { rowActionsColumn } from '@/components/rowActions';
import type { RecordGridController, RecordRow } from './useRecordGrid';
import type { EntityField } from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';

/** A local calendar day as `YYYY-MM-DD` (a date field's value). */
const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * A field's column by its type: the grid's own editor and sort for numbers, booleans,
 * dates, datetimes and a select's options; text-like fields edit as labelled text. The row
 * keeps each value as the API carries it (a number, a boolean, `YYYY-MM-DD`, ISO UTC);
 * emptied, a value is null.
 */
function typedColumn(field: EntityField): Partial<GridColDef<RecordRow>> {
  const get = (row: RecordRow) => row.values[field.name];
  const set = (row: RecordRow, value: FieldValue | null) => ({
    ...row,
    values: { ...row.values, [field.name]: value } as RecordRow['values'],
  });
  switch (field.type ?? 'text') {
    case 'number':
    case 'integer':
      return {
        type: 'number',
        renderEditCell: LabelledEditCell,
        valueGetter: (_value, row) => get(row) ?? null,
        valueSetter: (value, row) =>
          set(
            row,
            value === null || String(value).trim() === '' || Number.isNaN(Number(value))
              ? null
              : Number(value),
          ),
      };
    case 'boolean':
      return {
        type: 'boolean',
        valueGetter: (_value, row) => get(row) === true,
        // An unticked box leaves an empty value empty: only a ticked one was ever false.
        valueSetter: (value, row) =>
          set(row, value ? true : get(row) === undefined || get(row) === null ? null : false),
      };
    case 'date':
      return {
        type: 'date',
        valueGetter: (_value, row) => {
          const day = get(row);
          if (typeof day !== 'string') return null;
          const [year, month, date] = day.split('-').map(Number) as [number, number, number];
          return new Date(year, month - 1, date);
        },
        valueSetter: (value, row) => set(row, value instanceof Date ? dayOf(value) : null),
      };
    case 'datetime':
      return {
        type: 'dateTime',
        valueGetter: (_value, row) => {
          const at = get(row);
          return typeof at === 'string' ? new Date(at) : null;
        },
        valueSetter: (value, row) =>
          set(
            row,
            value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : null,
          ),
      };
    case 'select':
      return {
        type: 'singleSelect',
        valueOptions: field.options ?? [],
        valueGetter: (_value, row) => get(row) ?? '',
        valueSetter: (value, row) => set(row, value ? String(value) : null),
      };
    default:
      return {
        renderEditCell: LabelledEditCell,
        valueGetter: (_value, row) => get(row) ?? '',
        valueSetter: (value, row) => set(row, String(value ?? '')),
      };
  }
}

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
      ...typedColumn(field),
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
