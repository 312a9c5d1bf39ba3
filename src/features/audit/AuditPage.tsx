import { Alert, Box, Button, MenuItem, Stack, TextField } from '@mui/material';
import {
  DataGrid,
  type GridColDef,
  type GridPaginationModel,
  useGridApiRef,
} from '@mui/x-data-grid';
import { type FormEvent, useMemo, useState } from 'react';
import { AUDIT_COUNT_LIMIT, AUDIT_PAGE_SIZE } from '@common/constants';
import { messages } from '@common/messages';
import {
  AUDIT_ACTIONS,
  type AuditEvent,
  type AuditFilter,
  auditResourceSchema,
} from '@common/schemas/audit';
import { PermissionGate } from '@/auth/PermissionGate';
import { ExportMenu, shownColumnsOf } from '@/components/ExportMenu';
import { ListToolbar } from '@/components/ListToolbar';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { GridFrame } from '@/components/GridFrame';
import { useQuickSearch } from '@/hooks/useQuickSearch';
import { useReportedError } from '@/hooks/useReportedError';
import { useListAuditEventsQuery } from './audit.api';

/** The filter form's fields: texts as typed, dates as the date inputs give them. */
interface FilterForm {
  actor: string;
  action: string;
  resource: string;
  from: string;
  to: string;
}

const NO_FILTER: FilterForm = { actor: '', action: '', resource: '', from: '', to: '' };

/** The start of a local day (`2026-11-24`) as an instant; `after`: of the day after. */
function dayStart(day: string, after = false): string {
  const start = new Date(`${day}T00:00`);
  if (after) start.setDate(start.getDate() + 1);
  return start.toISOString();
}

/** What the form asks the server for: the days chosen are whole days, `to` included. */
const toFilter = (form: FilterForm): AuditFilter => ({
  actor: form.actor.trim() || undefined,
  action: form.action || undefined,
  resource: auditResourceSchema.safeParse(form.resource).data,
  from: form.from ? dayStart(form.from) : undefined,
  to: form.to ? dayStart(form.to, true) : undefined,
});

const columns: GridColDef<AuditEvent>[] = [
  {
    field: 'at',
    headerName: 'When',
    width: 180,
    sortable: false,
    valueFormatter: (value: string) => new Date(value).toLocaleString(),
  },
  {
    field: 'actor',
    headerName: 'Who',
    width: 140,
    sortable: false,
    valueGetter: (actor: AuditEvent['actor']) => actor?.name ?? 'nobody signed in',
  },
  { field: 'action', headerName: 'Action', width: 170, sortable: false },
  { field: 'summary', headerName: 'What', flex: 1, minWidth: 260, sortable: false },
  { field: 'ip', headerName: 'Address', width: 130, sortable: false },
  { field: 'userAgent', headerName: 'Browser', width: 220, sortable: false },
];

function AuditLog() {
  const [form, setForm] = useState(NO_FILTER);
  const [filter, setFilter] = useState<AuditFilter>({});
  const gridApi = useGridApiRef();
  const [paging, setPaging] = useState<GridPaginationModel>({
    page: 0,
    pageSize: AUDIT_PAGE_SIZE,
  });
  const search = useQuickSearch();
  // Another search starts at the first page.
  const [searched, setSearched] = useState(search.q);
  if (searched !== search.q) {
    setSearched(search.q);
    setPaging((current) => ({ ...current, page: 0 }));
  }
  const query = useListAuditEventsQuery({
    ...filter,
    q: search.q || undefined,
    page: paging.page + 1,
    perPage: paging.pageSize,
  });
  const shownColumns = useMemo(
    () => shownColumnsOf(gridApi, (field) => (field === 'actor' ? 'actorName' : field)),
    [gridApi],
  );
  useReportedError(messages.audit.fetchContext, query.error);

  const edit = (field: keyof FilterForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilter(toFilter(form));
    setPaging((current) => ({ ...current, page: 0 }));
  }

  function clear() {
    setForm(NO_FILTER);
    setFilter({});
    setPaging((current) => ({ ...current, page: 0 }));
  }

  const slotProps = useMemo(() => ({ pagination: { labelRowsPerPage: 'Events per page' } }), []);

  return (
    <Stack spacing={2}>
      <Box
        component="form"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={apply}
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(5, 1fr)' },
        }}
      >
        <TextField label="Who (username)" value={form.actor} onChange={edit('actor')} />
        <TextField select label="Action" value={form.action} onChange={edit('action')}>
          <MenuItem value="">Any action</MenuItem>
          {AUDIT_ACTIONS.map((action) => (
            <MenuItem key={action} value={action}>
              {action}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label="Resource" value={form.resource} onChange={edit('resource')}>
          <MenuItem value="">Any resource</MenuItem>
          {auditResourceSchema.options.map((resource) => (
            <MenuItem key={resource} value={resource}>
              {resource}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="date"
          label="From"
          value={form.from}
          onChange={edit('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          label="To (included)"
          value={form.to}
          onChange={edit('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Stack direction="row" spacing={1} sx={{ gridColumn: '1 / -1', flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained">
            Apply filters
          </Button>
          <Button onClick={clear}>Clear</Button>
        </Stack>
      </Box>
      <ListToolbar
        search={{
          value: search.typed,
          onChange: search.type,
          placeholder: 'Words in who, action, what, address or browser',
        }}
      >
        <ExportMenu
          path="/api/audit/export"
          what="audit log"
          params={{ ...filter, q: search.q }}
          columns={shownColumns}
        />
      </ListToolbar>
      <QueryState query={query} what="audit log">
        {(loaded) => (
          <>
            {loaded.totalIsCapped && (
              <Alert severity="info">
                More than {AUDIT_COUNT_LIMIT.toLocaleString()} events match: the pages reach the
                newest {AUDIT_COUNT_LIMIT.toLocaleString()}. Narrow the filter, or export, to see
                older ones.
              </Alert>
            )}
            <GridFrame apiRef={gridApi} label="Audit events" height={600}>
              <DataGrid
                apiRef={gridApi}
                aria-label="Audit events"
                rows={loaded.events}
                getRowId={(event) => event._id}
                columns={columns}
                paginationMode="server"
                rowCount={loaded.total}
                pageSizeOptions={[AUDIT_PAGE_SIZE, 50, 100]}
                paginationModel={paging}
                onPaginationModelChange={setPaging}
                loading={query.isFetching}
                initialState={{ columns: { columnVisibilityModel: { userAgent: false } } }}
                slotProps={slotProps}
                disableColumnFilter
                disableRowSelectionOnClick
              />
            </GridFrame>
          </>
        )}
      </QueryState>
    </Stack>
  );
}

/** `/audit`: who did what, for those whose role may read the audit log (admins by default). */
export function AuditPage() {
  return (
    <Box>
      <PageHeader title="Audit log" />
      <PermissionGate verb="GET" path="/api/audit" what="reading the audit log">
        <AuditLog />
      </PermissionGate>
    </Box>
  );
}
