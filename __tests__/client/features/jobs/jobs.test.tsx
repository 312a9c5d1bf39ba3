import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { JOB_FILTER_MAX_LENGTH, JOB_MAX_PAGE } from '@common/constants';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import { FILTER_DELAY_MS } from '@/features/jobs/JobsPage';
import {
  paramsFromView,
  sortedBy,
  viewFromParams,
  withFilter,
  withPageSize,
} from '@/features/jobs/jobListState';
import { apiError, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

/** The list as the server answers it: the page asked for, unless the test says otherwise. */
const listed = (
  request: Request,
  body: { jobs: unknown[]; totalJobs: number; totalIsEstimate: boolean; page?: number },
) => HttpResponse.json({ page: Number(new URL(request.url).searchParams.get('page')), ...body });

const defaults = viewFromParams(new URLSearchParams());

describe('the job list state rules', () => {
  it('defaults to page 1 of 50, by friendly number ascending, and ignores invalid values', () => {
    expect(defaults).toEqual({
      filter: '',
      page: 1,
      perPage: 50,
      sortColumn: 'friendlyNumber',
      sortOrder: 'asc',
    });
    expect(
      viewFromParams(new URLSearchParams('page=0&perPage=30&sortColumn=samples&sortOrder=up')),
    ).toEqual(defaults);
    // A link to a page past the highest the server takes asks for that page (the last).
    expect(viewFromParams(new URLSearchParams('page=1000000001')).page).toBe(JOB_MAX_PAGE);
  });

  it('round-trips through the URL, leaving defaults out', () => {
    const view = {
      filter: 'lead',
      page: 3,
      perPage: 20,
      sortColumn: 'status' as const,
      sortOrder: 'desc' as const,
    };
    expect(viewFromParams(paramsFromView(view))).toEqual(view);
    expect(paramsFromView(defaults).toString()).toBe('');
  });

  it('toggles asc/desc on the same column and starts a new column asc', () => {
    const byStatus = sortedBy(defaults, 'status');
    expect(byStatus).toMatchObject({ sortColumn: 'status', sortOrder: 'asc' });
    expect(sortedBy(byStatus, 'status').sortOrder).toBe('desc');
    expect(sortedBy(sortedBy(byStatus, 'status'), 'status').sortOrder).toBe('asc');
    expect(sortedBy(sortedBy(byStatus, 'status'), 'description')).toMatchObject({
      sortColumn: 'description',
      sortOrder: 'asc',
    });
    expect(sortedBy({ ...defaults, page: 4 }, 'status').page).toBe(1);
  });

  it('goes back to page 1 when the page size or the filter changes', () => {
    const onPage4 = { ...defaults, page: 4 };
    expect(withPageSize(onPage4, 100)).toMatchObject({ perPage: 100, page: 1 });
    expect(withPageSize(onPage4, 50)).toBe(onPage4);
    expect(withFilter(onPage4, 'fail')).toMatchObject({ filter: 'fail', page: 1 });
  });

  it('sends the filter without spaces around it, and no longer than the server takes', () => {
    const onPage4 = { ...defaults, page: 4, filter: 'fail' };
    expect(withFilter(onPage4, '  fail ')).toBe(onPage4);
    expect(withFilter(onPage4, ' in progress ').filter).toBe('in progress');
    expect(viewFromParams(new URLSearchParams({ filter: ` ${'x'.repeat(300)}` })).filter).toBe(
      'x'.repeat(JOB_FILTER_MAX_LENGTH),
    );
  });
});

describe('/lims/jobs', () => {
  const job = (n: number) => ({
    _id: `job-${n}`,
    friendlyNumber: `J-000000${n}`,
    status: 'Completed',
    conclusion: 'Pass',
    description: `Job number ${n}`,
  });
  const network = setupNetwork(
    http.get('/api/LIMS/jobs', ({ request }) =>
      listed(request, { jobs: [job(1), job(2)], totalJobs: 123456, totalIsEstimate: true }),
    ),
    http.get('/api/LIMS/jobs/job-1', () =>
      HttpResponse.json({
        ...job(1),
        samples: [
          {
            friendlyNumber: 'J-0000001-S1',
            tasks: [
              {
                name: 'Heavy metals',
                results: [{ analyte: 'Lead', formatted: '3.20 mg/kg', conclusion: 'Pass' }],
              },
            ],
          },
        ],
      }),
    ),
    http.get('/api/LIMS/jobs/job-2', () => HttpResponse.json({ ...job(2), samples: [] })),
  );
  const queries = () =>
    network.calls('GET /api/LIMS/jobs').map((r) => Object.fromEntries(new URL(r.url).searchParams));
  // A test that runs the page's timers by hand and fails on the way leaves none to the next.
  afterEach(() => jest.useRealTimers());

  it('asks for the default view and shows the estimated total as "about"', async () => {
    renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    const grid = await screen.findByRole('grid', { name: 'Jobs' });
    expect(await within(grid).findByText('J-0000001')).toBeInTheDocument();
    expect(queries()[0]).toEqual({
      filter: '',
      page: '1',
      perPage: '50',
      sortColumn: 'friendlyNumber',
      sortOrder: 'asc',
    });
    expect(screen.getByText(/of about 123,456/)).toBeInTheDocument();
  });

  it('expands a job to show its samples, tasks and results, and collapses it', async () => {
    renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    await userEvent.click(await screen.findByRole('button', { name: 'Expand J-0000001' }));
    const details = await screen.findByRole('region', { name: 'Details of J-0000001' });
    expect(details).toHaveTextContent('Sample J-0000001-S1');
    expect(
      within(details).getByRole('table', { name: 'Results of J-0000001-S1' }),
    ).toHaveTextContent('Heavy metalsLead3.20 mg/kgPass');
    await userEvent.click(screen.getByRole('button', { name: 'Collapse J-0000001' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Details of J-0000001' })).toBeNull(),
    );
  });

  it("shows 'No job data available' for a job without samples", async () => {
    renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    await userEvent.click(await screen.findByRole('button', { name: 'Expand J-0000002' }));
    expect(await screen.findByText(t('jobs.noData'))).toBeInTheDocument();
  });

  it('reads the view from the URL and sends a typed filter, from page 1', async () => {
    const { router } = renderApp(
      '/lims/jobs?page=3&sortColumn=status&sortOrder=desc',
      signedInAs('viewer', ['viewer']),
    );
    const grid = await screen.findByRole('grid', { name: 'Jobs' });
    expect(await within(grid).findByText('J-0000001')).toBeInTheDocument();
    // The grid once took each render's sort model for a new sort and went back to page 1,
    // on timers of its own: render the page again (a job expands) and run every timer set.
    jest.useFakeTimers();
    fireEvent.click(within(grid).getByRole('button', { name: 'Expand J-0000001' }));
    await act(() => jest.runAllTimersAsync());
    jest.useRealTimers();
    expect(router.state.location.search).toBe('?page=3&sortColumn=status&sortOrder=desc');
    expect(queries().map((q) => q.page)).toEqual(['3']);
    expect(queries()[0]).toMatchObject({ page: '3', sortColumn: 'status', sortOrder: 'desc' });

    await userEvent.type(screen.getByLabelText('Filter'), ' lead ');
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ filter: 'lead', page: '1' }));
    expect(router.state.location.search).toBe('?filter=lead&sortColumn=status&sortOrder=desc');
    expect(screen.getByLabelText('Filter')).toHaveAttribute(
      'maxLength',
      String(JOB_FILTER_MAX_LENGTH),
    );
  });

  it('makes each page or sort the user picks a step of the history, but not each filter', async () => {
    network.use(
      http.get('/api/LIMS/jobs', ({ request }) =>
        listed(request, { jobs: [job(1), job(2)], totalJobs: 500, totalIsEstimate: false }),
      ),
    );
    const { router } = renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    await userEvent.click(await screen.findByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await userEvent.click(screen.getByRole('columnheader', { name: 'Status' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sortColumn=status'));
    await userEvent.type(screen.getByLabelText('Filter'), 'lead');
    await waitFor(() =>
      expect(router.state.location.search).toBe('?filter=lead&sortColumn=status'),
    );
    // The router's state moves first; the page has shown the filter once it asks for it.
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ filter: 'lead' }));
    // The filter typed before does not come back once typing would have settled: the
    // page's filter timer, set as Back shows each view, runs past its delay.
    jest.useFakeTimers();
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await act(() => jest.advanceTimersByTimeAsync(FILTER_DELAY_MS));
    jest.useRealTimers();
    expect(router.state.location.search).toBe('');
  });

  it('goes to the page the server answered when the one asked for was past the end', async () => {
    network.use(
      http.get('/api/LIMS/jobs', ({ request }) =>
        listed(request, { jobs: [job(2)], totalJobs: 51, totalIsEstimate: false, page: 2 }),
      ),
    );
    const { router } = renderApp('/lims/jobs?page=9', signedInAs('viewer', ['viewer']));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(await screen.findByText('51–51 of 51')).toBeInTheDocument();
    expect(queries().map((query) => query.page)).toEqual(['9', '2']);
  });

  it('puts in the URL the view it shows, without the values it could not use', async () => {
    const { router } = renderApp(
      '/lims/jobs?perPage=33&page=-1&sortColumn=bogus&sortOrder=up&filter=%20lead%20',
      signedInAs('viewer', ['viewer']),
    );
    await waitFor(() => expect(router.state.location.search).toBe('?filter=lead'));
    expect(queries()[0]).toMatchObject({ filter: 'lead', page: '1', perPage: '50' });
  });

  it('keeps a letter typed as the filter typed before it goes into the URL', async () => {
    // A slow typist's next key lands after the filter timer has put `wa` in the URL and
    // before the page shows that URL: the page took `wa` for a filter from elsewhere and
    // put it back in the box, losing the `t` (`water` became `wter`).
    const { router } = renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    const box = await screen.findByLabelText('Filter');
    jest.useFakeTimers();
    fireEvent.change(box, { target: { value: 'wa' } });
    // One act: the timer's URL and the key are rendered together, as in the browser.
    // eslint-disable-next-line testing-library/no-unnecessary-act
    await act(async () => {
      await jest.advanceTimersByTimeAsync(FILTER_DELAY_MS);
      fireEvent.change(box, { target: { value: 'wat' } });
    });
    expect(box).toHaveValue('wat');
    await act(() => jest.advanceTimersByTimeAsync(FILTER_DELAY_MS));
    jest.useRealTimers();
    expect(router.state.location.search).toBe('?filter=wat');
    expect(box).toHaveValue('wat');
  });

  it('shows the filter of a link followed from the page itself, not the one typed before', async () => {
    const { router } = renderApp('/lims/jobs?filter=pass', signedInAs('viewer', ['viewer']));
    expect(await screen.findByLabelText('Filter')).toHaveValue('pass');
    jest.useFakeTimers();
    await act(() => router.navigate('/lims/jobs'));
    await waitFor(() => expect(screen.getByLabelText('Filter')).toHaveValue(''));
    // Once typing would have settled (the page's filter timer has run), the filter has not
    // come back.
    await act(() => jest.advanceTimersByTimeAsync(FILTER_DELAY_MS));
    jest.useRealTimers();
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(queries().at(-1)).toMatchObject({ filter: '' }));
  });

  it("logs 'Error fetching jobs:' when the list fails, says so instead of another view's rows, and Retry asks again", async () => {
    let failing = true;
    network.use(
      http.get('/api/LIMS/jobs', ({ request }) =>
        failing && new URL(request.url).searchParams.get('filter')
          ? apiError(500, 'INTERNAL', 'x')
          : listed(request, { jobs: [job(1), job(2)], totalJobs: 2, totalIsEstimate: false }),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    const grid = await screen.findByRole('grid', { name: 'Jobs' });
    expect(await within(grid).findByText('J-0000001')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Filter'), 'zzz');
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(messages.jobs.fetchContext, expect.anything()),
    );
    expect(await screen.findByText(t('common.loadFailed', { what: 'jobs' }))).toBeInTheDocument();
    expect(screen.queryByText('J-0000001')).toBeNull();

    failing = false;
    const asked = queries().filter((q) => q.filter === 'zzz').length;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const again = await screen.findByRole('grid', { name: 'Jobs' });
    expect(await within(again).findByText('J-0000001')).toBeInTheDocument();
    expect(queries().filter((q) => q.filter === 'zzz')).toHaveLength(asked + 1);
    expect(screen.queryByText(t('common.loadFailed', { what: 'jobs' }))).toBeNull();
    consoleError.mockRestore();
  });

  it('shows a progress bar while the first page loads', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    network.use(
      http.get('/api/LIMS/jobs', async ({ request }) => {
        await answered;
        return listed(request, { jobs: [job(1)], totalJobs: 1, totalIsEstimate: false });
      }),
    );
    renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    expect(await screen.findByRole('progressbar', { name: 'Loading jobs' })).toBeInTheDocument();
    answer();
    const grid = await screen.findByRole('grid', { name: 'Jobs' });
    expect(await within(grid).findByText('J-0000001')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading jobs' })).toBeNull();
  });

  it("says 'No jobs yet' when there is no job, and offers no action", async () => {
    network.use(
      http.get('/api/LIMS/jobs', ({ request }) =>
        listed(request, { jobs: [], totalJobs: 0, totalIsEstimate: false }),
      ),
    );
    renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('No jobs yet');
    expect(within(empty).queryByRole('link')).toBeNull();
    expect(screen.queryByRole('grid', { name: 'Jobs' })).toBeNull();
  });

  it("says 'No jobs match this filter' when the filter finds none", async () => {
    network.use(
      http.get('/api/LIMS/jobs', ({ request }) =>
        listed(request, { jobs: [], totalJobs: 0, totalIsEstimate: false }),
      ),
    );
    renderApp('/lims/jobs?filter=zzz', signedInAs('viewer', ['viewer']));
    expect(await screen.findByRole('status')).toHaveTextContent('No jobs match this filter');
    expect(screen.getByLabelText('Filter')).toHaveValue('zzz');
  });

  it("says when a job's details could not be loaded, and Retry loads them", async () => {
    network.use(http.get('/api/LIMS/jobs/job-1', () => apiError(500, 'INTERNAL'), { once: true }));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/lims/jobs', signedInAs('viewer', ['viewer']));
    await userEvent.click(await screen.findByRole('button', { name: 'Expand J-0000001' }));
    expect(
      await screen.findByText(t('common.loadFailed', { what: 'details of J-0000001' })),
    ).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.jobs.detailsContext, expect.anything());
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('region', { name: 'Details of J-0000001' })).toHaveTextContent(
      'Sample J-0000001-S1',
    );
    consoleError.mockRestore();
  });
});

describe('what each role sees on /lims/jobs', () => {
  const network = setupNetwork(
    http.get('/api/LIMS/jobs', ({ request }) =>
      listed(request, {
        jobs: [
          {
            _id: 'job-1',
            friendlyNumber: 'J-0000001',
            status: 'Completed',
            conclusion: 'Pass',
            description: 'Job number 1',
          },
        ],
        totalJobs: 1,
        totalIsEstimate: false,
      }),
    ),
  );

  it.each(['admin', 'contributor', 'viewer'])(
    '%s sees the jobs, Refresh, and a way to open each job',
    async (role) => {
      renderApp('/lims/jobs', signedInAs(role, [role]));
      const grid = await screen.findByRole('grid', { name: 'Jobs' });
      expect(await within(grid).findByText('J-0000001')).toBeInTheDocument();
      expect(within(grid).getByRole('button', { name: 'Expand J-0000001' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
      expect(screen.queryByText(/Your role does not allow/)).toBeNull();
    },
  );

  it('a user with no role is told to ask for one, and no jobs are asked for', async () => {
    renderApp('/lims/jobs', signedInAs('newcomer', []));
    expect(await screen.findByText(t('common.needsRole'))).toBeInTheDocument();
    // The permissions have come: the list would have been asked for by now.
    expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
    expect(network.calls('GET /api/LIMS/jobs')).toHaveLength(0);
    expect(screen.queryByRole('grid', { name: 'Jobs' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
    expect(screen.queryByLabelText('Filter')).toBeNull();
  });

  it("a role that may read the list but not a job's details sees no way to open a job", async () => {
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['auditor'],
          allowed: [{ routeVerb: 'GET', routePath: '/api/LIMS/jobs' }],
        }),
      ),
    );
    renderApp('/lims/jobs', signedInAs('auditor', ['auditor']));
    const grid = await screen.findByRole('grid', { name: 'Jobs' });
    expect(await within(grid).findByText('J-0000001')).toBeInTheDocument();
    expect(within(grid).queryByRole('button', { name: /Expand/ })).toBeNull();
  });
});
