import { useGridApiRef } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { messages } from '@common/messages';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import { type FieldValue, parseRecordValues } from '@common/schemas/fieldValues';
import { editValueOf } from './recordColumns';
import { useCan } from '@/auth/useCan';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useVersionedRowEdit } from '@/hooks/useVersionedRowEdit';
import { useAppDispatch } from '@/lib/store';
import { randomUuid } from '@/lib/uuid';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import type { RecordPolicy } from './useRecordPolicy';
import { useT } from '@/i18n/useT';
import {
  recordHistory,
  undoRecordsDelete,
  useCreateRecordMutation,
  useDeleteRecordMutation,
  useRestoreRecordVersionMutation,
  useUpdateRecordMutation,
} from './records.api';
import { localiseServerText } from '@/i18n/serverTexts';

/**
 * A grid row: a record's values, its relations' display values, its version, and whether
 * it is new (not saved yet).
 */
export interface RecordRow {
  _id: string;
  isNew: boolean;
  values: Record<string, FieldValue | null>;
  display: Record<string, FieldValue>;
  _version: number;
  /** Who added it (what a record policy may compare with the user). */
  createdBy?: string;
}

const toRow = (record: EntityRecord): RecordRow => ({
  _id: record._id,
  isNew: false,
  values: record.fields,
  display: record._display ?? {},
  _version: record._version,
  ...(record._createdBy ? { createdBy: record._createdBy } : {}),
});

/** The field a refused value's path names: `fields.quantity` → `quantity`. */
const fieldOfError = (path: string) => /^fields\.(.+)$/.exec(path)?.[1];

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
 * The record grid's editing (ra-core's `useEditController` for a grid): a page of the
 * entity's records as rows, edited inline on the one edit machine, checked by the
 * definition's schema before they are sent, added, deleted after confirmation, and their
 * histories. The view only renders it.
 */
export function useRecordGrid(
  entity: Entity,
  records: EntityRecord[],
  targets: Entity[],
  policy: RecordPolicy,
) {
  const t = useT();
  const entityName = entity.name;
  const may = useRecordPermissions();
  const [createRecord] = useCreateRecordMutation();
  const [updateRecord] = useUpdateRecordMutation();
  const [deleteRecord] = useDeleteRecordMutation();
  const [restoreRecord] = useRestoreRecordVersionMutation();
  const apiRef = useGridApiRef();
  const dispatch = useAppDispatch();
  const rows = useMemo(() => records.map(toRow), [records]);
  const [historyOf, setHistoryOf] = useState<string>();

  // Add record and Edit put the keyboard in the row's first cell (the grid's field name).
  const firstField = entity.fields[0] && `value:${entity.fields[0].name}`;

  const edit = useVersionedRowEdit<RecordRow, Record<string, FieldValue | null>>({
    resource: 'entity-records',
    entityName,
    rows,
    paged: true,
    apiRef,
    fieldToFocus: firstField,
    validate: (row) => {
      const checked = parseRecordValues(entity.fields, row.values, { creating: row.isNew });
      if (!('problems' in checked)) return undefined;
      return Object.fromEntries(
        checked.problems.map(({ field, message }) => [field, localiseServerText(message)]),
      );
    },
    fieldOfError,
    columnOf: (name) => `value:${name}`,
    editValueOf: (name, value, row) =>
      editValueOf(
        entity.fields.find((field) => field.name === name)!,
        value,
        [row, ...rows],
      ),
    errorContext: messages.records.saveContext,
    valuesOf: (row) => row.values,
    fromServer: (current) => toRow(current as EntityRecord),
    // The row shows the stored record until the page comes again (updateRecord asks).
    send: async (id, fields, version) =>
      toRow(await updateRecord({ entityName, id, fields, version }).unwrap()),
    // The pages are asked again (createRecord); the record goes where their sort and filter
    // put it, perhaps off this page: the toast says it was added.
    create: async (row) => {
      await createRecord({ entityName, id: row._id, fields: row.values }).unwrap();
      dispatch(toastQueued(t('records.added'), 'success'));
      return { ...row, isNew: false, _version: 1 };
    },
    blankRow: () => ({
      _id: randomUuid(),
      isNew: true,
      // Text starts empty; a value of another type starts as none.
      values: Object.fromEntries(
        entity.fields.map((field) => [field.name, (field.type ?? 'text') === 'text' ? '' : null]),
      ),
      display: {},
      _version: 0,
    }),
    restore: may.mayRestore
      ? async (id) => toRow(await restoreRecord({ entityName, id }).unwrap())
      : undefined,
  });

  /**
   * A record as the screen names it, for the messages that name it (`named`: `yes` or
   * `no`, and `name`): its display field's value, as the edit started from it when there is
   * one (the name the person knew it by).
   */
  const displayOf = (id: string) => {
    const row = edit.gridProps.rows.find((candidate) => candidate._id === id);
    const values = edit.bases[id]?.values ?? row?.values;
    const name = entity.displayField ?? entity.fields[0]?.name;
    const shown = name === undefined ? undefined : (row?.display[name] ?? values?.[name]);
    return shown === undefined || shown === null || shown === ''
      ? { named: 'no', name: '' }
      : { named: 'yes', name: String(shown) };
  };

  /**
   * A row may be edited by a user who may update it (records, then this one by the
   * policies), or, while new, who may add.
   */
  const mayEditRow = useCallback(
    (row: RecordRow) => (row.isNew ? may.mayAdd : may.mayEdit && policy.mayUpdate(row)),
    [may, policy],
  );
  /** A cell (`value:name`) may be edited in a row that may, of a field the user may set. */
  const mayEditCell = useCallback(
    (row: RecordRow, column: string) =>
      mayEditRow(row) && policy.maySet(row, column.replace(/^value:/, '')),
    [mayEditRow, policy],
  );
  const mayDeleteRow = useCallback(
    (row: RecordRow) => may.mayDelete && policy.mayDelete(row),
    [may, policy],
  );

  const removal = useConfirmedAction(async (row: RecordRow) => {
    await deleteRecord({ entityName, id: row._id }).unwrap();
    const deleted = t('records.deletedOne', displayOf(row._id));
    dispatch(
      may.mayRestore
        ? undoOffered(deleted, undoRecordsDelete(entityName, [row._id]))
        : toastQueued(deleted, 'success'),
    );
  }, messages.records.deleteContext);

  return {
    entity,
    /** The definitions of the entities its relations point at (loaded by app/). */
    targets,
    may,
    apiRef,
    edit,
    mayEditRow,
    mayEditCell,
    mayDeleteRow,
    /** The record `id` as a sentence names it: `the record «Car»`. */
    nameOf: (id: string) => t('records.theRecord', displayOf(id)),
    /** The question before the record `id` is deleted. */
    deleteQuestionOf: (id: string) => t('records.deleteOneQuestion', displayOf(id)),
    labelOf: (name: string) => entity.fields.find((field) => field.name === name)?.label ?? name,
    removal,
    history: {
      endpoints: recordHistory(entity),
      of: historyOf,
      open: setHistoryOf,
      close: () => setHistoryOf(undefined),
    },
  };
}

export type RecordGridController = ReturnType<typeof useRecordGrid>;
