import { Alert, Box, Button, MenuItem, Stack, TextField } from '@mui/material';
import {
  DataGrid,
  type GridColDef,
  type GridPaginationModel,
  useGridApiRef,
} from '@mui/x-data-grid';
import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
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
import { useGridLayout } from '@/hooks/useGridLayout';
import { useReportedError } from '@/hooks/useReportedError';
import { WithLastView } from '@/components/WithLastView';
import { useListAuditEventsQuery } from './audit.api';
import { Moment } from '@/components/Moment';
import { type t as translate, useT } from '@/i18n/useT';

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

/** The log's columns, in the language in effect. */
const columnsOf = (t: typeof translate): GridColDef<AuditEvent>[] => [
  {
    field: 'at',
    headerName: t('audit.when'),
    width: 180,
    sortable: false,
    renderCell: ({ value }: { value?: string }) => value && <Moment iso={value} />,
  },
  {
    field: 'actor',
    headerName: t('audit.who'),
    width: 140,
    sortable: false,
    valueGetter: (actor: AuditEvent['actor']) => actor?.name ?? t('audit.nobody'),
  },
  { field: 'action', headerName: t('audit.action'), width: 170, sortable: false },
  {
    field: 'summary',
    headerName: t('audit.summary'),
    flex: 1,
    minWidth: 260,
    sortable: false,
    // Written by the server when it happened, in English: said so to screen readers.
    renderCell: ({ value }: { value?: string }) => <span lang="en">{value}</span>,
  },
  { field: 'ip', headerName: t('audit.ip'), width: 130, sortable: false },
  { field: 'userAgent', headerName: t('audit.userAgent'), width: 220, sortable: false },
];

/** The browser of each event is there to be shown, not shown at first. */
const HIDDEN_BY_DEFAULT = ['userAgent'];

/** The page sizes of the log. */
const AUDIT_PAGE_SIZES = [AUDIT_PAGE_SIZE, 50, 100];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The filter a URL holds, as the form shows it (`actor=ada&from=2026-11-24`): what is not
 * a filter (a date that is no day, an unknown resource) is dropped.
 */
const formOf = (params: URLSearchParams): FilterForm => {
  const day = (key: string) => (DAY.test(params.get(key) ?? '') ? params.get(key)! : '');
  return {
    actor: params.get('actor')?.trim() ?? '',
    action: params.get('action')?.trim() ?? '',
    resource: auditResourceSchema.safeParse(params.get('resource')).data ?? '',
    from: day('from'),
    to: day('to'),
  };
};

/** The page and its size a URL holds (`page` from 1, `perPage` one of the sizes). */
const pagingOf = (params: URLSearchParams): GridPaginationModel => {
  const page = Number(params.get('page'));
  const perPage = Number(params.get('perPage'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
    pageSize: AUDIT_PAGE_SIZES.includes(perPage) ? perPage : AUDIT_PAGE_SIZE,
  };
};

/** `params` with the filter of `form` (at the first page); an empty field is left out. */
function withFilter(params: URLSearchParams, form: FilterForm): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(form)) {
    if (value.trim()) next.set(key, value.trim());
    else next.delete(key);
  }
  next.delete('page');
  return next;
}

/**
 * The audit log, newest first: its filter, search, page and page size live in the URL (a
 * link, a reload or a saved view shows the same events); the form applies what is typed.
 */
function AuditLog() {
  const [params, setParams] = useSearchParams();
  const applied = useMemo(() => formOf(params), [params]);
  const appliedKey = JSON.stringify(applied);
  const [form, setForm] = useState(applied);
  // A filter from elsewhere (a saved view, Back) replaces what the form holds.
  const [formFor, setFormFor] = useState(appliedKey);
  if (formFor !== appliedKey) {
    setFormFor(appliedKey);
    setForm(applied);
  }
  const filter = useMemo(() => toFilter(applied), [applied]);
  const pageParam = params.get('page');
  const perPageParam = params.get('perPage');
  const paging = useMemo(
    () => pagingOf(new URLSearchParams({ page: pageParam ?? '', perPage: perPageParam ?? '' })),
    [pageParam, perPageParam],
  );
  const gridApi = useGridApiRef();
  const search = useQuickSearch();
  const t = useT();
  const columns = useMemo(() => columnsOf(t), [t]);
  const layout = useGridLayout(columns, { hiddenByDefault: HIDDEN_BY_DEFAULT });
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

  /** Another page, or another size (from the first page): a step Back returns from. */
  const showPage = ({ page, pageSize }: GridPaginationModel) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      const first = pageSize !== paging.pageSize || page === 0;
      if (first) next.delete('page');
      else next.set('page', String(page + 1));
      if (pageSize === AUDIT_PAGE_SIZE) next.delete('perPage');
      else next.set('perPage', String(pageSize));
      return next;
    });

  const edit = (field: keyof FilterForm) => (event: { target: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  function apply(event: FormEvent) {
    event.preventDefault();
    setParams((current) => withFilter(current, form));
  }

  function clear() {
    setForm(NO_FILTER);
    setParams((current) => withFilter(current, NO_FILTER));
  }

  const slotProps = useMemo(() => ({ pagination: { labelRowsPerPage: t('audit.perPage') } }), [t]);

  return (
    <Stack spacing={2}>
      <Box
        component="form"
        role="search"
        aria-label={t('audit.filterForm')}
        onSubmit={apply}
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(5, 1fr)' },
        }}
      >
        <TextField label={t('audit.whoField')} value={form.actor} onChange={edit('actor')} />
        <TextField select label={t('audit.action')} value={form.action} onChange={edit('action')}>
          <MenuItem value="">{t('audit.anyAction')}</MenuItem>
          {AUDIT_ACTIONS.map((action) => (
            <MenuItem key={action} value={action}>
              {action}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label={t('audit.resource')}
          value={form.resource}
          onChange={edit('resource')}
        >
          <MenuItem value="">{t('audit.anyResource')}</MenuItem>
          {auditResourceSchema.options.map((resource) => (
            <MenuItem key={resource} value={resource}>
              {resource}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="date"
          label={t('audit.from')}
          value={form.from}
          onChange={edit('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          type="date"
          label={t('audit.to')}
          value={form.to}
          onChange={edit('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Stack direction="row" spacing={1} sx={{ gridColumn: '1 / -1', flexWrap: 'wrap' }}>
          <Button type="submit" variant="contained">
            {t('audit.apply')}
          </Button>
          <Button onClick={clear}>{t('audit.clear')}</Button>
        </Stack>
      </Box>
      <ListToolbar
        search={{
          value: search.typed,
          onChange: search.type,
          placeholder: t('audit.search'),
        }}
        grid="audit"
        chooser={layout.chooser}
      >
        <ExportMenu
          path="/api/audit/export"
          what={t('audit.what')}
          params={{ ...filter, q: search.q }}
          columns={shownColumns}
        />
      </ListToolbar>
      <QueryState query={query} what={t('audit.what')}>
        {(loaded) => (
          <>
            {loaded.totalIsCapped && (
              <Alert severity="info">{t('audit.capped', { limit: AUDIT_COUNT_LIMIT })}</Alert>
            )}
            <GridFrame apiRef={gridApi} label={t('audit.grid')} height={600}>
              <DataGrid
                apiRef={gridApi}
                aria-label={t('audit.grid')}
                rows={loaded.events}
                getRowId={(event) => event._id}
                {...layout.gridProps}
                columns={layout.columns}
                paginationMode="server"
                rowCount={loaded.total}
                pageSizeOptions={AUDIT_PAGE_SIZES}
                paginationModel={paging}
                onPaginationModelChange={showPage}
                loading={query.isFetching}
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
  const t = useT();
  return (
    <Box>
      <PageHeader title={t('audit.title')} />
      <PermissionGate verb="GET" path="/api/audit" what={t('audit.gateWhat')}>
        <WithLastView grid="audit">
          <AuditLog />
        </WithLastView>
      </PermissionGate>
    </Box>
  );
}
