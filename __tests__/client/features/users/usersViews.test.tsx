import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { SavedView } from '@common/schemas/views';
import type { User } from '@common/schemas/users';
import { permissionsFor, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const users: User[] = [
  { _id: 'u-ada', _version: 1, username: 'ada', email: 'ada@example.com', roles: [] },
  { _id: 'u-bob', _version: 1, username: 'bob', email: 'bob@example.com', roles: [] },
];

const viewerRole = { _id: '00000000-0000-4000-8000-000000000003', name: 'viewer' };
const views: SavedView[] = [
  {
    _id: 'v-1',
    grid: 'users',
    name: 'Names only',
    query: 'columns=username',
    role: null,
    mine: true,
  },
  {
    _id: 'v-2',
    grid: 'users',
    name: 'Team',
    query: 'sort=email:desc',
    role: viewerRole,
    mine: false,
  },
];

const network = setupNetwork(
  http.get('/api/users', () => HttpResponse.json(users)),
  http.get('/api/views', () => HttpResponse.json(views)),
  http.get('/api/roles', () => HttpResponse.json([{ ...viewerRole, _version: 1 }])),
  http.post('/api/views', async ({ request }) =>
    HttpResponse.json(
      { _id: 'v-new', role: null, mine: true, ...((await request.json()) as object) },
      { status: 201 },
    ),
  ),
  http.post('/api/role-views', async ({ request }) => {
    const { roleId: _roleId, ...view } = (await request.json()) as Record<string, string>;
    return HttpResponse.json(
      { _id: 'v-role', role: viewerRole, mine: false, ...view },
      { status: 201 },
    );
  }),
  http.put('/api/views/v-1', async ({ request }) =>
    HttpResponse.json({ ...views[0], ...((await request.json()) as object) }),
  ),
  http.delete('/api/views/v-1', () => new HttpResponse(null, { status: 204 })),
);

async function openUsers(path = '/users', shown = 'bob@example.com') {
  const view = renderApp(path, signedInAs('admin', ['admin']));
  const grid = await screen.findByRole('grid', { name: 'Users' });
  await within(grid).findByText(shown);
  return { ...view, grid };
}

/** An administrator of users whose role may not keep views for a role. */
function withoutRoleViews() {
  const { roles, allowed } = permissionsFor(['admin']);
  network.use(
    http.get('/api/auth/permissions', () =>
      HttpResponse.json({
        roles,
        allowed: allowed.filter((route) => !route.routePath.startsWith('/api/role-views')),
      }),
    ),
  );
}

// Hidden: the chooser, open, hides the page behind it from assistive technology.
const headers = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('columnheader', { hidden: true })
    .map((header) => header.textContent)
    // The selection's checkbox column has no text.
    .filter(Boolean);
const search = (router: { state: { location: { search: string } } }) =>
  new URLSearchParams(router.state.location.search);

describe('/users: columns and views', () => {
  it('hides and moves columns from the chooser, in the URL', async () => {
    const { grid, router } = await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const chooser = await screen.findByRole('dialog', { name: 'Columns' });
    await userEvent.click(within(chooser).getByRole('checkbox', { name: 'Email' }));
    await waitFor(() => expect(search(router).get('columns')).toBe('username,roles'));
    expect(headers(grid)).not.toContain('Email');

    await userEvent.click(within(chooser).getByRole('button', { name: 'Move Roles left' }));
    await waitFor(() => expect(search(router).get('columns')).toBe('roles,username'));
    expect(headers(grid).slice(0, 2)).toEqual(['Roles', 'Username']);
    // The last column shown cannot be hidden.
    await userEvent.click(within(chooser).getByRole('checkbox', { name: 'Roles' }));
    expect(within(chooser).getByRole('checkbox', { name: 'Username' })).toBeDisabled();

    await userEvent.click(within(chooser).getByRole('button', { name: 'Reset columns' }));
    await waitFor(() => expect(search(router).get('columns')).toBeNull());
    expect(headers(grid)).toContain('Email');
  });

  it('shows saved views as chips; a chip shows its view and is marked while it stands', async () => {
    const { grid, router } = await openUsers();
    const bar = screen.getByRole('navigation', { name: 'Saved views' });
    await userEvent.click(await within(bar).findByRole('button', { name: 'Names only' }));
    await waitFor(() => expect(search(router).get('columns')).toBe('username'));
    expect(headers(grid)).not.toContain('Email');
    expect(within(bar).getByRole('button', { name: 'Names only' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await userEvent.click(within(bar).getByRole('button', { name: 'Team · viewer' }));
    await waitFor(() => expect(search(router).get('sort')).toBe('email:desc'));
    expect(search(router).get('columns')).toBeNull();
    expect(within(bar).getByRole('button', { name: 'Names only' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('saves the view on screen for me, or replaces a view of mine by its name', async () => {
    withoutRoleViews();
    const { router } = await openUsers('/users?q=ada&columns=username,email', 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view' });
    // Without the right to keep views for a role: no choice of whom for.
    expect(within(dialog).queryByRole('combobox', { name: 'For' })).not.toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Ada only');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.calls('POST /api/views')).toHaveLength(1));
    expect(await network.calls('POST /api/views')[0]!.json()).toEqual({
      grid: 'users',
      name: 'Ada only',
      query: search(router).toString(),
    });
    expect(await screen.findByText('Saved the view Ada only')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save view' }));
    const again = await screen.findByRole('dialog', { name: 'Save view' });
    await userEvent.type(within(again).getByRole('textbox', { name: /Name/ }), 'Names only');
    await userEvent.click(within(again).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(network.calls('PUT /api/views/v-1')).toHaveLength(1));
    expect(await network.calls('PUT /api/views/v-1')[0]!.json()).toEqual({
      query: 'q=ada&columns=username%2Cemail',
    });
  });

  it('offers an admin to save a view for everyone in a role', async () => {
    await openUsers('/users?sort=username:desc');
    await userEvent.click(screen.getByRole('button', { name: 'Save view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save view' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Newest');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'For' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Everyone in viewer' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.calls('POST /api/role-views')).toHaveLength(1));
    expect(await network.calls('POST /api/role-views')[0]!.json()).toEqual({
      grid: 'users',
      name: 'Newest',
      query: 'sort=username%3Adesc',
      roleId: viewerRole._id,
    });
  });

  it('deletes one of my views after confirmation, and Undo saves it again; a role’s view offers no delete without the right', async () => {
    withoutRoleViews();
    await openUsers();
    const bar = screen.getByRole('navigation', { name: 'Saved views' });
    const team = await within(bar).findByRole('button', { name: 'Team · viewer' });
    expect(within(team).queryByTestId('CancelIcon')).not.toBeInTheDocument();
    const mine = within(bar).getByRole('button', { name: 'Names only' });
    await userEvent.click(within(mine).getByTestId('CancelIcon'));
    const confirm = await screen.findByRole('dialog', { name: 'Delete view' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.calls('DELETE /api/views/v-1')).toHaveLength(1));
    await userEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(network.calls('POST /api/views')).toHaveLength(1));
    expect(await network.calls('POST /api/views')[0]!.json()).toEqual({
      grid: 'users',
      name: 'Names only',
      query: 'columns=username',
    });
  });

  it('comes back to the last view of the list', async () => {
    const { router } = await openUsers('/users?q=bob&sort=email:asc');
    // The view is kept once it is on screen.
    await waitFor(() => expect(window.sessionStorage.length).toBeGreaterThan(0));
    await act(() => router.navigate('/'));
    await act(() => router.navigate('/users'));
    await screen.findByRole('grid', { name: 'Users' });
    await waitFor(() => expect(search(router).get('q')).toBe('bob'));
    expect(search(router).get('sort')).toBe('email:asc');
    // The list asked for no other view first.
    expect(screen.getByRole('searchbox')).toHaveValue('bob');
  });
});
