import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Typography } from '@mui/material';
import { DataGrid } from '@mui/x-data-grid';
import { messages } from '@common/messages';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import type { DeletedItem } from '@common/schemas/versions';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EditNotices } from '@/components/EditNotices';
import { Editors } from '@/components/Editors';
import { GridFrame, useGridColumns } from '@/components/GridFrame';
import { ItemHistory, RecentlyDeleted } from '@/components/ItemHistory';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useRowEditHint } from '@/hooks/useRowEditHint';
import { useRecordColumns } from './recordColumns';
import { useListRecordsQuery } from './records.api';
import { useRecordGrid } from './useRecordGrid';

/** A deleted record, named by its values (it has no other name). */
const deletedName = (item: DeletedItem) =>
  Object.values((item.document.fields ?? {}) as Record<string, string>)
    .filter((value) => value !== '')
    .join(' · ') || 'A record with no values';

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
const slots = { noRowsOverlay: NoRecords };

function RecordGrid({ entity, records }: { entity: Entity; records: EntityRecord[] }) {
  const grid = useRecordGrid(entity, records);
  const { may, edit, apiRef, history } = grid;
  const pending = grid.removal.pending;
  const columns = useGridColumns(useRecordColumns(grid));
  const rowEditHint = useRowEditHint(may.mayEdit);
  return (
    <Box>
      <PageHeader title={entity.name}>
        {may.mayAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={edit.addRow}>
            Add record
          </Button>
        )}
        <RecentlyDeleted
          endpoints={history.endpoints}
          title={`Recently deleted ${entity.name} records`}
          nameOf={deletedName}
        />
      </PageHeader>
      {entity.description && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {entity.description}
        </Alert>
      )}
      <Editors editors={edit.editors} nameOf={grid.nameOf} />
      <EditNotices edit={edit} nameOf={grid.nameOf} labelOf={grid.labelOf} />
      <GridFrame apiRef={apiRef} label={`${entity.name} records`} height={520}>
        <DataGrid
          apiRef={apiRef}
          aria-label={`${entity.name} records`}
          {...edit.gridProps}
          columns={columns}
          isCellEditable={(params) => grid.mayEditRow(params.row)}
          slots={slots}
          slotProps={rowEditHint.slotProps}
          disableRowSelectionOnClick
        />
      </GridFrame>
      {rowEditHint.hint}
      {history.of && (
        <ItemHistory
          endpoints={history.endpoints}
          item={history.of}
          title="Record versions"
          onClose={history.close}
        />
      )}
      <ConfirmDialog
        {...grid.removal.dialog}
        title="Delete record"
        message={`Delete the record ${pending ? grid.displayOf(pending._id) : ''}?`}
        editors={pending && edit.editors[pending._id]}
      />
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
