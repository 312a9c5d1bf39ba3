import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import {
  type GridColDef,
  type GridRenderEditCellParams,
  GridEditDateCell,
  renderBooleanCell,
  renderEditLongTextCell,
  renderLongTextCell,
  useGridApiContext,
} from '@mui/x-data-grid';
import { Checkbox, NativeSelect } from '@mui/material';
import { type ReactNode, useLayoutEffect, useMemo, useRef } from 'react';
import { CellMessage, describedInputProps } from '@/components/CellMessage';
import { LabelledEditCell } from '@/components/LabelledEditCell';
import { rowActionsColumn } from '@/components/rowActions';
import { dayOf, localDateOf } from '@/lib/calendarDays';
import type { Entity, EntityField } from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';
import { filterOperatorsOf } from './recordFilters';
import { type PickedRecord, RelationEditCell } from './RelationEditCell';
import type { RecordGridController, RecordRow } from './useRecordGrid';
import { useT } from '@/i18n/useT';
import { formatDate, formatDateTime, formatNumber, numberToEdit, parseNumber } from '@/i18n/format';

/**
 * A yes/no editor: a checkbox named after its column (the grid's own has no name), tied to
 * the cell's message like the other editors.
 */
function BooleanEditCell({
  params,
  describedBy,
}: {
  params: GridRenderEditCellParams;
  describedBy?: string;
}) {
  const apiRef = useGridApiContext();
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (params.hasFocus) input.current?.focus();
  }, [params.hasFocus]);
  return (
    <Checkbox
      size="small"
      checked={Boolean(params.value)}
      onChange={(event) =>
        void apiRef.current.setEditCellValue({
          id: params.id,
          field: params.field,
          value: event.target.checked,
        })
      }
      slotProps={{
        input: { ...describedInputProps(params.colDef.headerName, describedBy), ref: input },
      }}
      sx={{ mx: 'auto' }}
    />
  );
}

/**
 * A choice's editor: the browser's own select, so the keyboard works as everywhere (the
 * arrows choose, Tab moves on, Enter saves the row); the grid's menu took Enter and Tab.
 */
function ChoiceEditCell({
  params,
  options,
  describedBy,
}: {
  params: GridRenderEditCellParams;
  options: string[];
  describedBy?: string;
}) {
  const t = useT();
  const apiRef = useGridApiContext();
  const select = useRef<HTMLSelectElement>(null);
  useLayoutEffect(() => {
    if (params.hasFocus) select.current?.focus();
  }, [params.hasFocus]);
  return (
    <NativeSelect
      fullWidth
      disableUnderline
      value={(params.value as string | null) ?? ''}
      inputRef={select}
      onChange={(event) =>
        void apiRef.current.setEditCellValue({
          id: params.id,
          field: params.field,
          value: event.target.value,
        })
      }
      inputProps={describedInputProps(params.colDef.headerName, describedBy)}
      sx={{ px: 1 }}
    >
      <option value="">{t('records.noChoice')}</option>
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </NativeSelect>
  );
}

/** Renders a cell's editor, given the id of its message (if one is shown) for aria. */
type Editor = (params: GridRenderEditCellParams, describedBy?: string) => ReactNode;

/** The grid's date (or datetime) input, named after its column and tied to its message. */
const dateEditor: Editor = (params, describedBy) => (
  <GridEditDateCell
    {...params}
    slotProps={{
      root: {
        slotProps: { htmlInput: describedInputProps(params.colDef.headerName, describedBy) },
      },
    }}
  />
);

/**
 * A number's editor: text as the language in effect writes numbers (`3,75` in French), not
 * the browser's number input, which reads them in the browser's language and drops what it
 * cannot read (`3,75` became 375).
 */
const numberEditor: Editor = (params, describedBy) => (
  <LabelledEditCell
    {...params}
    value={typeof params.value === 'number' ? numberToEdit(params.value) : params.value}
    type="text"
    inputMode="decimal"
    describedBy={describedBy}
  />
);

/**
 * A field's column by its type: the grid's own editor and sort for numbers, booleans,
 * dates, datetimes and a select's options; text-like fields edit as labelled text; a
 * relation shows the related record's display value and picks one by search. The row keeps
 * each value as the API carries it (a number, a boolean, `YYYY-MM-DD`, ISO UTC, an id);
 * emptied, a value is null.
 */
function typedColumn(
  field: EntityField,
  targetOf: (name: string) => Entity | undefined,
): Partial<GridColDef<RecordRow>> & { editor: Editor } {
  const get = (row: RecordRow) => row.values[field.name];
  const set = (row: RecordRow, value: FieldValue | null) => ({
    ...row,
    values: { ...row.values, [field.name]: value } as RecordRow['values'],
  });
  const labelled: Editor = (params, describedBy) => (
    <LabelledEditCell {...params} describedBy={describedBy} />
  );
  switch (field.type ?? 'text') {
    case 'number':
    case 'integer':
      return {
        type: 'number',
        editor: numberEditor,
        valueGetter: (_value, row) => get(row) ?? null,
        valueFormatter: (value: number | null) => (value === null ? '' : formatNumber(value)),
        // The text as typed while editing; read as a number when the row is saved.
        valueParser: (value: string) => value,
        // What is not a number stays as typed, for the row's check to refuse under the cell.
        valueSetter: (value: number | string | null, row) => {
          if (typeof value === 'number' || value === null) return set(row, value);
          const number = parseNumber(value);
          return set(row, value.trim() === '' ? null : Number.isNaN(number) ? value : number);
        },
      };
    case 'boolean':
      return {
        type: 'boolean',
        editor: (params, describedBy) => (
          <BooleanEditCell params={params} describedBy={describedBy} />
        ),
        valueGetter: (_value, row) => get(row) === true,
        // An empty value shows empty, not as a no.
        renderCell: (params) =>
          get(params.row) === null || get(params.row) === undefined
            ? null
            : renderBooleanCell!(params),
        // An unticked box leaves an empty value empty (only a ticked one was ever false),
        // unless the field is required: then it says no.
        valueSetter: (value, row) =>
          set(
            row,
            value
              ? true
              : !field.required && (get(row) === undefined || get(row) === null)
                ? null
                : false,
          ),
      };
    case 'date':
      return {
        type: 'date',
        editor: dateEditor,
        valueFormatter: (value: Date | null) => (value ? formatDate(value) : ''),
        valueGetter: (_value, row) => {
          const day = get(row);
          return typeof day === 'string' ? localDateOf(day) : null;
        },
        valueSetter: (value, row) => set(row, value instanceof Date ? dayOf(value) : null),
      };
    case 'datetime':
      return {
        type: 'dateTime',
        editor: dateEditor,
        valueFormatter: (value: Date | null) => (value ? formatDateTime(value) : ''),
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
        editor: (params, describedBy) => (
          <ChoiceEditCell params={params} options={field.options ?? []} describedBy={describedBy} />
        ),
        valueOptions: field.options ?? [],
        valueGetter: (_value, row) => get(row) ?? '',
        valueSetter: (value, row) => set(row, value ? String(value) : null),
      };
    case 'relation':
      return {
        // Sorting by a related record's id would mean nothing to a reader.
        sortable: false,
        editor: (params, describedBy) => (
          <RelationEditCell
            params={params}
            target={targetOf(field.target!)}
            describedBy={describedBy}
          />
        ),
        valueGetter: (_value, row) => row.display[field.name] ?? '',
        // The editor sets the record picked (or null); an untouched cell keeps its value.
        valueSetter: (value: PickedRecord | string | null, row) =>
          typeof value === 'string'
            ? row
            : {
                ...set(row, value?.id ?? null),
                display: { ...row.display, [field.name]: value?.label ?? '' },
              },
      };
    case 'longText':
      return {
        editor: (params) => renderEditLongTextCell(params),
        // The grid moves the keyboard from cell to cell: the expand button of each cell is
        // reached through its cell (Space opens it), not as a Tab stop of its own.
        renderCell: (params) =>
          renderLongTextCell({ ...params, slotProps: { expandButton: { tabIndex: -1 } } }),
        valueGetter: (_value, row) => get(row) ?? '',
        valueSetter: (value, row) => set(row, String(value ?? '')),
      };
    default:
      return {
        editor: labelled,
        valueGetter: (_value, row) => get(row) ?? '',
        valueSetter: (value, row) => set(row, String(value ?? '')),
      };
  }
}

/**
 * A value as the API carries it, as its column's editor holds it (what `typedColumn`'s
 * getters give): a date or a datetime as a Date, a relation as the record picked, named by a
 * row that shows it (the one being edited, else a saved one), else by its id.
 */
export function editValueOf(field: EntityField, value: unknown, rows: RecordRow[]): unknown {
  const type = field.type ?? 'text';
  if (value === null || value === undefined) {
    if (type === 'boolean') return false;
    return ['number', 'integer', 'date', 'datetime', 'relation'].includes(type) ? null : '';
  }
  switch (type) {
    case 'date':
      return localDateOf(String(value));
    case 'datetime':
      return new Date(String(value));
    case 'relation': {
      const shown = rows.find((row) => row.values[field.name] === value);
      return { id: String(value), label: String(shown?.display[field.name] ?? value) };
    }
    default:
      return value;
  }
}

/** The record grid's columns: one per field of the entity, then the row's actions. */
export function useRecordColumns(grid: RecordGridController): GridColDef<RecordRow>[] {
  const t = useT();
  const { entity, targets, may, edit, mayEditRow, mayDeleteRow, removal, history } = grid;
  const { rows } = edit.gridProps;
  const { isEditing, startEdit, saveEdit, cancelEdit, messageOf } = edit;
  const ask = removal.ask;
  const openHistory = history.open;
  return useMemo(() => {
    const fieldColumns = entity.fields.map((field): GridColDef<RecordRow> => {
      const { editor, ...typed } = typedColumn(field, (name) =>
        targets.find((target) => target.name === name),
      );
      return {
        field: `value:${field.name}`,
        headerName: field.label,
        flex: 1,
        minWidth: 140,
        editable: may.mayEdit || may.mayAdd,
        filterOperators: filterOperatorsOf(field, t),
        ...typed,
        renderEditCell: (params) => (
          <CellMessage message={messageOf(String(params.id), field.name)} value={params.value}>
            {(describedBy) => editor(params, describedBy)}
          </CellMessage>
        ),
      };
    });
    if (!may.mayAdd && !may.mayEdit && !may.mayDelete && !may.mayReadVersions) return fieldColumns;
    // Rows are named by their place, as the grid shows them: `record 2`.
    const place = (row: RecordRow) => ({ number: rows.findIndex((r) => r._id === row._id) + 1 });
    const actions = rowActionsColumn<RecordRow>({
      width: 160,
      isEditing: (row) => isEditing(row._id),
      saveLabel: (row) => t('records.saveRow', place(row)),
      onSave: (row) => saveEdit(row._id),
      cancelLabel: (row) => t('records.cancelRow', place(row)),
      onCancel: (row) => cancelEdit(row._id),
      actions: [
        {
          icon: <EditIcon />,
          label: (row) => t('records.editRow', place(row)),
          onClick: startEdit,
          shows: mayEditRow,
        },
        {
          icon: <HistoryIcon />,
          label: (row) => t('records.rowVersions', place(row)),
          onClick: (row) => openHistory(row._id),
          shows: () => may.mayReadVersions,
        },
        {
          icon: <DeleteIcon />,
          label: (row) => t('records.deleteRow', place(row)),
          onClick: ask,
          shows: mayDeleteRow,
        },
      ],
    });
    return [...fieldColumns, actions];
  }, [
    t,
    entity.fields,
    targets,
    may,
    rows,
    isEditing,
    startEdit,
    saveEdit,
    cancelEdit,
    messageOf,
    mayEditRow,
    mayDeleteRow,
    ask,
    openHistory,
  ]);
}
