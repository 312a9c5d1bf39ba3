import AddIcon from '@mui/icons-material/Add';
import { Alert, Box, Button, Typography } from '@mui/material';
import { DataGrid } from '@mui/x-data-grid';
import UploadIcon from '@mui/icons-material/Upload';
import { useMemo, useState } from 'react';
import { messages } from '@common/messages';
import { isRequestCanceled } from '@/api/errors';
import type { Entity, RecordPage } from '@common/schemas/entities';
import type { DeletedItem } from '@common/schemas/versions';
import { BulkBar } from '@/components/BulkBar';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EditNotices } from '@/components/EditNotices';
import { Editors } from '@/components/Editors';
import { ExportMenu, shownColumnsOf } from '@/components/ExportMenu';
import { GridFrame, useGridColumns } from '@/components/GridFrame';
import { ListToolbar } from '@/components/ListToolbar';
import { ItemHistory, RecentlyDeleted } from '@/components/ItemHistory';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { WithLastView } from '@/components/WithLastView';
import { useGridLayout } from '@/hooks/useGridLayout';
import { useReportedError } from '@/hooks/useReportedError';
import { useRowEditHint } from '@/hooks/useRowEditHint';
import { BulkSetDialog } from './BulkSetDialog';
import { ImportDialog } from '@/components/ImportDialog';
import { api } from '@/api/api';
import { recordListTag } from '@/api/tags';
import { useAppDispatch } from '@/lib/store';
import { useRecordColumns } from './recordColumns';
import { useRecordBulk } from './useRecordBulk';
import { useRecordGrid } from './useRecordGrid';
import { type RecordPolicy, useRecordPolicy } from './useRecordPolicy';
import { type RecordListController, useRecordList } from './useRecordList';
import { useGridLocaleText } from '@/hooks/useGridLocaleText';
import { useT } from '@/i18n/useT';

/** A deleted record's values, as its name (it has no other); empty when it has none. */
const deletedValues = (item: DeletedItem) =>
  Object.values((item.document.fields ?? {}) as Record<string, string>)
    .filter((value) => value !== '')
    .join(' · ');

/**
 * The grid's empty state, worded as QueryState words it. Text only: it sits inside the
 * grid, where a button is not allowed (ARIA); Add record is right above.
 */
const emptyState = (text: string) =>
  function NoRows() {
    return (
      <Box sx={{ py: 4, textAlign: 'center' }}>
        <Typography color="text.secondary">{text}</Typography>
      </Box>
    );
  };

function RecordGrid({
  entity,
  targets,
  list,
  page,
  policy,
}: {
  entity: Entity;
  targets: Entity[];
  list: RecordListController;
  page: RecordPage;
  policy: RecordPolicy;
}) {
  const t = useT();
  const grid = useRecordGrid(entity, page.records, targets, policy);
  const { may, edit, apiRef, history } = grid;
  const bulk = useRecordBulk(entity, list, page, grid.nameOf, apiRef, policy);
  const pending = grid.removal.pending;
  const layout = useGridLayout(useGridColumns(useRecordColumns(grid)));
  const rowEditHint = useRowEditHint(may.mayEdit);
  const [importing, setImporting] = useState(false);
  const dispatch = useAppDispatch();
  const importTarget = {
    path: `/api/entity-records/${encodeURIComponent(entity.name)}/import`,
    what: t('records.what', { entity: entity.name }),
    fields: entity.fields,
    onImported: () => dispatch(api.util.invalidateTags([recordListTag(entity.name)])),
  };
  const shownColumns = useMemo(
    () => shownColumnsOf(apiRef, (field) => /^value:(.+)$/.exec(field)?.[1]),
    [apiRef],
  );
  const slots = useMemo(
    () => ({
      unfiltered: { noRowsOverlay: emptyState(t('records.empty')) },
      filtered: { noRowsOverlay: emptyState(t('records.noMatch')) },
    }),
    [t],
  );
  const deletedName = (item: DeletedItem) => deletedValues(item) || t('records.noValues');
  const localeText = useGridLocaleText({
    paginationDisplayedRows: ({ from, to, count }) =>
      t('records.displayedRows', {
        from,
        to,
        count,
        estimate: page.totalIsEstimate ? 'yes' : 'no',
      }),
  });

  return (
    <Box>
      <PageHeader title={entity.name}>
        {may.mayAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={edit.addRow}>
            {t('records.add')}
          </Button>
        )}
        <RecentlyDeleted
          endpoints={history.endpoints}
          title={t('records.recentlyDeleted', { entity: entity.name })}
          nameOf={deletedName}
        />
      </PageHeader>
      {entity.description && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {entity.description}
        </Alert>
      )}
      <ListToolbar
        search={{
          value: list.search.typed,
          onChange: list.search.type,
          placeholder: t('records.searchPlaceholder'),
        }}
        grid={`records/${entity.name}`}
        chooser={layout.chooser}
      >
        {may.mayAdd && (
          <Button startIcon={<UploadIcon />} onClick={() => setImporting(true)}>
            {t('records.import')}
          </Button>
        )}
        <ExportMenu
          path={`/api/entity-records/${encodeURIComponent(entity.name)}/export`}
          what={t('records.what', { entity: entity.name })}
          params={list.exportParams}
          columns={shownColumns}
        />
      </ListToolbar>
      {list.pageQuery.error && !isRequestCanceled(list.pageQuery.error) && (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void list.pageQuery.refetch()}>
              {t('common.retry')}
            </Button>
          }
        >
          {t('common.loadFailed', { what: t('records.whatAll') })}
        </Alert>
      )}
      <Editors editors={edit.editors} nameOf={grid.nameOf} />
      <EditNotices edit={edit} nameOf={grid.nameOf} labelOf={grid.labelOf} />
      {bulk.refusal}
      <BulkBar selection={bulk.selection} total={page.total} what={t('records.bulkWhat')}>
        {bulk.maySet && <Button onClick={() => bulk.ask('set')}>{t('records.setField')}</Button>}
        {bulk.mayDelete && (
          <Button color="error" onClick={() => bulk.ask('delete')}>
            {t('common.delete')}
          </Button>
        )}
      </BulkBar>
      <GridFrame
        apiRef={apiRef}
        label={t('records.gridLabel', { entity: entity.name })}
        height={520}
      >
        <DataGrid
          apiRef={apiRef}
          aria-label={t('records.gridLabel', { entity: entity.name })}
          {...list.gridProps}
          {...edit.gridProps}
          {...(bulk.mayAct ? bulk.selection.gridProps : {})}
          {...layout.gridProps}
          localeText={localeText}
          columns={layout.columns}
          isCellEditable={(params) => grid.mayEditCell(params.row, params.field)}
          slots={list.view.q || list.view.filter ? slots.filtered : slots.unfiltered}
          slotProps={rowEditHint.slotProps}
          disableRowSelectionOnClick
        />
      </GridFrame>
      {rowEditHint.hint}
      {importing && (
        <ImportDialog
          target={importTarget}
          explanation={t('records.importExplanation')}
          onClose={() => setImporting(false)}
        />
      )}
      {history.of && (
        <ItemHistory
          endpoints={history.endpoints}
          item={history.of}
          title={t('records.versions')}
          onClose={history.close}
        />
      )}
      <ConfirmDialog
        open={bulk.asking === 'delete'}
        title={t('records.deleteManyTitle')}
        message={bulk.deleteQuestion}
        onConfirm={() => void bulk.remove()}
        onCancel={bulk.cancel}
      />
      {bulk.asking === 'set' && (
        <BulkSetDialog
          fields={bulk.settable}
          count={bulk.selection.count}
          onSet={(name, value) => void bulk.set(name, value)}
          onClose={bulk.cancel}
        />
      )}
      <ConfirmDialog
        {...grid.removal.dialog}
        title={t('records.deleteOneTitle')}
        message={pending ? grid.deleteQuestionOf(pending._id) : ''}
        editors={pending && edit.editors[pending._id]}
      />
    </Box>
  );
}

/**
 * `/entities/:entityName`: the records of one entity (loaded by app/, with the definitions
 * of the entities its relations point at), a page at a time, searched, sorted and filtered
 * by the server, and edited inline.
 */
export function RecordsPage({ entity, targets }: { entity: Entity; targets: Entity[] }) {
  return (
    <WithLastView key={entity.name} grid={`records/${entity.name}`}>
      <RecordList entity={entity} targets={targets} />
    </WithLastView>
  );
}

/**
 * The records through the shared loading and error states, as the user's record policies
 * let them see the entity (its hidden fields left out of every part of the screen).
 */
function RecordList({ entity: whole, targets }: { entity: Entity; targets: Entity[] }) {
  const policy = useRecordPolicy(whole);
  const entity = policy.visible;
  const list = useRecordList(entity);
  const { data, error, isLoading, refetch } = list.pageQuery;
  const t = useT();
  useReportedError(messages.records.fetchContext, error);
  // While a page loads, or fails to, the last one stays in view (with what was typed).
  return (
    <QueryState query={{ data, error, isLoading, refetch }} what={t('records.whatAll')}>
      {(page) => (
        <RecordGrid entity={entity} targets={targets} list={list} page={page} policy={policy} />
      )}
    </QueryState>
  );
}
