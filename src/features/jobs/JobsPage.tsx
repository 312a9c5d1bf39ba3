import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, Stack, TextField } from '@mui/material';
import {
  DataGrid,
  GridActionsCell,
  GridActionsCellItem,
  type GridColDef,
  type GridSortModel,
  useGridApiRef,
} from '@mui/x-data-grid';
import { useEffect, useMemo, useState } from 'react';
import { JOB_FILTER_MAX_LENGTH, JOB_PAGE_SIZES } from '@common/constants';
import { messages } from '@common/messages';
import { JOB_SORT_COLUMNS, type JobListQuery, type JobSummary } from '@common/schemas/jobs';
import { PermissionGate } from '@/auth/PermissionGate';
import { useCan } from '@/auth/useCan';
import { ExportMenu, shownColumnsOf } from '@/components/ExportMenu';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { GridFrame } from '@/components/GridFrame';
import { useGridLayout } from '@/hooks/useGridLayout';
import { useListParams } from '@/hooks/useListParams';
import { useReportedError } from '@/hooks/useReportedError';
import { withLayoutOf } from '@/lib/gridLayout';
import { screenReaderOnly } from '@/lib/screenReaderOnly';
import { SavedViews } from '@/components/SavedViews';
import { ColumnChooser } from '@/components/ColumnChooser';
import { WithLastView } from '@/components/WithLastView';
import { JobDetails } from './JobDetails';
import {
  cleanFilter,
  paramsFromView,
  sortedBy,
  viewFromParams,
  withFilter,
  withPageSize,
} from './jobListState';
import { useListJobsQuery } from './jobs.api';
import { useGridLocaleText } from '@/hooks/useGridLocaleText';
import { useT } from '@/i18n/useT';

/** A grid row: a job, or the details row spanning every column under an expanded job. */
type JobRow = (JobSummary & { detailOf?: undefined }) | { _id: string; detailOf: JobSummary };

/** How long typing in the filter box pauses before the filter is sent. */
export const FILTER_DELAY_MS = 300;

/** The job list, paged, sorted and filtered on the server, with expandable details. */
function JobList() {
  const [params, setParams] = useListParams();
  const view = useMemo(() => viewFromParams(params), [params]);
  // A page, size or sort the user picks is a step Back returns from; typing is not.
  const show = (next: JobListQuery) => setParams(paramsFromView(next));
  const { data, currentData, error, isLoading, isFetching, refetch } = useListJobsQuery(view);
  const mayOpen = useCan('GET', '/api/LIMS/jobs/:id');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const gridApi = useGridApiRef();
  const t = useT();
  const [typed, setTyped] = useState(view.filter);
  // A filter that came from elsewhere (a link, the menu) replaces what was typed; the one
  // this page sent, arriving, does not: a key typed since it was sent would be lost.
  const [typedFor, setTypedFor] = useState(view.filter);
  const [sent, setSent] = useState<string>();
  if (typedFor !== view.filter) {
    setTypedFor(view.filter);
    setSent(undefined);
    if (view.filter !== sent && cleanFilter(typed) !== view.filter) setTyped(view.filter);
  }

  useReportedError(messages.jobs.fetchContext, error);

  // The URL shows the view as it is read: values it could not use are not left in it.
  const canonical = withLayoutOf(params, paramsFromView(view)).toString();
  useEffect(() => {
    if (params.toString() !== canonical)
      setParams(new URLSearchParams(canonical), { replace: true });
  }, [params, canonical, setParams]);

  // A page past the last (an estimated total's end, an old link) is answered with the last
  // page: the view goes there too.
  const answeredPage = currentData?.page;
  useEffect(() => {
    if (answeredPage !== undefined && answeredPage !== view.page)
      setParams(paramsFromView({ ...view, page: answeredPage }), { replace: true });
  }, [answeredPage, view, setParams]);

  // The filter goes to the server once typing pauses; a new filter starts at page 1.
  useEffect(() => {
    const timer = setTimeout(() => {
      const next = withFilter(view, typed);
      if (next === view) return;
      setSent(next.filter);
      setParams(paramsFromView(next), { replace: true });
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, view, setParams]);

  // While a page loads the last one stays in view; after a failure, none does.
  const shown = error ? undefined : data;
  const rows = useMemo<JobRow[]>(
    () =>
      (shown?.jobs ?? []).flatMap((job): JobRow[] =>
        expanded.has(job._id) ? [job, { _id: `${job._id}-details`, detailOf: job }] : [job],
      ),
    [shown, expanded],
  );

  const columns = useMemo<GridColDef<JobRow>[]>(() => {
    const toggle = (id: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      });
    return [
      {
        field: 'expand',
        headerName: t('jobs.details'),
        // A column of buttons 56 px wide: its name is for screen readers only.
        renderHeader: () => (
          <Box component="span" sx={screenReaderOnly}>
            {t('jobs.details')}
          </Box>
        ),
        width: 56,
        sortable: false,
        hideable: false,
        disableColumnMenu: true,
        colSpan: (_value, row) => (row.detailOf ? 5 : 1),
        renderCell: (params) => {
          const { row } = params;
          if (row.detailOf)
            return (
              <JobDetails id={row.detailOf._id} friendlyNumber={row.detailOf.friendlyNumber} />
            );
          // A role that may not read a job's details is offered no way to open one.
          if (!mayOpen) return null;
          const open = expanded.has(row._id);
          // The grid's own actions cell: the toggle takes the focus when the keyboard
          // reaches its cell, and is not a Tab stop of its own on every row.
          return (
            <GridActionsCell {...params}>
              <GridActionsCellItem
                icon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                label={t(open ? 'jobs.collapse' : 'jobs.expand', { number: row.friendlyNumber })}
                aria-expanded={open}
                onClick={() => toggle(row._id)}
                // Space and Enter belong to the button; the grid would scroll or move on them.
                onKeyDown={(event) => {
                  if (event.key === ' ' || event.key === 'Enter') event.stopPropagation();
                }}
              />
            </GridActionsCell>
          );
        },
      },
      { field: 'friendlyNumber', headerName: t('jobs.job'), width: 130 },
      { field: 'status', headerName: t('jobs.status'), width: 130 },
      { field: 'conclusion', headerName: t('jobs.conclusion'), width: 190 },
      { field: 'description', headerName: t('jobs.description'), flex: 1, minWidth: 240 },
    ];
  }, [expanded, mayOpen, t]);
  const layout = useGridLayout(columns);

  // The same objects while the view stands: the grid takes a new sort model for a change
  // of sort, and goes back to the first page.
  const sortModel = useMemo<GridSortModel>(
    () => [{ field: view.sortColumn, sort: view.sortOrder }],
    [view.sortColumn, view.sortOrder],
  );
  const paginationModel = useMemo(
    () => ({ page: view.page - 1, pageSize: view.perPage }),
    [view.page, view.perPage],
  );
  const shownColumns = useMemo(
    () =>
      shownColumnsOf(gridApi, (field) =>
        (JOB_SORT_COLUMNS as readonly string[]).includes(field) ? field : undefined,
      ),
    [gridApi],
  );
  const localeText = useGridLocaleText({
    noRowsLabel: t('jobs.noRowsOnPage'),
    paginationDisplayedRows: ({ from, to, count }) =>
      t(shown?.totalIsEstimate ? 'jobs.rowsEstimate' : 'jobs.rows', { from, to, count }),
  });

  return (
    <>
      <Stack
        direction="row"
        useFlexGap
        sx={{ mb: 2, gap: 1, alignItems: 'center', flexWrap: 'wrap' }}
      >
        <TextField
          label={t('jobs.filter')}
          placeholder={t('jobs.filterPlaceholder')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          slotProps={{ htmlInput: { maxLength: JOB_FILTER_MAX_LENGTH } }}
          // At least 240 px: on a phone the buttons wrap under it rather than squeeze it.
          sx={{ flex: '1 1 240px', maxWidth: 480 }}
        />
        <Button startIcon={<RefreshIcon />} onClick={() => void refetch()}>
          {t('jobs.refresh')}
        </Button>
        <ColumnChooser chooser={layout.chooser} />
        <ExportMenu
          path="/api/LIMS/jobs/export"
          what={t('jobs.what')}
          params={{ filter: view.filter, sortColumn: view.sortColumn, sortOrder: view.sortOrder }}
          columns={shownColumns}
        />
      </Stack>
      <SavedViews grid="jobs" />
      {/* The first load and a failure show the shared states; later pages load under the
          grid's own overlay, with the last page still in view. */}
      <QueryState
        query={{ data: shown, error, isLoading, refetch }}
        what={t('jobs.what')}
        // Only the first page can say there is nothing: a page past the end can go back.
        isEmpty={(list) => list.jobs.length === 0 && view.page === 1}
        empty={view.filter ? t('jobs.noMatch') : t('jobs.none')}
      >
        {(list) => (
          <GridFrame apiRef={gridApi} label={t('jobs.title')} height={640}>
            <DataGrid
              apiRef={gridApi}
              aria-label={t('jobs.title')}
              rows={rows}
              {...layout.gridProps}
              columns={layout.columns}
              getRowId={(row) => row._id}
              getRowHeight={({ model }) => ((model as JobRow).detailOf ? 'auto' : null)}
              loading={isFetching}
              paginationMode="server"
              sortingMode="server"
              filterMode="server"
              disableColumnFilter
              rowCount={list.totalJobs}
              pageSizeOptions={[...JOB_PAGE_SIZES]}
              paginationModel={paginationModel}
              onPaginationModelChange={({ page, pageSize }) =>
                show(
                  pageSize !== view.perPage
                    ? withPageSize(view, pageSize)
                    : { ...view, page: page + 1 },
                )
              }
              sortingOrder={['asc', 'desc']}
              sortModel={sortModel}
              onSortModelChange={(model) => {
                const column = model[0]?.field as JobListQuery['sortColumn'] | undefined;
                if (column && JOB_SORT_COLUMNS.includes(column)) show(sortedBy(view, column));
              }}
              localeText={localeText}
              disableRowSelectionOnClick
              // The last page is one click away (of an estimate: the server answers the real last).
              slotProps={{
                basePagination: { material: { showFirstButton: true, showLastButton: true } },
              }}
            />
          </GridFrame>
        )}
      </QueryState>
    </>
  );
}

/** `/lims/jobs`: the job list; a user whose role may not read it is told so. */
export function JobsPage() {
  const t = useT();
  return (
    <Box>
      <PageHeader title={t('jobs.title')} />
      <PermissionGate verb="GET" path="/api/LIMS/jobs" what={t('jobs.gateWhat')}>
        <WithLastView grid="jobs">
          <JobList />
        </WithLastView>
      </PermissionGate>
    </Box>
  );
}
