import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { tokenRefreshed } from '@/auth/auth.slice';
import { can } from '@/auth/useCan';
import { permissionsFor, setupNetwork } from '../helpers/network';
import { fakeToken, renderApp, signedInAs } from '../helpers/render';

const network = setupNetwork(
  http.get('/api/books', () => HttpResponse.json([])),
  http.get('/api/routes', () => HttpResponse.json([])),
  http.get('/api/roles', () =>
    HttpResponse.json([{ _id: '00000000-0000-4000-8000-000000000001', name: 'admin' }]),
  ),
);

describe('can', () => {
  it("answers from the table's verb and path, and no while the permissions are unknown", () => {
    const viewer = permissionsFor(['viewer']);
    expect(can(viewer, 'GET', '/api/books')).toBe(true);
    expect(can(viewer, 'get', '/api/books')).toBe(true);
    expect(can(viewer, 'DELETE', '/api/books/:id')).toBe(false);
    expect(can(permissionsFor(['contributor']), 'DELETE', '/api/books/:id')).toBe(true);
    expect(can(undefined, 'GET', '/api/books')).toBe(false);
  });
});

describe('a user with no role', () => {
  it('is told once, on a private page, that an administrator must give them a role', async () => {
    renderApp('/books', signedInAs('newcomer', []));
    expect(await screen.findByText(messages.client.needsRole)).toBeInTheDocument();
    expect(screen.getAllByText(messages.client.needsRole)).toHaveLength(1);
    // That one line says it all: no second one about the list; nothing is asked of the server.
    expect(screen.queryByText(/Your role does not allow/)).not.toBeInTheDocument();
    expect(network.calls('GET /api/books')).toHaveLength(0);
    expect(network.calls('GET /api/entities')).toHaveLength(0);
  });

  it('is not told so on the public pages', async () => {
    renderApp('/', signedInAs('newcomer', []));
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(1));
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(messages.client.needsRole)).not.toBeInTheDocument();
  });
});

describe('a user with a role', () => {
  it('sees the list, with no role warning', async () => {
    renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(screen.queryByText(messages.client.needsRole)).not.toBeInTheDocument();
    expect(screen.queryByText(/Your role does not allow/)).not.toBeInTheDocument();
  });
});

describe('the permissions follow', () => {
  it('a token refresh that changes the roles', async () => {
    const { store } = renderApp('/books', signedInAs('ada', []));
    expect(await screen.findByText(messages.client.needsRole)).toBeInTheDocument();
    const promoted = fakeToken({
      sub: 'id-ada',
      username: 'ada',
      roles: ['viewer'],
      exp: Math.floor(Date.now() / 1000) + 300,
    });
    store.dispatch(tokenRefreshed({ accessToken: promoted }));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(screen.queryByText(messages.client.needsRole)).not.toBeInTheDocument();
    expect(network.calls('GET /api/auth/permissions')).toHaveLength(2);
  });

  it('a change of route grants', async () => {
    network.use(
      http.get('/api/routes', () =>
        HttpResponse.json([
          {
            _id: 'r1',
            routeEntity: 'books',
            routeVerb: 'GET',
            routePath: '/api/books',
            allowedRoles: ['admin'],
          },
        ]),
      ),
      http.put('/api/routes/r1', () =>
        HttpResponse.json({
          _id: 'r1',
          routeEntity: 'books',
          routeVerb: 'GET',
          routePath: '/api/books',
          allowedRoles: ['admin'],
        }),
      ),
    );
    renderApp('/routes', signedInAs('admin', ['admin']));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit GET /api/books' }));
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Save GET /api/books' }));
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(2));
  });

  it('a logout: everything cached for the previous user goes', async () => {
    const { store } = renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(Object.keys(store.getState().api.queries).length).toBeGreaterThan(0);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(store.getState().auth.accessToken).toBeNull());
    expect(store.getState().api.queries).toEqual({});
  });
});
