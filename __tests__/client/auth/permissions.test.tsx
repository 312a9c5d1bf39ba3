import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import type { AppStore } from '@/app/store';
import { requestForbidden } from '@/api/baseQuery';
import { tokenRefreshed } from '@/auth/auth.slice';
import { selectPermissionsResult } from '@/auth/permissions.api';
import { can } from '@/auth/useCan';
import { apiError, permissionsFor, setupNetwork } from '../helpers/network';
import { fakeToken, renderApp, signedInAs } from '../helpers/render';

const network = setupNetwork(
  http.get('/api/books', () => HttpResponse.json([])),
  http.get('/api/routes', () => HttpResponse.json([])),
  http.get('/api/roles', () =>
    HttpResponse.json([
      { _id: '00000000-0000-4000-8000-000000000001', name: 'admin', _version: 1 },
    ]),
  ),
);

/** The cached permissions call, as the screens read it. */
const permissionsState = (store: AppStore) => selectPermissionsResult(store.getState());

/** Lets the requests and invalidations of the moment settle (a few turns of the loop). */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 100)));

describe('can', () => {
  it("answers from the table's verb and path, and no while the permissions are unknown", () => {
    const viewer = permissionsFor(['viewer']);
    expect(can(viewer, 'GET', '/api/books')).toBe(true);
    expect(can(viewer, 'DELETE', '/api/books/:id')).toBe(false);
    expect(can(permissionsFor(['contributor']), 'DELETE', '/api/books/:id')).toBe(true);
    expect(can(undefined, 'GET', '/api/books')).toBe(false);
  });

  it("takes only the routes table's own verbs and paths (anything else is a type error)", () => {
    const admin = permissionsFor(['admin']);
    // @ts-expect-error: the table has no PUT /api/books.
    expect(can(admin, 'PUT', '/api/books')).toBe(false);
    // @ts-expect-error: verbs are upper case, as in the table.
    expect(can(admin, 'get', '/api/books')).toBe(false);
  });
});

describe('a user with no role', () => {
  it('is told once, on a private page, that an administrator must give them a role', async () => {
    renderApp('/books', signedInAs('newcomer', []));
    expect(await screen.findByText(t('common.needsRole'))).toBeInTheDocument();
    expect(screen.getAllByText(t('common.needsRole'))).toHaveLength(1);
    // That one line says it all: no second one about the list; nothing is asked of the server.
    expect(screen.queryByText(/Your role does not allow/)).not.toBeInTheDocument();
    expect(network.calls('GET /api/books')).toHaveLength(0);
    expect(network.calls('GET /api/entities')).toHaveLength(0);
  });

  it('is not told so on the public pages', async () => {
    const { store } = renderApp('/', signedInAs('newcomer', []));
    // The home page asks nothing of the API; the Entities dropdown asks for the permissions.
    await userEvent.click(await screen.findByRole('button', { name: 'Entities' }));
    // Answered, not only sent: the line would show from the answer on.
    await waitFor(() => expect(permissionsState(store).isSuccess).toBe(true));
    expect(permissionsState(store).data?.roles).toEqual([]);
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText(t('common.needsRole'))).not.toBeInTheDocument();
  });
});

describe('a user with a role', () => {
  it('sees the list, with no role warning', async () => {
    renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(screen.queryByText(t('common.needsRole'))).not.toBeInTheDocument();
    expect(screen.queryByText(/Your role does not allow/)).not.toBeInTheDocument();
  });
});

describe('the permissions follow', () => {
  it('a token refresh that changes the roles', async () => {
    const { store } = renderApp('/books', signedInAs('ada', []));
    expect(await screen.findByText(t('common.needsRole'))).toBeInTheDocument();
    const promoted = fakeToken({
      sub: 'id-ada',
      username: 'ada',
      roles: ['viewer'],
      exp: Math.floor(Date.now() / 1000) + 300,
    });
    store.dispatch(tokenRefreshed({ accessToken: promoted }));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(screen.queryByText(t('common.needsRole'))).not.toBeInTheDocument();
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
            _version: 1,
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
          _version: 2,
        }),
      ),
    );
    renderApp('/routes', signedInAs('admin', ['admin']));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit GET /api/books' }));
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Save GET /api/books' }));
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(2));
  });

  it('a 403 FORBIDDEN: the rights changed elsewhere, so they are asked for again', async () => {
    // The grants said viewers may read books; the server now refuses.
    network.use(http.get('/api/books', () => apiError(403, 'FORBIDDEN')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/books', signedInAs('viewer', ['viewer']));
    await waitFor(() => expect(network.calls('GET /api/books')).toHaveLength(1));
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(2));
    await waitFor(() => expect(permissionsState(store).isSuccess).toBe(true));
    await settle();
    expect(network.calls('GET /api/auth/permissions')).toHaveLength(2);
    expect(network.calls('GET /api/books')).toHaveLength(1);
    consoleError.mockRestore();
  });

  it('a burst of 403s asks for them once', async () => {
    const { store } = renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    await waitFor(() => expect(permissionsState(store).isSuccess).toBe(true));
    act(() => {
      for (let i = 0; i < 3; i += 1) store.dispatch(requestForbidden());
    });
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(2));
    await settle();
    expect(network.calls('GET /api/auth/permissions')).toHaveLength(2);
  });

  it('a 403 while the permissions call itself fails asks for nothing more: no loop', async () => {
    network.use(
      http.get('/api/books', () => apiError(403, 'FORBIDDEN')),
      http.get('/api/auth/permissions', () => apiError(403, 'FORBIDDEN')),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/books', signedInAs('viewer', ['viewer']));
    // Without the permissions the page asks the server, which refuses.
    await waitFor(() => expect(network.calls('GET /api/books')).toHaveLength(1));
    await waitFor(() => expect(permissionsState(store).isError).toBe(true));
    await settle();
    // Each control mounting while the call has failed asks once more (RTK Query refetches a
    // failed query for a new subscriber); the books' refusal adds nothing, and it stops.
    const asked = network.calls('GET /api/auth/permissions').length;
    await settle();
    await settle();
    expect(network.calls('GET /api/auth/permissions')).toHaveLength(asked);
    expect(network.calls('GET /api/books')).toHaveLength(1);
    consoleError.mockRestore();
  });

  it.each([
    ['focus', () => window.dispatchEvent(new Event('focus'))],
    [
      'visibilitychange',
      () => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })),
    ],
  ])('the window regaining focus (%s): they are asked for again', async (_event, regainFocus) => {
    const { store } = renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    await waitFor(() => expect(permissionsState(store).isSuccess).toBe(true));
    expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
    act(regainFocus);
    await waitFor(() => expect(network.calls('GET /api/auth/permissions')).toHaveLength(2));
    // Only the permissions follow the focus: the list stays as it was.
    expect(network.calls('GET /api/books')).toHaveLength(1);
  });

  it('a logout: everything cached for the previous user goes', async () => {
    const { store } = renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(Object.keys(store.getState().api!.queries).length).toBeGreaterThan(0);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(store.getState().auth.accessToken).toBeNull());
    expect(store.getState().api!.queries).toEqual({});
  });
});
