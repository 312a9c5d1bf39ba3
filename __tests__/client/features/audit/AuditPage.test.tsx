import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { AuditEvent } from '@common/schemas/audit';
import { setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const event = (n: number, overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  _id: `e${n}`,
  at: new Date(Date.UTC(2026, 10, 24, 12, 0, n)).toISOString(),
  actor: { id: 'u1', name: 'ada' },
  action: 'book.create',
  resource: 'book',
  resourceId: `b${n}`,
  ip: '127.0.0.1',
  userAgent: 'Mozilla/5.0',
  summary: `Added the book "Book ${n}"`,
  ...overrides,
});

const network = setupNetwork(
  http.get('/api/audit', ({ request }) => {
    const params = new URL(request.url).searchParams;
    const failed = event(0, {
      actor: null,
      action: 'auth.login_failed',
      resource: 'auth',
      resourceId: null,
      summary: 'Failed sign-in as "ada"',
    });
    const events = params.get('action') === 'book.create' ? [event(1), event(2)] : [failed];
    return HttpResponse.json({ events, total: events.length, totalIsCapped: false });
  }),
  http.post('/api/auth/download-link', async ({ request }) =>
    HttpResponse.json({ url: `${((await request.json()) as { path: string }).path}&ticket=t` }),
  ),
);

const asAdmin = signedInAs('admin', ['admin']);
const auditCalls = () =>
  network.calls('GET /api/audit').map((request) => new URL(request.url).searchParams);

describe('/audit', () => {
  it('shows the events, filters them by action and who, and exports the same filter', async () => {
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.getAttribute('href')!);
    });
    renderApp('/audit', asAdmin);
    const grid = await screen.findByRole('grid', { name: 'Audit events' });
    expect(await within(grid).findByText('Failed sign-in as "ada"')).toBeInTheDocument();
    expect(within(grid).getByText('nobody signed in')).toBeInTheDocument();
    // When, as people read it, with the exact UTC moment on hover.
    const when = within(grid).getByTitle(/\(2026-11-24 12:00:00 UTC\)$/);
    expect(when).toHaveAttribute('dateTime', '2026-11-24T12:00:00.000Z');

    await userEvent.type(screen.getByLabelText('Who (username)'), 'ada');
    await userEvent.click(screen.getByRole('combobox', { name: 'Action' }));
    await userEvent.click(await screen.findByRole('option', { name: 'book.create' }));
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await within(grid).findByText('Added the book "Book 2"')).toBeInTheDocument();
    const last = auditCalls().at(-1)!;
    expect([last.get('actor'), last.get('action'), last.get('page')]).toEqual([
      'ada',
      'book.create',
      '1',
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const exported = new URL(clicked[0]!, 'http://app').searchParams;
    expect(Object.fromEntries(exported)).toEqual({
      actor: 'ada',
      action: 'book.create',
      format: 'csv',
      // The columns on screen, in their order (the browser's is hidden at first).
      columns: 'at,actorName,action,summary,ip',
      ticket: 't',
    });
    click.mockRestore();
  });

  it('sends the chosen days as whole local days, the last one included', async () => {
    renderApp('/audit', asAdmin);
    await screen.findByRole('grid', { name: 'Audit events' });
    await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
    await userEvent.type(screen.getByLabelText('To (included)'), '2026-11-02');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(auditCalls().at(-1)!.get('from')).not.toBeNull());
    const last = auditCalls().at(-1)!;
    expect(last.get('from')).toBe(new Date('2026-11-01T00:00').toISOString());
    expect(last.get('to')).toBe(new Date('2026-11-03T00:00').toISOString());
  });

  it('is in the navigation for an admin only, and tells others why not without asking', async () => {
    renderApp('/audit', signedInAs('contributor', ['contributor']));
    expect(
      await screen.findByText(/Your role does not allow reading the audit log/),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: /main/i });
    expect(within(nav).getByRole('link', { name: 'Routes' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Audit' })).toBeNull();
    expect(network.calls('GET /api/audit')).toHaveLength(0);
  });

  it('links the audit log from the navigation of an admin', async () => {
    // The books page starts loading its list; whether it asks before the click is timing.
    network.use(http.get('/api/books', () => HttpResponse.json([])));
    renderApp('/books', asAdmin);
    const nav = screen.getByRole('navigation', { name: /main/i });
    await userEvent.click(await within(nav).findByRole('link', { name: 'Audit' }));
    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeInTheDocument();
  });

  it('reads its filter, page and size from the URL, and shows them in the form', async () => {
    const { router } = renderApp(
      '/audit?actor=ada&action=book.create&from=2026-11-01&from2=x&resource=nope&page=2&perPage=50',
      asAdmin,
    );
    const grid = await screen.findByRole('grid', { name: 'Audit events' });
    await within(grid).findByText('Added the book "Book 2"');
    const [first] = auditCalls();
    expect(Object.fromEntries(first!)).toEqual({
      actor: 'ada',
      action: 'book.create',
      from: new Date('2026-11-01T00:00').toISOString(),
      page: '2',
      perPage: '50',
    });
    expect(screen.getByRole('textbox', { name: 'Who (username)' })).toHaveValue('ada');
    expect(screen.getByLabelText('From')).toHaveValue('2026-11-01');
    // Clear starts again from the whole log, at its first page.
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(router.state.location.search).toBe('?from2=x&perPage=50'));
    expect(Object.fromEntries(auditCalls().at(-1)!)).toEqual({ page: '1', perPage: '50' });
  });
});
