import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import type { User } from '@common/schemas/users';
import { selectPermissionsResult } from '@/auth/permissions.api';
import { apiError, permissionsFor, setupNetwork } from '../../helpers/network';
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

const body = async (request: Request) => (await request.json()) as Record<string, unknown>;
const network = setupNetwork(
  http.get('/api/users', () => HttpResponse.json(users)),
  http.put('/api/users/u-ada', async ({ request }) =>
    HttpResponse.json({ ...users[1], ...(await body(request)) }),
  ),
  http.delete('/api/users/u-ada', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/roles', () =>
    HttpResponse.json([
      { _id: '00000000-0000-4000-8000-000000000001', name: 'admin', _version: 1 },
      { _id: '00000000-0000-4000-8000-000000000002', name: 'viewer', _version: 1 },
    ]),
  ),
);

async function openUsers() {
  const view = renderApp('/users', signedInAs('admin', ['admin']));
  const grid = await screen.findByRole('grid', { name: 'Users' });
  await within(grid).findByText('ada@example.com');
  return { ...view, grid };
}

describe('/users', () => {
  it('lists the users with their roles as chips', async () => {
    const { grid } = await openUsers();
    expect(within(grid).getByText('ada')).toBeInTheDocument();
    expect(within(grid).getByText('viewer')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add User' })).toHaveAttribute('href', '/users/add');
  });

  it('edits a row inline and saves it', async () => {
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Edit ada' }));
    const username = await screen.findByDisplayValue('ada');
    await userEvent.clear(username);
    await userEvent.type(username, 'ada2');
    await userEvent.click(screen.getByRole('button', { name: 'Save ada' }));
    await waitFor(() => expect(network.calls('PUT /api/users/u-ada')).toHaveLength(1));
    expect(await network.calls('PUT /api/users/u-ada')[0]!.json()).toEqual({
      username: 'ada2',
      email: 'ada@example.com',
      // The version the edit started from.
      _version: 1,
    });
    expect(await screen.findByRole('button', { name: 'Edit ada2' })).toBeInTheDocument();
  });

  it('cancel leaves read mode with the old values and sends nothing', async () => {
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Edit ada' }));
    const username = await screen.findByDisplayValue('ada');
    await userEvent.type(username, '-changed');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel editing ada' }));
    expect(await screen.findByRole('button', { name: 'Edit ada' })).toBeInTheDocument();
    expect(screen.queryByDisplayValue('ada-changed')).not.toBeInTheDocument();
    expect(network.calls('PUT /api/users/u-ada')).toHaveLength(0);
  });

  it("keeps the row in edit mode and logs 'Error editing user' when the save fails", async () => {
    network.use(
      http.put('/api/users/u-ada', () => apiError(409, 'USERNAME_TAKEN', 'This username is taken')),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Edit ada' }));
    const username = await screen.findByDisplayValue('ada');
    await userEvent.clear(username);
    await userEvent.type(username, 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Save ada' }));
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(messages.users.editContext, expect.anything()),
    );
    expect(store.getState().ui.toasts.map((t) => t.message)).toContain('This username is taken');
    expect(screen.getByDisplayValue('admin')).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it('refuses to delete the user named admin in the browser, says so, and makes no call', async () => {
    const consoleLog = jest.spyOn(console, 'log').mockImplementation(() => {});
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Delete admin' }));
    expect(consoleLog).toHaveBeenCalledWith('Cannot delete admin. Good try.');
    expect(await screen.findByText('Cannot delete admin. Good try.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(network.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    consoleLog.mockRestore();
  });

  it('deletes another user after confirmation', async () => {
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Delete ada' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.calls('DELETE /api/users/u-ada')).toHaveLength(1));
  });

  it("says that deleting one's own account signs one out, and offers no Undo for it", async () => {
    const asAda = signedInAs('ada', ['admin']);
    renderApp('/users', { auth: { ...asAda.auth!, user: { ...asAda.auth!.user!, _id: 'u-ada' } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete ada' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent(t('users.deleteOwn', { name: 'ada' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.calls('DELETE /api/users/u-ada')).toHaveLength(1));
    expect(await screen.findByText('Deleted ada')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
  });

  it("logs 'Error fetching users' when the list fails, says so, and Retry asks again", async () => {
    network.use(http.get('/api/users', () => apiError(500, 'INTERNAL', 'no'), { once: true }));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/users', signedInAs('admin', ['admin']));
    // Not an empty list, which would read as "there are no users".
    expect(await screen.findByText(t('common.loadFailed', { what: 'users' }))).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.users.fetchContext, expect.anything());
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const grid = await screen.findByRole('grid', { name: 'Users' });
    expect(await within(grid).findByText('ada@example.com')).toBeInTheDocument();
    expect(network.calls('GET /api/users')).toHaveLength(2);
    consoleError.mockRestore();
  });

  it('shows a progress bar while the list loads', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    network.use(
      http.get('/api/users', async () => {
        await answered;
        return HttpResponse.json(users);
      }),
    );
    renderApp('/users', signedInAs('admin', ['admin']));
    expect(await screen.findByRole('progressbar', { name: 'Loading users' })).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('grid', { name: 'Users' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading users' })).toBeNull();
  });

  it("says 'No users yet' with a way to add one", async () => {
    network.use(http.get('/api/users', () => HttpResponse.json([])));
    renderApp('/users', signedInAs('admin', ['admin']));
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('No users yet');
    expect(within(empty).getByRole('link', { name: 'Add one' })).toHaveAttribute(
      'href',
      '/users/add',
    );
  });

  it("shows the server's reason in the page when the last admin would go (LAST_ADMIN)", async () => {
    network.use(
      http.delete('/api/users/u-ada', () => apiError(409, 'LAST_ADMIN', messages.server.lastAdmin)),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Delete ada' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText(messages.server.lastAdmin, { selector: '.MuiAlert-message' }),
    ).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.users.deleteContext, expect.anything());
    consoleError.mockRestore();
  });

  it("shows the server's reason in the page when a rename is refused (ADMIN_PROTECTED)", async () => {
    network.use(
      http.put('/api/users/u-ada', () =>
        apiError(400, 'ADMIN_PROTECTED', messages.server.adminUserProtected),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'Edit ada' }));
    await userEvent.type(await screen.findByDisplayValue('ada'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Save ada' }));
    expect(
      await screen.findByText(messages.server.adminUserProtected, {
        selector: '.MuiAlert-message',
      }),
    ).toBeInTheDocument();
    expect(screen.getByDisplayValue('adax')).toBeInTheDocument();
    consoleError.mockRestore();
  });
});

describe('what each role sees on /users', () => {
  it('admin sees Add User, and Edit and Delete on every row', async () => {
    const { grid } = await openUsers();
    expect(screen.getByRole('link', { name: 'Add User' })).toBeInTheDocument();
    for (const name of ['admin', 'ada']) {
      expect(within(grid).getByRole('button', { name: `Edit ${name}` })).toBeInTheDocument();
      expect(within(grid).getByRole('button', { name: `Delete ${name}` })).toBeInTheDocument();
    }
  });

  it.each([
    ['contributor', ['contributor']],
    ['viewer', ['viewer']],
    ['a user with no role', []],
  ])(
    '%s is told the users are closed to them (or to ask for a role), and nothing is asked',
    async (_who, userRoles) => {
      renderApp('/users', signedInAs('someone', userRoles));
      expect(
        await screen.findByText(
          userRoles.length > 0
            ? t('common.roleDoesNotAllow', { what: 'reading the users' })
            : t('common.needsRole'),
        ),
      ).toBeInTheDocument();
      // The permissions have come: the list would have been asked for by now.
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
      expect(network.calls('GET /api/users')).toHaveLength(0);
      expect(screen.queryByRole('link', { name: 'Add User' })).toBeNull();
    },
  );

  it('a role that may only read the users sees the grid with no Add, Edit or Delete, and cannot edit a cell', async () => {
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['auditor'],
          allowed: [{ routeVerb: 'GET', routePath: '/api/users' }],
        }),
      ),
    );
    renderApp('/users', signedInAs('audrey', ['auditor']));
    const grid = await screen.findByRole('grid', { name: 'Users' });
    const cell = await within(grid).findByText('ada@example.com');
    expect(screen.queryByRole('link', { name: 'Add User' })).toBeNull();
    expect(within(grid).queryByRole('button', { name: /^(Edit|Delete) / })).toBeNull();
    await userEvent.dblClick(cell);
    expect(screen.queryByDisplayValue('ada@example.com')).toBeNull();
  });
});

describe('/users/add', () => {
  it.each([
    ['a viewer', ['viewer'], () => t('common.roleDoesNotAllow', { what: 'adding users' })],
    ['a user with no role', [], () => t('common.needsRole')],
  ])(
    '%s is told why there is no form, and the roles are not asked for',
    async (_who, userRoles, told) => {
      renderApp('/users/add', signedInAs('someone', userRoles));
      expect(await screen.findAllByText(told())).toHaveLength(1);
      expect(screen.queryByRole('form', { name: 'Add user' })).toBeNull();
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
      expect(network.calls('GET /api/roles')).toHaveLength(0);
    },
  );

  it('shows a progress bar while the roles load, then the roles to choose from', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    network.use(
      http.get('/api/roles', async () => {
        await answered;
        return HttpResponse.json([
          { _id: '00000000-0000-4000-8000-000000000002', name: 'viewer', _version: 1 },
        ]);
      }),
    );
    renderApp('/users/add', signedInAs('admin', ['admin']));
    const roles = await screen.findByRole('group', { name: 'Roles' });
    expect(
      await within(roles).findByRole('progressbar', { name: 'Loading roles' }),
    ).toBeInTheDocument();
    answer();
    expect(await within(roles).findByRole('checkbox', { name: 'viewer' })).toBeInTheDocument();
    expect(within(roles).queryByRole('progressbar')).toBeNull();
  });

  it("says the roles could not be loaded, logs 'Error fetching roles', and Retry loads them", async () => {
    network.use(http.get('/api/roles', () => apiError(500, 'INTERNAL'), { once: true }));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/users/add', signedInAs('admin', ['admin']));
    const roles = await screen.findByRole('group', { name: 'Roles' });
    expect(
      await within(roles).findByText(t('common.loadFailed', { what: 'roles' })),
    ).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.roles.fetchContext, expect.anything());
    await userEvent.click(within(roles).getByRole('button', { name: 'Retry' }));
    expect(await within(roles).findByRole('checkbox', { name: 'viewer' })).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it("says 'No roles yet' when there is none, and the form still adds a user", async () => {
    network.use(
      http.get('/api/roles', () => HttpResponse.json([])),
      http.post('/api/users', () =>
        HttpResponse.json(
          { _id: 'u9', username: 'grace', email: null, roles: [], _version: 1 },
          { status: 201 },
        ),
      ),
    );
    const { router } = renderApp('/users/add', signedInAs('admin', ['admin']));
    const roles = await screen.findByRole('group', { name: 'Roles' });
    expect(await within(roles).findByRole('status')).toHaveTextContent('No roles yet');
    await userEvent.type(screen.getByLabelText(/Username/), 'grace');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
  });

  it('a role that may add users but not list the roles gets the form without the role picker', async () => {
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['recruiter'],
          allowed: [{ routeVerb: 'POST', routePath: '/api/users' }],
        }),
      ),
    );
    renderApp('/users/add', signedInAs('rita', ['recruiter']));
    const roles = await screen.findByRole('group', { name: 'Roles' });
    expect(
      within(roles).getByText(t('common.roleDoesNotAllow', { what: 'choosing roles' })),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/Username/)).toBeInTheDocument();
    expect(within(roles).queryByRole('checkbox')).toBeNull();
    expect(network.calls('GET /api/roles')).toHaveLength(0);
  });

  it('shows field errors for a missing username, a bad email and a short password, sending nothing', async () => {
    renderApp('/users/add', signedInAs('admin', ['admin']));
    await userEvent.type(await screen.findByLabelText(/Email/), 'grace@');
    await userEvent.type(screen.getByLabelText(/Password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
    expect(screen.getByText('must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription(
      'must be a valid email address',
    );
    expect(network.calls('POST /api/users')).toHaveLength(0);
  });

  it('adds a user with the chosen roles and goes back to the list', async () => {
    network.use(
      http.post('/api/users', async ({ request }) => {
        const { username, email } = await body(request);
        return HttpResponse.json(
          {
            _id: 'u9',
            _version: 1,
            username,
            email,
            roles: [{ _id: '00000000-0000-4000-8000-000000000002', name: 'viewer' }],
          },
          { status: 201 },
        );
      }),
    );
    const { router } = renderApp('/users/add', signedInAs('admin', ['admin']));
    await userEvent.type(await screen.findByLabelText(/Username/), 'grace');
    await userEvent.type(screen.getByLabelText(/Email/), 'grace@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'viewer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/users'));
    expect(await network.calls('POST /api/users')[0]!.json()).toEqual({
      username: 'grace',
      email: 'grace@example.com',
      password: 'long-enough',
      roles: ['00000000-0000-4000-8000-000000000002'],
    });
  });

  it("shows a taken username under the username and logs 'Error adding users'", async () => {
    network.use(
      http.post('/api/users', () => apiError(409, 'USERNAME_TAKEN', 'This username is taken')),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/users/add', signedInAs('admin', ['admin']));
    await userEvent.type(await screen.findByLabelText(/Username/), 'viewer');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Username/)).toHaveAccessibleDescription(
        'This username is taken',
      ),
    );
    // Said once, where it belongs: no toast repeats it.
    expect(store.getState().ui.toasts).toEqual([]);
    expect(consoleError).toHaveBeenCalledWith(messages.users.addContext, expect.anything());
    consoleError.mockRestore();
  });

  it('shows a taken email under the email', async () => {
    network.use(
      http.post('/api/users', () =>
        apiError(409, 'EMAIL_TAKEN', 'An account with this email already exists'),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/users/add', signedInAs('admin', ['admin']));
    await userEvent.type(await screen.findByLabelText(/Username/), 'grace');
    await userEvent.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription(
        'An account with this email already exists',
      ),
    );
    expect(screen.getByLabelText(/Username/)).not.toHaveAccessibleDescription();
    consoleError.mockRestore();
  });

  it("shows the fields of the server's 400 under the inputs they name, roles included", async () => {
    network.use(
      http.post('/api/users', () =>
        apiError(400, 'VALIDATION_FAILED', 'invalid', [
          { field: 'body.email', message: 'must be a valid email address' },
          { field: 'body.roles', message: 'must be ids of existing roles' },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/users/add', signedInAs('admin', ['admin']));
    await userEvent.type(await screen.findByLabelText(/Username/), 'grace');
    await userEvent.type(screen.getByLabelText(/Email/), 'grace@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'viewer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription(
        'must be a valid email address',
      ),
    );
    const rolesGroup = screen.getByRole('group', { name: 'Roles' });
    expect(within(rolesGroup).getByText('must be ids of existing roles')).toBeInTheDocument();
    // Every field it names has an input: nothing is left for the form's alert.
    expect(
      within(screen.getByRole('form', { name: 'Add user' })).queryByRole('alert'),
    ).not.toBeInTheDocument();
    consoleError.mockRestore();
  });
});

describe('Set password on /users', () => {
  const setPassword = 'PUT /api/users/u-ada/password';

  async function openDialog() {
    const view = await openUsers();
    await userEvent.click(await screen.findByRole('button', { name: 'Set password for ada' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set password for ada' });
    return { ...view, dialog };
  }

  it('sends the new password, closes, and says ada was signed out everywhere', async () => {
    network.use(
      http.put('/api/users/u-ada/password', () => new HttpResponse(null, { status: 204 })),
    );
    const { store, dialog } = await openDialog();
    await userEvent.type(within(dialog).getByLabelText(/New password/), 'a-new-password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set password' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await network.calls(setPassword)[0]!.json()).toEqual({ password: 'a-new-password' });
    expect(store.getState().ui.toasts.map((t) => t.message)).toContain(
      t('users.passwordSet', { name: 'ada' }),
    );
    expect(await screen.findByText(t('users.passwordSet', { name: 'ada' }))).toBeInTheDocument();
  });

  it('checks the password with the common schema before sending it', async () => {
    const { dialog } = await openDialog();
    const password = within(dialog).getByLabelText(/New password/);
    await userEvent.type(password, 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription('must be at least 8 characters'),
    );
    expect(network.calls(setPassword)).toHaveLength(0);
  });

  it("shows the server's 400 under the password and stays open", async () => {
    network.use(
      http.put('/api/users/u-ada/password', () =>
        apiError(400, 'VALIDATION_FAILED', 'invalid', [
          { field: 'body.password', message: 'must not contain control characters' },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { dialog } = await openDialog();
    const password = within(dialog).getByLabelText(/New password/);
    await userEvent.type(password, 'a-new-password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set password' }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription('must not contain control characters'),
    );
    expect(screen.getByRole('dialog', { name: 'Set password for ada' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.users.setPasswordContext, expect.anything());
    consoleError.mockRestore();
  });

  it("is not offered on the signed-in user's own row (it would end their own sessions)", async () => {
    network.use(
      http.get('/api/users', () =>
        HttpResponse.json([{ ...users[0]!, _id: 'id-admin' }, users[1]]),
      ),
    );
    renderApp('/users', signedInAs('admin', ['admin']));
    const grid = await screen.findByRole('grid', { name: 'Users' });
    // Offered on ada's row: the permissions are known, and the grid's actions drawn.
    expect(
      await within(grid).findByRole('button', { name: 'Set password for ada' }),
    ).toBeInTheDocument();
    expect(within(grid).getByRole('button', { name: 'Edit admin' })).toBeInTheDocument();
    expect(within(grid).queryByRole('button', { name: 'Set password for admin' })).toBeNull();
  });

  it('is not offered to a role the routes table does not let set passwords', async () => {
    const manager = permissionsFor(['admin']);
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['manager'],
          allowed: manager.allowed.filter((route) => !route.routePath.endsWith('/password')),
        }),
      ),
    );
    const { store } = renderApp('/users', signedInAs('manager', ['manager']));
    const grid = await screen.findByRole('grid', { name: 'Users' });
    // What would show the action: the permissions answer, now in the store.
    await waitFor(() => expect(selectPermissionsResult(store.getState()).isSuccess).toBe(true));
    expect(within(grid).getByRole('button', { name: 'Edit ada' })).toBeInTheDocument();
    expect(
      within(grid).queryByRole('button', { name: 'Set password for ada' }),
    ).not.toBeInTheDocument();
  });
});

describe('/users search and export', () => {
  it('finds users by every word in a shown field, and keeps the search in the URL', async () => {
    const { grid, router } = await openUsers();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'VIEW ada');
    await waitFor(() => expect(within(grid).queryByText('admin')).toBeNull());
    expect(within(grid).getByText('ada@example.com')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('VIEW ada');
  });

  it('exports the search, sort and shown columns through a download link', async () => {
    const clicked: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.getAttribute('href')!);
    });
    network.use(
      http.post('/api/auth/download-link', async ({ request }) =>
        HttpResponse.json({ url: `${(await body(request)).path as string}&ticket=t` }),
      ),
    );
    renderApp('/users?q=ada&sort=email:desc', signedInAs('admin', ['admin']));
    await screen.findByRole('grid', { name: 'Users' });
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const url = new URL(clicked[0]!, 'http://app');
    expect(url.pathname).toBe('/api/users/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      q: 'ada',
      sort: 'email:desc',
      format: 'csv',
      columns: 'username,email,roles',
      ticket: 't',
    });
    click.mockRestore();
  });

  it('deletes the ticked users in one request, after confirmation, and Undo brings them back in one; the admin user cannot be ticked', async () => {
    network.use(
      http.post('/api/users/bulk-delete', async ({ request }) =>
        HttpResponse.json(await request.json()),
      ),
      http.post('/api/users/bulk-restore', async ({ request }) =>
        HttpResponse.json(await request.json()),
      ),
    );
    const { grid } = await openUsers();
    const rowOf = (name: string) =>
      within(grid)
        .getAllByRole('row')
        .find((row) => within(row).queryByText(name, { selector: '[data-field="username"]' }))!;
    expect(within(rowOf('admin')).getByRole('checkbox')).toBeDisabled();
    await userEvent.click(within(rowOf('ada')).getByRole('checkbox'));
    const bar = screen.getByRole('region', { name: 'Selected users' });
    expect(bar).toHaveTextContent('1 selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete users' });
    expect(dialog).toHaveTextContent('Delete 1 user? You can undo it for a few seconds.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.calls('POST /api/users/bulk-delete')).toHaveLength(1));
    expect(await network.calls('POST /api/users/bulk-delete')[0]!.json()).toEqual({
      ids: ['u-ada'],
    });
    await waitFor(() =>
      expect(within(grid).queryByText('ada@example.com')).not.toBeInTheDocument(),
    );
    expect(await screen.findByText('Deleted 1 user')).toBeInTheDocument();
    const listed = network.calls('GET /api/users').length;
    await userEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(network.calls('POST /api/users/bulk-restore')).toHaveLength(1));
    expect(await network.calls('POST /api/users/bulk-restore')[0]!.json()).toEqual({
      ids: ['u-ada'],
    });
    // The list is asked again: the users are back where they were.
    await waitFor(() => expect(network.calls('GET /api/users').length).toBeGreaterThan(listed));
  });
});
