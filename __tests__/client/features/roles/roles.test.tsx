import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { apiError, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const roles = [
  { _id: 'role-admin', name: 'admin' },
  { _id: 'role-auditor', name: 'auditor' },
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

describe('/role', () => {
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
        HttpResponse.json({ _id: 'role-new', name: 'editors' }, { status: 201 }),
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

  it("logs 'Error editing user roles' when the toggle fails", async () => {
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
    consoleError.mockRestore();
  });
});
