import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import { apiError, setupNetwork } from '../helpers/network';
import { renderApp, signedInAs } from '../helpers/render';

const roles = [
  { _id: 'role-admin', name: 'admin', _version: 1 },
  { _id: 'role-auditor', name: 'auditor', _version: 1 },
];
const network = setupNetwork(
  http.get('/api/roles', () => HttpResponse.json(roles)),
  http.get('/api/roles/role-auditor', () => HttpResponse.json(roles[1])),
);
const asAdmin = signedInAs('admin', ['admin']);

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => consoleError.mockRestore());

describe('the shared loading, error and empty states', () => {
  it('shows an accessible progress bar while the list loads', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    network.use(
      http.get('/api/roles', async () => {
        await answered;
        return HttpResponse.json(roles);
      }),
    );
    renderApp('/roles', asAdmin);
    expect(await screen.findByRole('progressbar', { name: 'Loading roles' })).toBeInTheDocument();
    answer();
    expect(await screen.findByRole('list', { name: 'Roles' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading roles' })).not.toBeInTheDocument();
  });

  it('says a list could not be loaded, instead of an empty page, and Retry loads it', async () => {
    network.use(http.get('/api/roles', () => apiError(500, 'INTERNAL'), { once: true }));
    renderApp('/roles', asAdmin);
    expect(await screen.findByText(t('common.loadFailed', { what: 'roles' }))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const list = await screen.findByRole('list', { name: 'Roles' });
    expect(within(list).getByText('auditor')).toBeInTheDocument();
    expect(network.calls('GET /api/roles')).toHaveLength(2);
  });

  it("says so on /role/:id/edit when the role's users could not be loaded", async () => {
    network.use(http.get('/api/roles/role-auditor/users', () => apiError(500, 'INTERNAL')));
    renderApp('/role/role-auditor/edit', asAdmin);
    expect(await screen.findByText(t('common.loadFailed', { what: 'users' }))).toBeInTheDocument();
  });

  it('says so on /entities when the list could not be loaded', async () => {
    network.use(http.get('/api/entities', () => apiError(500, 'INTERNAL')));
    renderApp('/entities', asAdmin);
    expect(
      await screen.findByText(t('common.loadFailed', { what: 'entities' })),
    ).toBeInTheDocument();
  });

  it('shows /entities with no entity as empty, with a way to add one', async () => {
    renderApp('/entities', asAdmin);
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('No entities yet');
    expect(within(empty).getByRole('link', { name: 'Add one' })).toHaveAttribute(
      'href',
      '/entities/add',
    );
    await waitFor(() => expect(network.calls('GET /api/entities')).toHaveLength(1));
  });
});
