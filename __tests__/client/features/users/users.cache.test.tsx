/**
 * The cache after each mutation on /users: leaving the page and coming back shows the new
 * state from the cache, with no second request for the list.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { User } from '@common/schemas/users';
import { setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const users: User[] = [
  {
    _id: 'u-admin',
    _version: 1,
    username: 'admin',
    email: null,
    roles: [{ _id: '00000000-0000-4000-8000-000000000001', name: 'admin' }],
  },
  {
    _id: 'u-ada',
    _version: 1,
    username: 'ada',
    email: 'ada@example.com',
    roles: [{ _id: '00000000-0000-4000-8000-000000000002', name: 'viewer' }],
  },
];

const network = setupNetwork(
  http.get('/api/users', () => HttpResponse.json(users)),
  http.put('/api/users/u-ada', async ({ request }) =>
    HttpResponse.json({ ...users[1], ...((await request.json()) as object) }),
  ),
  http.delete('/api/users/u-ada', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/roles', () => HttpResponse.json([])),
);

type AppRouter = ReturnType<typeof renderApp>['router'];

/** Leaves /users for the home page and comes back to it. */
async function leaveAndComeBack(router: AppRouter) {
  await act(() => router.navigate('/'));
  await waitFor(() => expect(screen.queryByRole('grid')).not.toBeInTheDocument());
  await act(() => router.navigate('/users'));
  return screen.findByRole('grid', { name: 'Users' });
}

async function openUsers() {
  const view = renderApp('/users', signedInAs('admin', ['admin']));
  const grid = await screen.findByRole('grid', { name: 'Users' });
  await within(grid).findByText('ada@example.com');
  return view;
}

describe('/users: the cache after each mutation', () => {
  it('shows an inline edit after leaving and coming back, without a refetch', async () => {
    const { router } = await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Edit ada' }));
    const username = await screen.findByDisplayValue('ada');
    await userEvent.clear(username);
    await userEvent.type(username, 'ada2');
    await userEvent.click(screen.getByRole('button', { name: 'Save ada' }));
    expect(await screen.findByRole('button', { name: 'Edit ada2' })).toBeInTheDocument();

    const grid = await leaveAndComeBack(router);
    expect(await within(grid).findByText('ada2')).toBeInTheDocument();
    expect(within(grid).queryByText('ada')).not.toBeInTheDocument();
    expect(network.calls('PUT /api/users/u-ada')).toHaveLength(1);
    expect(network.calls('GET /api/users')).toHaveLength(1);
  });

  it('leaves a deleted user out after leaving and coming back, without a refetch', async () => {
    const { router } = await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Delete ada' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('ada@example.com')).not.toBeInTheDocument());

    const grid = await leaveAndComeBack(router);
    expect(await within(grid).findByRole('button', { name: 'Edit admin' })).toBeInTheDocument();
    expect(within(grid).queryByText('ada@example.com')).not.toBeInTheDocument();
    expect(network.calls('DELETE /api/users/u-ada')).toHaveLength(1);
    expect(network.calls('GET /api/users')).toHaveLength(1);
  });
});
