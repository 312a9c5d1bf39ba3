import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import { apiError, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const roles = [
  { _id: 'role-admin', name: 'admin', _version: 1 },
  { _id: 'role-auditor', name: 'auditor', _version: 1 },
];
const asAdmin = signedInAs('admin', ['admin']);

let hasRole: Record<string, boolean>;
beforeEach(() => {
  hasRole = { 'u-ada': false, 'u-bob': true };
});
const network = setupNetwork(
  http.get('/api/roles', () => HttpResponse.json(roles)),
  http.get('/api/roles/role-auditor', () => HttpResponse.json(roles[1])),
  http.delete('/api/roles/role-auditor', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/roles/role-auditor/users', () =>
    HttpResponse.json([
      { _id: 'u-ada', username: 'ada', hasRole: hasRole['u-ada'] },
      { _id: 'u-bob', username: 'bob', hasRole: hasRole['u-bob'] },
    ]),
  ),
  http.put('/api/roles/role-auditor/users/u-ada', () => {
    hasRole['u-ada'] = !hasRole['u-ada'];
    return HttpResponse.json({ hasRole: hasRole['u-ada'] });
  }),
);

describe('/roles', () => {
  it('lists the roles with edit and delete, and links to Add Role', async () => {
    renderApp('/roles', asAdmin);
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(await within(list).findByText('auditor')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit auditor' })).toHaveAttribute(
      'href',
      '/role/role-auditor/edit',
    );
    expect(screen.getByRole('button', { name: 'Delete admin' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Add Role' })).toHaveAttribute('href', '/role');
  });

  it('deletes a role after confirmation, and not before', async () => {
    renderApp('/roles', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete auditor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete role' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(network.calls('DELETE /api/roles/role-auditor')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Delete auditor' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete role' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(network.calls('DELETE /api/roles/role-auditor')).toHaveLength(1));
  });

  it("Undo on the delete's toast brings the role back through its restore, and the list is asked again", async () => {
    network.use(http.post('/api/roles/role-auditor/restore', () => HttpResponse.json(roles[1])));
    renderApp('/roles', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete auditor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete role' });
    expect(dialog).toHaveTextContent('You can undo it for a few seconds.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted the role auditor')).toBeInTheDocument();
    const listed = network.calls('GET /api/roles').length;
    await userEvent.click(await screen.findByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(network.calls('POST /api/roles/role-auditor/restore')).toHaveLength(1),
    );
    await waitFor(() => expect(network.calls('GET /api/roles').length).toBeGreaterThan(listed));
    expect(await screen.findByText(t('common.undone'))).toBeInTheDocument();
  });

  it("logs 'Error deleting roles' when the delete fails", async () => {
    network.use(http.delete('/api/roles/role-auditor', () => apiError(500, 'INTERNAL', 'x')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/roles', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete auditor' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(messages.roles.deleteContext, expect.anything()),
    );
    consoleError.mockRestore();
  });
});

describe('what each role sees on /roles', () => {
  it('admin sees Add Role, and Edit and Delete on each role (Delete admin disabled)', async () => {
    renderApp('/roles', asAdmin);
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(await within(list).findByText('auditor')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Role' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit auditor' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete auditor' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Delete admin' })).toBeDisabled();
  });

  it.each([
    ['contributor', ['contributor']],
    ['viewer', ['viewer']],
    ['a user with no role', []],
  ])(
    '%s is told the roles are closed to them (or to ask for a role), and nothing is asked',
    async (_who, userRoles) => {
      renderApp('/roles', signedInAs('someone', userRoles));
      expect(
        await screen.findByText(
          userRoles.length > 0
            ? t('common.roleDoesNotAllow', { what: 'reading the roles' })
            : t('common.needsRole'),
        ),
      ).toBeInTheDocument();
      // The permissions have come: the list would have been asked for by now.
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
      expect(network.calls('GET /api/roles')).toHaveLength(0);
      expect(screen.queryByRole('link', { name: 'Add Role' })).toBeNull();
    },
  );

  it('a role that may only read the roles sees them without Add, Edit or Delete', async () => {
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['auditor'],
          allowed: [{ routeVerb: 'GET', routePath: '/api/roles' }],
        }),
      ),
    );
    renderApp('/roles', signedInAs('audrey', ['auditor']));
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(await within(list).findByText('auditor')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add Role' })).toBeNull();
    expect(screen.queryByRole('link', { name: /^Edit / })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete / })).toBeNull();
  });

  it("says 'No roles yet' with a way to add one", async () => {
    network.use(http.get('/api/roles', () => HttpResponse.json([])));
    renderApp('/roles', asAdmin);
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('No roles yet');
    expect(within(empty).getByRole('link', { name: 'Add one' })).toHaveAttribute('href', '/role');
  });

  it("shows the server's reason in the page when it protects a role (ADMIN_PROTECTED)", async () => {
    network.use(
      http.delete('/api/roles/role-auditor', () =>
        apiError(400, 'ADMIN_PROTECTED', messages.server.adminRoleProtected),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/roles', asAdmin);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete auditor' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await screen.findByText(messages.server.adminRoleProtected, {
        selector: '.MuiAlert-message',
      }),
    ).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.roles.deleteContext, expect.anything());
    consoleError.mockRestore();
  });
});

describe('/role', () => {
  it('a viewer is told adding roles is closed to them: no form, nothing sent', async () => {
    renderApp('/role', signedInAs('viewer', ['viewer']));
    expect(
      await screen.findByText(t('common.roleDoesNotAllow', { what: 'adding roles' })),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add role' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Role' })).toBeNull();
  });

  it('a user with no role sees the one needs-a-role line and no form', async () => {
    renderApp('/role', signedInAs('newcomer', []));
    expect(await screen.findAllByText(t('common.needsRole'))).toHaveLength(1);
    expect(screen.queryByText(/Your role does not allow/)).toBeNull();
    expect(screen.queryByRole('form', { name: 'Add role' })).toBeNull();
  });

  it('checks the name before sending it', async () => {
    renderApp('/role', asAdmin);
    await userEvent.type(await screen.findByLabelText(/Name/), 'has space');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(await screen.findByText('may only hold letters, digits, _ and -')).toBeInTheDocument();
    expect(network.calls('POST /api/roles')).toHaveLength(0);
  });

  it('adds the role and goes back to the list', async () => {
    network.use(
      http.post('/api/roles', () =>
        HttpResponse.json({ _id: 'role-new', name: 'editors', _version: 1 }, { status: 201 }),
      ),
    );
    const { router } = renderApp('/role', asAdmin);
    await userEvent.type(await screen.findByLabelText(/Name/), 'editors');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/roles'));
    expect(await network.calls('POST /api/roles')[0]!.json()).toEqual({ name: 'editors' });
  });

  it("shows a taken name under the name and logs 'Error adding role'", async () => {
    network.use(
      http.post('/api/roles', () => apiError(409, 'NAME_TAKEN', 'A role with this name exists')),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/role', asAdmin);
    const name = await screen.findByLabelText(/Name/);
    await userEvent.type(name, 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription('A role with this name exists'));
    expect(name).toHaveValue('admin');
    expect(consoleError).toHaveBeenCalledWith(messages.roles.addContext, expect.anything());
    consoleError.mockRestore();
  });

  it("shows the fields of the server's 400 under the inputs they name", async () => {
    network.use(
      http.post('/api/roles', () =>
        apiError(400, 'VALIDATION_FAILED', 'invalid', [
          {
            field: 'body.name',
            message: 'must not contain invisible or text-direction characters',
          },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/role', asAdmin);
    const name = await screen.findByLabelText(/Name/);
    await userEvent.type(name, 'editors');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription(
        'must not contain invisible or text-direction characters',
      ),
    );
    consoleError.mockRestore();
  });

  it('shows a 400 about a field the form has no input for above the form', async () => {
    network.use(
      http.post('/api/roles', () =>
        apiError(400, 'VALIDATION_FAILED', 'invalid', [
          { field: 'body.description', message: 'is not allowed' },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/role', asAdmin);
    const name = await screen.findByLabelText(/Name/);
    await userEvent.type(name, 'editors');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(
      await screen.findByText('Description is not allowed.', { selector: '.MuiAlert-message' }),
    ).toBeInTheDocument();
    expect(name).toHaveAccessibleDescription('Letters, digits, _ and -');
    consoleError.mockRestore();
  });

  it('shows a refusal that names no field above the form', async () => {
    network.use(http.post('/api/roles', () => apiError(500, 'INTERNAL', 'Something went wrong')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/role', asAdmin);
    await userEvent.type(await screen.findByLabelText(/Name/), 'editors');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(
      await screen.findByText('Something went wrong', { selector: '.MuiAlert-message' }),
    ).toBeInTheDocument();
    consoleError.mockRestore();
  });
});

describe('/role/:id/edit', () => {
  it('shows every user with a switch, and toggles the role', async () => {
    renderApp('/role/role-auditor/edit', asAdmin);
    expect(
      await screen.findByRole('heading', { name: 'Users with the role auditor' }),
    ).toBeInTheDocument();
    const ada = await screen.findByRole('switch', { name: 'ada has the role' });
    expect(ada).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'bob has the role' })).toBeChecked();
    await userEvent.click(ada);
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'ada has the role' })).toBeChecked(),
    );
    expect(network.calls('PUT /api/roles/role-auditor/users/u-ada')).toHaveLength(1);
  });

  it('says there is no such role, with a way back, and shows no switches (404)', async () => {
    network.use(http.get('/api/roles/role-gone', () => apiError(404, 'NOT_FOUND', 'Not found')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/role/role-gone/edit', asAdmin);
    const notFound = await screen.findByRole('status');
    expect(notFound).toHaveTextContent('There is no role with this id.');
    expect(within(notFound).getByRole('link', { name: 'See the roles' })).toHaveAttribute(
      'href',
      '/roles',
    );
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('heading', { name: /Users with the role \S/ })).toBeNull();
    // The users of a role that does not exist are never asked for: one request, one toast.
    expect(network.calls('GET /api/roles/role-gone/users')).toHaveLength(0);
    expect(store.getState().ui.toasts.map((t) => t.message)).toEqual([t('toast.notFound')]);
    expect(consoleError).toHaveBeenCalledWith(messages.roles.fetchOneContext, expect.anything());
    consoleError.mockRestore();
  });

  it('says the role could not be loaded, with Retry and no switches, and Retry loads it', async () => {
    network.use(
      http.get('/api/roles/role-auditor', () => apiError(500, 'INTERNAL'), { once: true }),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/role/role-auditor/edit', asAdmin);
    expect(await screen.findByText(t('common.loadFailed', { what: 'role' }))).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(network.calls('GET /api/roles/role-auditor/users')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('switch', { name: 'ada has the role' })).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'Users with the role auditor' }),
    ).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it("logs 'Error editing user roles' and says why in the page when the last admin would go (LAST_ADMIN)", async () => {
    network.use(
      http.put('/api/roles/role-auditor/users/u-ada', () =>
        apiError(409, 'LAST_ADMIN', 'At least one user must keep the admin role'),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/role/role-auditor/edit', asAdmin);
    await userEvent.click(await screen.findByRole('switch', { name: 'ada has the role' }));
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(messages.roles.editUsersContext, expect.anything()),
    );
    expect(store.getState().ui.toasts.map((t) => t.message)).toContain(
      'At least one user must keep the admin role',
    );
    expect(
      screen.getByText('At least one user must keep the admin role', {
        selector: '.MuiAlert-message',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'ada has the role' })).not.toBeChecked();
    consoleError.mockRestore();
  });

  it('a failure of another kind leaves no reason in the page, only the toast', async () => {
    network.use(
      http.put('/api/roles/role-auditor/users/u-ada', () => apiError(500, 'INTERNAL', 'boom')),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/role/role-auditor/edit', asAdmin);
    await userEvent.click(await screen.findByRole('switch', { name: 'ada has the role' }));
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(messages.roles.editUsersContext, expect.anything()),
    );
    expect(store.getState().ui.toasts.map((t) => t.message)).toContain(t('toast.notAllowed'));
    expect(screen.queryByText('boom')).toBeNull();
    consoleError.mockRestore();
  });

  it.each([
    ['contributor', ['contributor']],
    ['viewer', ['viewer']],
    ['a user with no role', []],
  ])(
    '%s is told who holds a role is closed to them (or to ask for a role), and nothing is asked',
    async (_who, userRoles) => {
      renderApp('/role/role-auditor/edit', signedInAs('someone', userRoles));
      expect(
        await screen.findByText(
          userRoles.length > 0
            ? t('common.roleDoesNotAllow', { what: 'reading who holds a role' })
            : t('common.needsRole'),
        ),
      ).toBeInTheDocument();
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(1);
      expect(network.calls('GET /api/roles/role-auditor/users')).toHaveLength(0);
      expect(network.calls('GET /api/roles/role-auditor')).toHaveLength(0);
      expect(screen.queryByRole('switch')).toBeNull();
    },
  );

  it('a role that may read but not change the assignments sees the switches, disabled', async () => {
    network.use(
      http.get('/api/auth/permissions', () =>
        HttpResponse.json({
          roles: ['auditor'],
          allowed: [
            { routeVerb: 'GET', routePath: '/api/roles/:id' },
            { routeVerb: 'GET', routePath: '/api/roles/:id/users' },
          ],
        }),
      ),
    );
    renderApp('/role/role-auditor/edit', signedInAs('audrey', ['auditor']));
    const bob = await screen.findByRole('switch', { name: 'bob has the role' });
    expect(bob).toBeChecked();
    expect(bob).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'ada has the role' })).toBeDisabled();
  });
});

describe('/roles search', () => {
  it('shows the roles whose name holds every word', async () => {
    renderApp('/roles?q=AUD', asAdmin);
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(await within(list).findByText('auditor')).toBeInTheDocument();
    expect(within(list).queryByText('admin')).toBeNull();
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search' }));
    expect(await within(list).findByText('admin')).toBeInTheDocument();
  });
});
