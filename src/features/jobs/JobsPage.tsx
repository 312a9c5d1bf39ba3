import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, IconButton, Stack, TextField } from '@mui/material';
import { DataGrid, type GridColDef, type GridSortModel } from '@mui/x-data-grid';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { JOB_FILTER_MAX_LENGTH, JOB_PAGE_SIZES } from '@common/constants';
import { messages } from '@common/messages';
import { JOB_SORT_COLUMNS, type JobListQuery, type JobSummary } from '@common/schemas/jobs';
import { PageHeader } from '@/components/PageHeader';
import { useReportedError } from '@/hooks/useReportedError';
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

/** A grid row: a job, or the details row spanning every column under an expanded job. */
type JobRow = (JobSummary & { detailOf?: undefined }) | { _id: string; detailOf: JobSummary };

const FILTER_DELAY_MS = 300;

/** `/lims/jobs`: the job list, paged, sorted and filtered on the server, with expandable details. */
export function JobsPage() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewFromParams(params), [params]);
  // A page, size or sort the user picks is a step Back returns from; typing is not.
  const show = (next: JobListQuery) => setParams(paramsFromView(next));
  const { data, error, isFetching, refetch } = useListJobsQuery(view);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [typed, setTyped] = useState(view.filter);
  // A filter that came from elsewhere (a link, the menu) replaces what was typed.
  const [typedFor, setTypedFor] = useState(view.filter);
  if (typedFor !== view.filter) {
    setTypedFor(view.filter);
    if (cleanFilter(typed) !== view.filter) setTyped(view.filter);
  }

  useReportedError(messages.jobs.fetchContext, error);

  // The URL shows the view as it is read: values it could not use are not left in it.
  const canonical = paramsFromView(view).toString();
  useEffect(() => {
    if (params.toString() !== canonical) setParams(canonical, { replace: true });
  }, [params, canonical, setParams]);

  // The filter goes to the server once typing pauses; a new filter starts at page 1.
  useEffect(() => {
    const timer = setTimeout(() => {
      const next = withFilter(view, typed);
      if (next !== view) setParams(paramsFromView(next), { replace: true });
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, view, setParams]);

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  // While a page loads the last one stays in view; after a failure, none does.
  const shown = error ? undefined : data;
  const rows = useMemo<JobRow[]>(
    () =>
      (shown?.jobs ?? []).flatMap((job): JobRow[] =>
        expanded.has(job._id) ? [job, { _id: `${job._id}-details`, detailOf: job }] : [job],
      ),
    [shown, expanded],
  );

  const columns: GridColDef<JobRow>[] = [
    {
      field: 'expand',
      headerName: '',
      width: 56,
      sortable: false,
      disableColumnMenu: true,
      colSpan: (_value, row) => (row.detailOf ? 5 : 1),
      renderCell: ({ row }) => {
        if (row.detailOf)
          return <JobDetails id={row.detailOf._id} friendlyNumber={row.detailOf.friendlyNumber} />;
        const open = expanded.has(row._id);
        return (
          <IconButton
            size="small"
            aria-expanded={open}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${row.friendlyNumber}`}
            onClick={() => toggle(row._id)}
            // Space and Enter belong to the button; the grid would scroll or move on them.
            onKeyDown={(event) => {
              if (event.key === ' ' || event.key === 'Enter') event.stopPropagation();
            }}
          >
            {open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          </IconButton>
        );
      },
    },
    { field: 'friendlyNumber', headerName: 'Job', width: 130 },
    { field: 'status', headerName: 'Status', width: 130 },
    { field: 'conclusion', headerName: 'Conclusion', width: 190 },
    { field: 'description', headerName: 'Description', flex: 1, minWidth: 240 },
  ];

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
  const estimate = shown?.totalIsEstimate ?? false;

  return (
    <Box>
      <PageHeader title="Jobs">
        <Button startIcon={<RefreshIcon />} onClick={() => void refetch()}>
          Refresh
        </Button>
      </PageHeader>
      <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
        <TextField
          label="Filter"
          placeholder="Keyword: number, status, conclusion or description"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          slotProps={{ htmlInput: { maxLength: JOB_FILTER_MAX_LENGTH } }}
          sx={{ flex: 1, maxWidth: 480 }}
        />
      </Stack>
      <Box sx={{ height: 640 }}>
        <DataGrid
          aria-label="Jobs"
          rows={rows}
          columns={columns}
          getRowId={(row) => row._id}
          getRowHeight={({ model }) => ((model as JobRow).detailOf ? 'auto' : null)}
          loading={isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          disableColumnFilter
          rowCount={shown?.totalJobs ?? 0}
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
          localeText={{
            noRowsLabel: error ? messages.jobs.listFailed : 'No jobs',
            paginationDisplayedRows: ({ from, to, count }) =>
              `${from}–${to} of ${estimate ? 'about ' : ''}${count.toLocaleString()}`,
          }}
          disableRowSelectionOnClick
          // The grid hides the page-size choice on narrow screens; phones need it too.
          sx={{
            '& .MuiDataGrid-footerContainer .MuiTablePagination-input': { display: 'inline-flex' },
          }}
        />
      </Box>
    </Box>
  );
}
