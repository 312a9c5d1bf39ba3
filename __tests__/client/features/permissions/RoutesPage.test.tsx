import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import type { RoutePermission } from '@common/schemas/permissions';
import { apiError, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const routes: RoutePermission[] = [
  {
    _id: 'r1',
    _version: 1,
    routeEntity: 'books',
    routeVerb: 'GET',
    routePath: '/api/books',
    allowedRoles: ['admin', 'viewer'],
  },
  {
    _id: 'r2',
    _version: 1,
    routeEntity: 'books',
    routeVerb: 'DELETE',
    routePath: '/api/books/:id',
    allowedRoles: ['admin'],
  },
  {
    _id: 'r3',
    _version: 1,
    routeEntity: 'routes',
    routeVerb: 'GET',
    routePath: '/api/routes',
    allowedRoles: ['admin'],
  },
];
const roles = ['admin', 'contributor', 'viewer'].map((name) => ({ _id: name, name, _version: 1 }));

describe('/routes', () => {
  const network = setupNetwork(
    http.get('/api/routes', () => HttpResponse.json(routes)),
    http.get('/api/roles', () => HttpResponse.json(roles)),
    http.put('/api/routes/r2', async ({ request }) =>
      HttpResponse.json({ ...routes[1], ...((await request.json()) as object) }),
    ),
  );

  it('groups the routes by entity, with their allowed roles', async () => {
    renderApp('/routes', signedInAs('admin', ['admin']));
    const books = await screen.findByRole('table', { name: 'books' });
    expect(within(books).getAllByRole('row')).toHaveLength(3);
    expect(
      within(screen.getByRole('group', { name: 'Roles allowed on GET /api/books' })).getAllByText(
        /admin|viewer/,
      ),
    ).toHaveLength(2);
    expect(screen.getByRole('table', { name: 'routes' })).toBeInTheDocument();
  });

  it('toggles roles as badges in edit mode and saves them', async () => {
    renderApp('/routes', signedInAs('admin', ['admin']));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit DELETE /api/books/:id' }),
    );
    const group = screen.getByRole('group', { name: 'Roles allowed on DELETE /api/books/:id' });
    const contributor = within(group).getByRole('button', { name: 'contributor' });
    expect(contributor).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(contributor);
    expect(contributor).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Save DELETE /api/books/:id' }));

    await waitFor(() => expect(network.calls('PUT /api/routes/r2')).toHaveLength(1));
    expect(await network.calls('PUT /api/routes/r2')[0]!.json()).toEqual({
      allowedRoles: ['admin', 'contributor'],
      _version: 1,
    });
    expect(
      await screen.findByRole('button', { name: 'Edit DELETE /api/books/:id' }),
    ).toBeInTheDocument();
  });

  it('cancel puts the roles back as they were', async () => {
    renderApp('/routes', signedInAs('admin', ['admin']));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit GET /api/books' }));
    const group = screen.getByRole('group', { name: 'Roles allowed on GET /api/books' });
    await userEvent.click(within(group).getByRole('button', { name: 'viewer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel GET /api/books' }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit GET /api/books' }));
    expect(within(group).getByRole('button', { name: 'viewer' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(network.calls('PUT /api/routes/r1')).toHaveLength(0);
  });

  it("logs 'Error editing route' and keeps edit mode when the save fails", async () => {
    network.use(
      http.put('/api/routes/r3', () =>
        apiError(400, 'ADMIN_PROTECTED', messages.server.adminKeepsRoutes),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/routes', signedInAs('admin', ['admin']));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit GET /api/routes' }));
    const group = screen.getByRole('group', { name: 'Roles allowed on GET /api/routes' });
    await userEvent.click(within(group).getByRole('button', { name: 'admin' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save GET /api/routes' }));
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(
        messages.permissions.editContext,
        expect.anything(),
      ),
    );
    expect(store.getState().ui.toasts.map((t) => t.message)).toContain(
      messages.server.adminKeepsRoutes,
    );
    expect(screen.getByRole('button', { name: 'Save GET /api/routes' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it("logs 'Error getting routes' when the list cannot be fetched, says so, and Retry asks again", async () => {
    network.use(http.get('/api/routes', () => apiError(500, 'INTERNAL', 'no'), { once: true }));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/routes', signedInAs('admin', ['admin']));
    expect(await screen.findByText(t('common.loadFailed', { what: 'routes' }))).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.permissions.fetchContext, expect.anything());
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'books' })).toBeInTheDocument();
    expect(network.calls('GET /api/routes')).toHaveLength(2);
    consoleError.mockRestore();
  });

  it('shows a progress bar while the routes load', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    network.use(
      http.get('/api/routes', async () => {
        await answered;
        return HttpResponse.json(routes);
      }),
    );
    renderApp('/routes', signedInAs('admin', ['admin']));
    expect(await screen.findByRole('progressbar', { name: 'Loading routes' })).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('table', { name: 'books' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading routes' })).toBeNull();
  });

  it("says 'No routes yet' when the table is empty", async () => {
    network.use(http.get('/api/routes', () => HttpResponse.json([])));
    renderApp('/routes', signedInAs('admin', ['admin']));
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('No routes yet');
    expect(within(empty).queryByRole('link')).toBeNull();
  });
});

describe('what each role sees on /routes', () => {
  const network = setupNetwork(
    http.get('/api/routes', () => HttpResponse.json(routes)),
    http.get('/api/roles', () => HttpResponse.json(roles)),
  );

  it('admin sees an Edit button on every route', async () => {
    renderApp('/routes', signedInAs('admin', ['admin']));
    expect(await screen.findByRole('table', { name: 'books' })).toBeInTheDocument();
    for (const route of routes) {
      expect(
        screen.getByRole('button', { name: `Edit ${route.routeVerb} ${route.routePath}` }),
      ).toBeEnabled();
    }
  });

  it.each([
    ['contributor', ['contributor']],
    ['viewer', ['viewer']],
    ['a user with no role', []],
  ])(
    '%s is told the routes are closed to them (or to ask for a role), and nothing is asked',
    async (_who, userRoles) => {
      renderApp('/routes', signedInAs('someone', userRoles));
      expect(
        await screen.findByText(
          userRoles.length > 0
            ? t('common.roleDoesNotAllow', { what: 'reading the routes' })
            : t('common.needsRole'),
        ),
      ).toBeInTheDocument();
      // The permissions have come: the list would have been asked for by now.
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
      expect(network.calls('GET /api/routes')).toHaveLength(0);
      expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    },
  );

  it('a role that may read the routes but not change them sees them without Edit', async () => {
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['auditor'],
          allowed: [{ routeVerb: 'GET', routePath: '/api/routes' }],
        }),
      ),
    );
    renderApp('/routes', signedInAs('auditor', ['auditor']));
    const books = await screen.findByRole('table', { name: 'books' });
    expect(within(books).getAllByRole('row')).toHaveLength(3);
    expect(within(books).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
    // Editing needs the role names; reading does not.
    expect(network.calls('GET /api/roles')).toHaveLength(0);
  });

  it('a saved route change is followed by the permissions: an editor who takes away their own right loses Edit', async () => {
    let ops = [
      { routeVerb: 'GET', routePath: '/api/routes' },
      { routeVerb: 'GET', routePath: '/api/roles' },
      { routeVerb: 'PUT', routePath: '/api/routes/:id' },
    ];
    const editRoutes: RoutePermission = {
      _id: 'r4',
      _version: 1,
      routeEntity: 'routes',
      routeVerb: 'PUT',
      routePath: '/api/routes/:id',
      allowedRoles: ['admin', 'ops'],
    };
    network.use(
      http.get('/api/routes', () => HttpResponse.json([...routes, editRoutes])),
      http.get('/api/roles', () =>
        HttpResponse.json([...roles, { _id: 'ops', name: 'ops', _version: 1 }]),
      ),
      http.get('/api/auth/permissions', () => HttpResponse.json({ roles: ['ops'], allowed: ops })),
      http.put('/api/routes/r4', async ({ request }) => {
        const body = (await request.json()) as { allowedRoles: string[] };
        ops = ops.filter((route) => route.routeVerb !== 'PUT');
        return HttpResponse.json({ ...editRoutes, ...body });
      }),
    );
    renderApp('/routes', signedInAs('ops', ['ops']));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit PUT /api/routes/:id' }));
    const group = screen.getByRole('group', { name: 'Roles allowed on PUT /api/routes/:id' });
    await userEvent.click(within(group).getByRole('button', { name: 'ops' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save PUT /api/routes/:id' }));

    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull());
    // The table stays readable, with the stored grants.
    expect(
      within(
        screen.getByRole('group', { name: 'Roles allowed on PUT /api/routes/:id' }),
      ).getAllByText(/admin|ops/),
    ).toHaveLength(1);
  });
});
