import AddIcon from '@mui/icons-material/Add';
import CancelIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import SaveIcon from '@mui/icons-material/Save';
import { Alert, Box, Button, Typography } from '@mui/material';
import {
  DataGrid,
  GridActionsCell,
  GridActionsCellItem,
  type GridColDef,
  GridRowEditStopReasons,
  type GridRowModesModel,
  GridRowModes,
  useGridApiRef,
} from '@mui/x-data-grid';
import { useCallback, useMemo, useRef, useState } from 'react';
import { messages } from '@common/messages';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import type { DeletedItem, Version } from '@common/schemas/versions';
import { conflictCurrent, reportError } from '@/api/errors';
import { useCan } from '@/auth/useCan';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ChangedMeanwhileAlert } from '@/components/ChangedMeanwhileAlert';
import { ConflictDialog } from '@/components/ConflictDialog';
import { LabelledEditCell } from '@/components/LabelledEditCell';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { RecentlyDeletedButton } from '@/components/RecentlyDeletedButton';
import { RecentlyDeletedDialog, failedTo, restored } from '@/components/RecentlyDeletedDialog';
import { useReportedError } from '@/hooks/useReportedError';
import { useChangedMeanwhile, useHeardChange } from '@/hooks/useChangedMeanwhile';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useEditBases } from '@/hooks/useEditBases';
import { useGridFocusRelease } from '@/hooks/useGridFocusRelease';
import { useAnnounceEditing, useEditors } from '@/hooks/usePresence';
import { useRowEditHint } from '@/hooks/useRowEditHint';
import { VersionHistoryDialog } from '@/components/VersionHistoryDialog';
import { randomUuid } from '@/lib/uuid';
import { cancelRow, saveRow, startEditing } from './recordRows';
import {
  useCreateRecordMutation,
  useDeleteRecordMutation,
  useListDeletedRecordsQuery,
  useListRecordVersionsInfiniteQuery,
  useListRecordsQuery,
  useRestoreRecordVersionMutation,
  useUpdateRecordMutation,
} from './records.api';

/** A grid row: a record's values and version, and whether it is new (not saved yet). */
interface RecordRow {
  _id: string;
  isNew: boolean;
  values: Record<string, string>;
  version: number;
}

const toRow = (record: EntityRecord): RecordRow => ({
  _id: record._id,
  isNew: false,
  values: record.fields,
  version: record._version,
});

/** What an edit of a saved record started from: its save names that version. */
interface EditBase {
  version: number;
  values: Record<string, string>;
}

/** A save that met a newer version: what it started from, tried, and found. */
interface Conflict {
  id: string;
  base: EditBase;
  mine: Record<string, string>;
  theirs: EntityRecord;
}

const RESTORE_PATH = '/api/entity-records/:entityName/:id/versions/:versionId/restore';

function RecordVersions({
  entityName,
  id,
  onClose,
}: {
  entityName: string;
  id: string;
  onClose(): void;
}) {
  const history = useListRecordVersionsInfiniteQuery({ entityName, id });
  const mayRestore = useCan('POST', RESTORE_PATH);
  const [restoreVersion] = useRestoreRecordVersionMutation();
  const restore = (version: Version, current?: number) =>
    restoreVersion({ entityName, id, versionId: version._id, version: current })
      .unwrap()
      .catch((error: unknown) => reportError(messages.records.restoreContext, error));
  return (
    <VersionHistoryDialog
      title="Record versions"
      history={history}
      onClose={onClose}
      onRestore={mayRestore ? restore : undefined}
    />
  );
}

/** A deleted record, named by its values (it has no other name). */
const recordName = (item: DeletedItem) =>
  Object.values((item.document.fields ?? {}) as Record<string, string>)
    .filter((value) => value !== '')
    .join(' · ') || 'A record with no values';

function DeletedRecords({ entityName, onClose }: { entityName: string; onClose(): void }) {
  const { data, isLoading, isError } = useListDeletedRecordsQuery(entityName);
  const mayRestore = useCan('POST', RESTORE_PATH);
  const [restoreVersion] = useRestoreRecordVersionMutation();
  const restore = (item: DeletedItem) =>
    restoreVersion({ entityName, id: item._id, versionId: item.versionId })
      .unwrap()
      .then(restored, failedTo(messages.records.restoreContext));
  return (
    <RecentlyDeletedDialog
      title={`Recently deleted ${entityName} records`}
      items={data}
      isLoading={isLoading}
      isError={isError}
      nameOf={recordName}
      onClose={onClose}
      onRestore={mayRestore ? restore : undefined}
    />
  );
}

/** What the signed-in user may do to records, from the permissions call. */
function useRecordPermissions() {
  return {
    mayAdd: useCan('POST', '/api/entity-records/:entityName'),
    mayEdit: useCan('PUT', '/api/entity-records/:entityName/:id'),
    mayDelete: useCan('DELETE', '/api/entity-records/:entityName/:id'),
    mayReadVersions: useCan('GET', '/api/entity-records/:entityName/:id/versions'),
    mayListDeleted: useCan('GET', '/api/entity-records/:entityName/recently-deleted'),
  };
}

const rowId = (row: RecordRow) => row._id;

/**
 * The grid's empty state, worded as QueryState words it. Text only: it sits inside the
 * grid, where a button is not allowed (ARIA); Add record is right above.
 */
function NoRecords() {
  return (
    <Box sx={{ py: 4, textAlign: 'center' }}>
      <Typography color="text.secondary">No records yet</Typography>
    </Box>
  );
}

function RecordGrid({ entity, records }: { entity: Entity; records: EntityRecord[] }) {
  const entityName = entity.name;
  const may = useRecordPermissions();
  const [createRecord] = useCreateRecordMutation();
  const [updateRecord] = useUpdateRecordMutation();
  const [deleteRecord] = useDeleteRecordMutation();
  // The cache holds the saved records; only rows not saved yet live here (STYLE: the one
  // row being edited). The grid keeps the edited values of a row itself.
  const [newRows, setNewRows] = useState<RecordRow[]>([]);
  const rows = useMemo(
    () => [
      ...records.map(toRow),
      ...newRows.filter((row) => !records.some((record) => record._id === row._id)),
    ],
    [records, newRows],
  );
  const [modes, setModes] = useState<GridRowModesModel>({});
  const [historyOf, setHistoryOf] = useState<string>();
  // Rows whose last save failed (the grid is about to put them back in edit mode).
  const failedSaves = useRef(new Set<string>());
  const apiRef = useGridApiRef();
  const releaseGridFocus = useGridFocusRelease(apiRef);
  // What each saved row being edited started from (kept until it is saved or cancelled:
  // a failed save comes back to edit mode with the same base).
  const { bases, remember: rememberBase, rebase, forget } = useEditBases<EditBase>();
  const remember = useCallback(
    (id: string) => {
      const row = rows.find((r) => r._id === id);
      if (row && !row.isNew) rememberBase(id, { version: row.version, values: row.values });
    },
    [rows, rememberBase],
  );
  const [conflict, setConflict] = useState<Conflict>();
  const [resolving, setResolving] = useState(false);
  const conflictBy = useHeardChange('entity-records', conflict?.id)?.actor;
  const editingId = Object.keys(modes).find((id) => modes[id]?.mode === GridRowModes.Edit);
  const editingSaved = editingId && !rows.find((r) => r._id === editingId)?.isNew;
  useAnnounceEditing(
    editingSaved ? { resource: 'entity-records', id: editingId, entityName } : undefined,
  );
  const editors = useEditors('entity-records');
  const changedMeanwhile = useChangedMeanwhile(
    'entity-records',
    editingId,
    editingId ? bases[editingId]?.version : undefined,
  );

  // Add record and Edit put the keyboard in the row's first cell (the grid's field name).
  const firstField = entity.fields[0] && `value:${entity.fields[0].name}`;

  const addRecord = useCallback(() => {
    const id = randomUuid();
    const values = Object.fromEntries(entity.fields.map((field) => [field.name, '']));
    setNewRows((current) => [...current, { _id: id, isNew: true, values, version: 0 }]);
    setModes((current) => startEditing(current, id, firstField));
  }, [entity.fields, firstField]);

  async function save(row: RecordRow, previous: RecordRow): Promise<RecordRow> {
    const unchanged = !row.isNew && JSON.stringify(row.values) === JSON.stringify(previous.values);
    if (unchanged) return row;
    if (row.isNew) {
      // The cache gains the record (createRecord), and the draft row goes.
      await createRecord({ entityName, id: row._id, fields: row.values }).unwrap();
      setNewRows((current) => current.filter((r) => r._id !== row._id));
      return { ...row, isNew: false, version: 1 };
    }
    // The server's stored record replaces the cached one (updateRecord).
    const base = bases[row._id] ?? {
      version: previous.version,
      values: previous.values,
    };
    try {
      const stored = await updateRecord({
        entityName,
        id: row._id,
        fields: row.values,
        version: base.version,
      }).unwrap();
      forget(row._id);
      return toRow(stored);
    } catch (failure) {
      const current = conflictCurrent<EntityRecord>(failure);
      if (current) setConflict({ id: row._id, base, mine: row.values, theirs: current });
      throw failure;
    }
  }

  /** Leaves a row's edit, dropping what was typed: the row shows the cached record. */
  const endEdit = (id: string) => {
    forget(id);
    setModes((current) => cancelRow(current, id));
  };

  /** Saves what this person typed on top of the version the conflict found. */
  async function applyMine(open: Conflict) {
    setResolving(true);
    try {
      await updateRecord({
        entityName,
        id: open.id,
        fields: open.mine,
        version: open.theirs._version,
      }).unwrap();
      endEdit(open.id);
      setConflict(undefined);
    } catch (failure) {
      const current = conflictCurrent<EntityRecord>(failure);
      if (current) setConflict({ ...open, theirs: current });
      else reportError(messages.records.saveContext, failure);
    } finally {
      setResolving(false);
    }
  }

  /** The row being edited against its newest version, as a save would meet it. */
  const review = () => {
    if (!editingId) return;
    const base = bases[editingId];
    const theirs = records.find((record) => record._id === editingId);
    if (!base || !theirs) return;
    const edited = apiRef.current?.getRowWithUpdatedValues(editingId, '') as RecordRow | undefined;
    setConflict({ id: editingId, base, mine: edited?.values ?? base.values, theirs });
  };

  const removal = useConfirmedAction(async (row: RecordRow) => {
    if (row.isNew) setNewRows((current) => current.filter((r) => r._id !== row._id));
    else await deleteRecord({ entityName, id: row._id }).unwrap();
  }, messages.records.deleteContext);
  const ask = removal.ask;

  // A row may be edited by a user who may update records, or, while it is new (not saved
  // yet), by one who may add them.
  const { mayAdd, mayEdit, mayDelete, mayReadVersions } = may;
  const mayEditRow = useCallback(
    (row: RecordRow) => mayEdit || (row.isNew && mayAdd),
    [mayEdit, mayAdd],
  );

  const columns = useMemo((): GridColDef<RecordRow>[] => {
    const fieldColumns = entity.fields.map((field): GridColDef<RecordRow> => ({
      field: `value:${field.name}`,
      headerName: field.label,
      flex: 1,
      minWidth: 140,
      editable: mayEdit || mayAdd,
      renderEditCell: LabelledEditCell,
      valueGetter: (_value, row) => row.values[field.name] ?? '',
      valueSetter: (value, row) => ({
        ...row,
        values: { ...row.values, [field.name]: String(value ?? '') },
      }),
    }));
    if (!mayAdd && !mayEdit && !mayDelete && !mayReadVersions) return fieldColumns;
    const cancel = (row: RecordRow) => {
      forget(row._id);
      setModes((current) => cancelRow(current, row._id));
      if (row.isNew) setNewRows((current) => current.filter((r) => r._id !== row._id));
    };
    const actions: GridColDef<RecordRow> = {
      field: 'actions',
      type: 'actions',
      headerName: 'Actions',
      width: 160,
      getActions: () => [],
      renderCell: (params) => {
        const row = params.row;
        const n = rows.findIndex((r) => r._id === row._id) + 1;
        return (
          <GridActionsCell {...params}>
            {modes[row._id]?.mode === GridRowModes.Edit ? (
              <>
                <GridActionsCellItem
                  icon={<SaveIcon />}
                  label={`Save record ${n}`}
                  onClick={() => setModes((current) => saveRow(current, row._id))}
                />
                <GridActionsCellItem
                  icon={<CancelIcon />}
                  label={`Cancel record ${n}`}
                  onClick={() => cancel(row)}
                />
              </>
            ) : (
              <>
                {mayEditRow(row) && (
                  <GridActionsCellItem
                    icon={<EditIcon />}
                    label={`Edit record ${n}`}
                    onClick={() => {
                      remember(row._id);
                      setModes((current) => startEditing(current, row._id, firstField));
                    }}
                  />
                )}
                {mayReadVersions && (
                  <GridActionsCellItem
                    icon={<HistoryIcon />}
                    label={`Versions of record ${n}`}
                    onClick={() => setHistoryOf(row._id)}
                  />
                )}
                {mayDelete && (
                  <GridActionsCellItem
                    icon={<DeleteIcon />}
                    label={`Delete record ${n}`}
                    onClick={() => ask(row)}
                  />
                )}
              </>
            )}
          </GridActionsCell>
        );
      },
    };
    return [...fieldColumns, actions];
  }, [
    entity.fields,
    remember,
    forget,
    mayAdd,
    mayEdit,
    mayDelete,
    mayReadVersions,
    mayEditRow,
    rows,
    modes,
    firstField,
    ask,
  ]);

  const slots = useMemo(() => ({ noRowsOverlay: NoRecords }), []);
  const rowEditHint = useRowEditHint(mayEdit);

  return (
    <Box>
      <PageHeader title={entity.name}>
        {mayAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={addRecord}>
            Add record
          </Button>
        )}
        {may.mayListDeleted && (
          <RecentlyDeletedButton
            dialog={(onClose) => <DeletedRecords entityName={entityName} onClose={onClose} />}
          />
        )}
      </PageHeader>
      {entity.description && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {entity.description}
        </Alert>
      )}
      {Object.keys(editors).length > 0 && (
        <Box role="status" sx={{ mb: 1 }}>
          {rows.flatMap((row, index) =>
            (editors[row._id] ?? []).map((name) => (
              <Typography key={`${row._id}/${name}`} variant="body2" color="text.secondary">
                {name} is editing record {index + 1}.
              </Typography>
            )),
          )}
        </Box>
      )}
      {changedMeanwhile && editingId && (
        <Box sx={{ mb: 2 }}>
          <ChangedMeanwhileAlert
            by={changedMeanwhile.actor}
            what={`record ${rows.findIndex((row) => row._id === editingId) + 1}`}
            onReview={review}
          />
        </Box>
      )}
      <Box sx={{ height: 520 }} onBlur={releaseGridFocus}>
        <DataGrid
          apiRef={apiRef}
          aria-label={`${entity.name} records`}
          rows={rows}
          columns={columns}
          getRowId={rowId}
          editMode="row"
          isCellEditable={(params) => mayEditRow(params.row)}
          rowModesModel={modes}
          onRowModesModelChange={(next) => {
            // Keep the one-editing-row rule when the grid starts an edit itself (double
            // click). A row whose save failed comes back to edit mode too: it stays, and
            // no other row is sent off to be saved for it.
            const started = Object.keys(next).filter(
              (id) =>
                next[id]!.mode === GridRowModes.Edit &&
                modes[id]?.mode !== GridRowModes.Edit &&
                !failedSaves.current.delete(id),
            );
            if (started.length === 1) remember(started[0]!);
            setModes(started.length === 1 ? startEditing(modes, started[0]!) : next);
          }}
          processRowUpdate={async (row: RecordRow, previous: RecordRow) => {
            try {
              return await save(row, previous);
            } catch (failure) {
              failedSaves.current.add(row._id);
              throw failure;
            }
          }}
          onProcessRowUpdateError={(failure) => {
            // A conflict is not a fault: the ConflictDialog shows it.
            if (!conflictCurrent(failure)) reportError(messages.records.saveContext, failure);
          }}
          // Escape leaves the row as it was saved; a row never saved goes altogether.
          onRowEditStop={({ reason, row }) => {
            if (reason === GridRowEditStopReasons.escapeKeyDown && row.isNew)
              setNewRows((current) => current.filter((r) => r._id !== row._id));
          }}
          slots={slots}
          slotProps={rowEditHint.slotProps}
          disableRowSelectionOnClick
        />
      </Box>
      {rowEditHint.hint}
      {historyOf && (
        <RecordVersions
          entityName={entityName}
          id={historyOf}
          onClose={() => setHistoryOf(undefined)}
        />
      )}
      <ConfirmDialog {...removal.dialog} title="Delete record" message="Delete this record?" />
      {conflict && (
        <ConflictDialog
          what={`record ${rows.findIndex((row) => row._id === conflict.id) + 1}`}
          changedBy={conflictBy}
          base={conflict.base.values}
          theirs={conflict.theirs.fields}
          mine={conflict.mine}
          labelOf={(name) => entity.fields.find((field) => field.name === name)?.label ?? name}
          busy={resolving}
          onKeepTheirs={() => {
            endEdit(conflict.id);
            setConflict(undefined);
          }}
          onEditFurther={() => {
            // The next save builds on their version; the row keeps what was typed.
            rebase(conflict.id, {
              version: conflict.theirs._version,
              values: conflict.theirs.fields,
            });
            setConflict(undefined);
          }}
          onApplyMine={() => void applyMine(conflict)}
        />
      )}
    </Box>
  );
}

/** `/entities/:entityName`: the records of one entity (loaded by app/), edited inline. */
export function RecordsPage({ entity }: { entity: Entity }) {
  const recordsQuery = useListRecordsQuery(entity.name);
  useReportedError(messages.records.fetchContext, recordsQuery.error);
  return (
    <QueryState query={recordsQuery} what="records">
      {(records) => <RecordGrid entity={entity} records={records} />}
    </QueryState>
  );
}
