import { useGridApiRef } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { messages } from '@common/messages';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';
import { useCan } from '@/auth/useCan';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useVersionedRowEdit } from '@/hooks/useVersionedRowEdit';
import { randomUuid } from '@/lib/uuid';
import {
  recordHistory,
  useCreateRecordMutation,
  useDeleteRecordMutation,
  useRestoreRecordVersionMutation,
  useUpdateRecordMutation,
} from './records.api';

/** A grid row: a record's values and version, and whether it is new (not saved yet). */
export interface RecordRow {
  _id: string;
  isNew: boolean;
  values: Record<string, FieldValue>;
  _version: number;
}

const toRow = (record: EntityRecord): RecordRow => ({
  _id: record._id,
  isNew: false,
  values: record.fields,
  _version: record._version,
});

/** What the signed-in user may do to records, from the permissions call. */
function useRecordPermissions() {
  const mayReadVersions = useCan('GET', '/api/entity-records/:entityName/:id/versions');
  const mayRestoreVersion = useCan(
    'POST',
    '/api/entity-records/:entityName/:id/versions/:versionId/restore',
  );
  const mayAdd = useCan('POST', '/api/entity-records/:entityName');
  const mayEdit = useCan('PUT', '/api/entity-records/:entityName/:id');
  const mayDelete = useCan('DELETE', '/api/entity-records/:entityName/:id');
  return useMemo(
    () => ({
      mayAdd,
      mayEdit,
      mayDelete,
      mayReadVersions,
      // Bringing a deleted record back finds its last version first.
      mayRestore: mayRestoreVersion && mayReadVersions,
    }),
    [mayAdd, mayEdit, mayDelete, mayReadVersions, mayRestoreVersion],
  );
}

/**
 * The record grid's controller (ra-core's `useListController` + `useEditController` in
 * one): the entity's records as rows, edited inline on the one edit machine, added,
 * deleted after confirmation, and their histories. The view only renders it.
 */
export function useRecordGrid(entity: Entity, records: EntityRecord[]) {
  const entityName = entity.name;
  const may = useRecordPermissions();
  const [createRecord] = useCreateRecordMutation();
  const [updateRecord] = useUpdateRecordMutation();
  const [deleteRecord] = useDeleteRecordMutation();
  const [restoreRecord] = useRestoreRecordVersionMutation();
  const apiRef = useGridApiRef();
  const rows = useMemo(() => records.map(toRow), [records]);
  const [historyOf, setHistoryOf] = useState<string>();

  // Add record and Edit put the keyboard in the row's first cell (the grid's field name).
  const firstField = entity.fields[0] && `value:${entity.fields[0].name}`;

  const edit = useVersionedRowEdit<RecordRow, Record<string, FieldValue>>({
    resource: 'entity-records',
    entityName,
    rows,
    apiRef,
    fieldToFocus: firstField,
    columnOf: (name) => `value:${name}`,
    errorContext: messages.records.saveContext,
    valuesOf: (row) => row.values,
    fromServer: (current) => toRow(current as EntityRecord),
    // The server's stored record replaces the cached one (updateRecord).
    send: async (id, fields, version) =>
      toRow(await updateRecord({ entityName, id, fields, version }).unwrap()),
    // The cache gains the record (createRecord), and the new row goes.
    create: async (row) => {
      await createRecord({ entityName, id: row._id, fields: row.values }).unwrap();
      return { ...row, isNew: false, _version: 1 };
    },
    blankRow: () => ({
      _id: randomUuid(),
      isNew: true,
      values: Object.fromEntries(entity.fields.map((field) => [field.name, ''])),
      _version: 0,
    }),
    restore: may.mayRestore
      ? async (id) => toRow(await restoreRecord({ entityName, id }).unwrap())
      : undefined,
  });

  /**
   * A record as the screen names it: its display field's value (the first field), as the
   * edit started from it when there is one (the name the person knew it by).
   */
  const displayOf = (id: string) => {
    const values =
      edit.bases[id]?.values ?? edit.gridProps.rows.find((row) => row._id === id)?.values;
    const shown = entity.fields[0] && values?.[entity.fields[0].name];
    return shown ? `«${shown}»` : 'a record with no value';
  };

  /** A row may be edited by a user who may update records, or, while new, who may add. */
  const mayEditRow = useCallback(
    (row: RecordRow) => may.mayEdit || (row.isNew && may.mayAdd),
    [may],
  );

  const removal = useConfirmedAction(async (row: RecordRow) => {
    await deleteRecord({ entityName, id: row._id }).unwrap();
  }, messages.records.deleteContext);

  return {
    entity,
    may,
    apiRef,
    edit,
    mayEditRow,
    /** The record `id` as a sentence names it: `the record «Car»`. */
    nameOf: (id: string) => `the record ${displayOf(id)}`,
    displayOf,
    labelOf: (name: string) => entity.fields.find((field) => field.name === name)?.label ?? name,
    removal,
    history: {
      endpoints: recordHistory(entityName),
      of: historyOf,
      open: setHistoryOf,
      close: () => setHistoryOf(undefined),
    },
  };
}

export type RecordGridController = ReturnType<typeof useRecordGrid>;
