import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, IconButton, Stack, TextField } from '@mui/material';
import { DataGrid, type GridColDef, type GridSortModel } from '@mui/x-data-grid';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { JOB_PAGE_SIZES } from '@common/constants';
import { messages } from '@common/messages';
import { JOB_SORT_COLUMNS, type JobListQuery, type JobSummary } from '@common/schemas/jobs';
import { PageHeader } from '@/components/PageHeader';
import { useReportedError } from '@/hooks/useReportedError';
import { JobDetails } from './JobDetails';
import { paramsFromView, sortedBy, viewFromParams, withFilter, withPageSize } from './jobListState';
import { useListJobsQuery } from './jobs.api';

/** A grid row: a job, or the details row spanning every column under an expanded job. */
type JobRow = (JobSummary & { detailOf?: undefined }) | { _id: string; detailOf: JobSummary };

const FILTER_DELAY_MS = 300;

/** `/lims/jobs`: the job list, paged, sorted and filtered on the server, with expandable details. */
export function JobsPage() {
  const [params, setParams] = useSearchParams();
  const view = viewFromParams(params);
  const show = (next: JobListQuery) => setParams(paramsFromView(next), { replace: true });
  const { data, error, isFetching, refetch } = useListJobsQuery(view);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [typed, setTyped] = useState(view.filter);

  useReportedError(messages.jobs.fetchContext, error);

  // The filter goes to the server once typing pauses; a new filter starts at page 1.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (typed !== view.filter)
        setParams(paramsFromView(withFilter(view, typed)), { replace: true });
    }, FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, view, setParams]);

  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const rows = useMemo<JobRow[]>(
    () =>
      (data?.jobs ?? []).flatMap((job): JobRow[] =>
        expanded.has(job._id) ? [job, { _id: `${job._id}-details`, detailOf: job }] : [job],
      ),
    [data, expanded],
  );

  const columns: GridColDef<JobRow>[] = [
    {
      field: 'expand',
      headerName: '',
      width: 56,
      sortable: false,
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

  const sortModel: GridSortModel = [{ field: view.sortColumn, sort: view.sortOrder }];
  const estimate = data?.totalIsEstimate ?? false;

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
          rowCount={data?.totalJobs ?? 0}
          pageSizeOptions={[...JOB_PAGE_SIZES]}
          paginationModel={{ page: view.page - 1, pageSize: view.perPage }}
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
            paginationDisplayedRows: ({ from, to, count }) =>
              `${from}–${to} of ${estimate ? 'about ' : ''}${count.toLocaleString()}`,
          }}
          disableRowSelectionOnClick
        />
      </Box>
    </Box>
  );
}
