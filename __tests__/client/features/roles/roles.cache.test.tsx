/**
 * The cache after each mutation on the role screens: leaving the page through the app and
 * coming back shows the new state from the cache, with no second request for the list.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

let roles: { _id: string; name: string; _version: number }[];
let hasRole: Record<string, boolean>;
beforeEach(() => {
  roles = [
    { _id: 'role-admin', name: 'admin', _version: 1 },
    { _id: 'role-auditor', name: 'auditor', _version: 1 },
  ];
  hasRole = { 'u-ada': false };
});
const network = setupNetwork(
  http.get('/api/roles', () => HttpResponse.json(roles)),
  http.post('/api/roles', async ({ request }) => {
    const created = {
      _id: 'role-editors',
      _version: 1,
      ...((await request.json()) as { name: string }),
    };
    roles = [...roles, created];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.delete('/api/roles/role-auditor', () => {
    roles = roles.filter((role) => role._id !== 'role-auditor');
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('/api/roles/role-auditor', () => HttpResponse.json(roles[1])),
  http.get('/api/roles/role-auditor/users', () =>
    HttpResponse.json([{ _id: 'u-ada', username: 'ada', hasRole: hasRole['u-ada'] }]),
  ),
  http.put('/api/roles/role-auditor/users/u-ada', () => {
    hasRole['u-ada'] = !hasRole['u-ada'];
    return HttpResponse.json({ hasRole: hasRole['u-ada'] });
  }),
);
const asAdmin = signedInAs('admin', ['admin']);
type AppRouter = ReturnType<typeof renderApp>['router'];

/** Goes to the home page, then back to `path`. */
async function leaveAndComeBack(router: AppRouter, path: string) {
  await act(() => router.navigate('/'));
  await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  await act(() => router.navigate(path));
}

describe('the role screens: the cache after each mutation', () => {
  it('a new role shows in the list the create reloaded, and a second visit asks for nothing', async () => {
    const { router } = renderApp('/roles', asAdmin);
    await within(await screen.findByRole('list', { name: 'Roles' })).findByText('auditor');
    await userEvent.click(screen.getByRole('link', { name: 'Add Role' }));
    await userEvent.type(await screen.findByLabelText(/Name/), 'editors');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/roles'));
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(await within(list).findByText('editors')).toBeInTheDocument();
    // The create invalidates the list (a new role's place is the server's to say): once.
    expect(network.calls('GET /api/roles')).toHaveLength(2);

    await leaveAndComeBack(router, '/roles');
    const again = await screen.findByRole('list', { name: 'Roles' });
    expect(within(again).getByText('editors')).toBeInTheDocument();
    expect(network.calls('GET /api/roles')).toHaveLength(2);
  });

  it('a deleted role leaves the list, and a second visit asks for nothing', async () => {
    const { router } = renderApp('/roles', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete auditor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete role' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('auditor')).not.toBeInTheDocument());

    await leaveAndComeBack(router, '/roles');
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(within(list).getByText('admin')).toBeInTheDocument();
    expect(within(list).queryByText('auditor')).not.toBeInTheDocument();
    expect(network.calls('DELETE /api/roles/role-auditor')).toHaveLength(1);
    expect(network.calls('GET /api/roles')).toHaveLength(1);
  });

  it('a membership toggle shows on a second visit to /role/:id/edit, without a refetch', async () => {
    const { router } = renderApp('/role/role-auditor/edit', asAdmin);
    await userEvent.click(await screen.findByRole('switch', { name: 'ada has the role' }));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'ada has the role' })).toBeChecked(),
    );

    await leaveAndComeBack(router, '/role/role-auditor/edit');
    expect(await screen.findByRole('switch', { name: 'ada has the role' })).toBeChecked();
    expect(network.calls('PUT /api/roles/role-auditor/users/u-ada')).toHaveLength(1);
    expect(network.calls('GET /api/roles/role-auditor/users')).toHaveLength(1);
  });
});
