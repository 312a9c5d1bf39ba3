import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@common/messages';
import { FetchStub, json } from '../../helpers/fetchStub';
import { renderApp, signedInAs } from '../../helpers/render';

const roles = [
  { _id: 'role-admin', name: 'admin' },
  { _id: 'role-auditor', name: 'auditor' },
];
const asAdmin = signedInAs('admin', ['admin']);

let network: FetchStub;
let hasRole: Record<string, boolean>;
beforeEach(() => {
  hasRole = { 'u-ada': false, 'u-bob': true };
  network = new FetchStub()
    .on('GET /api/roles', () => json(200, roles))
    .on('GET /api/roles/role-auditor', () => json(200, roles[1]))
    .on('DELETE /api/roles/role-auditor', () => new Response(null, { status: 204 }))
    .on('GET /api/roles/role-auditor/users', () =>
      json(200, [
        { _id: 'u-ada', username: 'ada', hasRole: hasRole['u-ada'] },
        { _id: 'u-bob', username: 'bob', hasRole: hasRole['u-bob'] },
      ]),
    )
    .on('PUT /api/roles/role-auditor/users/u-ada', () => {
      hasRole['u-ada'] = !hasRole['u-ada'];
      return json(200, { hasRole: hasRole['u-ada'] });
    });
});

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
    network.on('DELETE /api/roles/role-auditor', () => json(500, { message: 'x' }));
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
    network.on('POST /api/roles', () => json(201, { _id: 'role-new', name: 'editors' }));
    const { router } = renderApp('/role', asAdmin);
    await userEvent.type(await screen.findByLabelText(/Name/), 'editors');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/roles'));
    expect(await network.calls('POST /api/roles')[0]!.json()).toEqual({ name: 'editors' });
  });

  it("shows the server's answer and logs 'Error adding role' on failure", async () => {
    network.on('POST /api/roles', () =>
      json(409, { statusCode: 409, error: 'Conflict', message: 'A role with this name exists' }),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/role', asAdmin);
    await userEvent.type(await screen.findByLabelText(/Name/), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Add Role' }));
    expect(
      await screen.findByText('A role with this name exists', { selector: '.MuiAlert-message' }),
    ).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.roles.addContext, expect.anything());
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
    network.on('PUT /api/roles/role-auditor/users/u-ada', () =>
      json(409, {
        statusCode: 409,
        error: 'Conflict',
        message: 'At least one user must keep the admin role',
      }),
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
