import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import type { RoutePermission } from '@common/schemas/permissions';
import { apiError, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const routes: RoutePermission[] = [
  {
    _id: 'r1',
    routeEntity: 'books',
    routeVerb: 'GET',
    routePath: '/api/books',
    allowedRoles: ['admin', 'viewer'],
  },
  {
    _id: 'r2',
    routeEntity: 'books',
    routeVerb: 'DELETE',
    routePath: '/api/books/:id',
    allowedRoles: ['admin'],
  },
  {
    _id: 'r3',
    routeEntity: 'routes',
    routeVerb: 'GET',
    routePath: '/api/routes',
    allowedRoles: ['admin'],
  },
];
const roles = ['admin', 'contributor', 'viewer'].map((name) => ({ _id: name, name }));

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

  it("logs 'Error getting routes' when the list cannot be fetched", async () => {
    network.use(http.get('/api/routes', () => apiError(403, 'FORBIDDEN', 'no')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/routes', signedInAs('viewer', ['viewer']));
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(
        messages.permissions.fetchContext,
        expect.anything(),
      ),
    );
    expect(store.getState().ui.toasts.map((t) => t.message)).toContain(messages.toast.notAllowed);
    consoleError.mockRestore();
  });
});
