import { Autocomplete, Box, TextField } from '@mui/material';
import { type GridRenderEditCellParams, useGridApiContext } from '@mui/x-data-grid';
import { useEffect, useState } from 'react';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import { describedInputProps } from '@/components/CellMessage';
import { useListRecordPageQuery } from './records.api';
import type { RecordRow } from './useRecordGrid';
import { useT } from '@/i18n/useT';

/** A record picked for a relation: its id and its display value. */
export interface PickedRecord {
  id: string;
  label: string;
}

/** How many records the picker offers at a time (a search narrows them). */
const PICKER_SIZE = 20;
/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 300;

/** A record as a relation shows it: its entity's display field's value, else `noName`. */
function labelOf(entity: Entity, record: EntityRecord, noName: string): string {
  const name = entity.displayField ?? entity.fields[0]?.name;
  const value = name === undefined ? undefined : record.fields[name];
  return value === undefined || value === null || value === '' ? noName : String(value);
}

/**
 * A relation cell's editor: a search box over the target entity's records (its quick
 * search, a page of them at a time); the record picked becomes the cell's value.
 */
export function RelationEditCell({
  params,
  target,
  describedBy,
}: {
  params: GridRenderEditCellParams<RecordRow>;
  /** The related entity's definition (undefined while it loads). */
  target: Entity | undefined;
  describedBy?: string;
}) {
  const t = useT();
  const apiRef = useGridApiContext();
  const field = params.field.slice('value:'.length);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const query = new URLSearchParams({ page: '1', perPage: String(PICKER_SIZE) });
  if (search) query.set('q', search);
  const page = useListRecordPageQuery(
    { entityName: target?.name ?? '', query: query.toString() },
    { skip: !target || !open },
  );
  const options: PickedRecord[] =
    target && page.data
      ? page.data.records.map((record) => ({
          id: record._id,
          label: labelOf(target, record, t('records.noName')),
        }))
      : [];

  // The cell's value: the record picked in this edit, else the row's own.
  const id = params.row.values[field];
  const value: PickedRecord | null =
    typeof params.value === 'object'
      ? (params.value as PickedRecord | null)
      : typeof id === 'string'
        ? { id, label: String(params.value) }
        : null;

  return (
    // While the list is open, Enter and the arrows choose in it, not in the grid.
    <Box
      sx={{ width: '100%', alignSelf: 'center', px: 1 }}
      onKeyDown={(event) => {
        if (open && ['Enter', 'ArrowUp', 'ArrowDown'].includes(event.key)) event.stopPropagation();
      }}
    >
      <Autocomplete
        size="small"
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        value={value}
        options={options}
        loading={page.isFetching}
        filterOptions={(shown) => shown}
        isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
        getOptionLabel={(option) => option.label}
        onInputChange={(_event, text, reason) => {
          if (reason === 'input') setTyped(text);
        }}
        onChange={(_event, picked) =>
          void apiRef.current.setEditCellValue({
            id: params.id,
            field: params.field,
            value: picked,
          })
        }
        renderInput={(input) => (
          <TextField
            {...input}
            variant="standard"
            autoFocus={params.hasFocus}
            slotProps={{
              ...input.slotProps,
              htmlInput: {
                ...input.slotProps.htmlInput,
                ...describedInputProps(params.colDef.headerName, describedBy),
              },
            }}
          />
        )}
      />
    </Box>
  );
}
