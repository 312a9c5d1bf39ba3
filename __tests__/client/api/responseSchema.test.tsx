import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import { setupNetwork } from '../helpers/network';
import { renderApp, signedInAs } from '../helpers/render';

const network = setupNetwork();

describe('answers outside the contract', () => {
  it('fail the query, naming the endpoint, instead of reaching the screen', async () => {
    network.use(http.get('/api/roles', () => HttpResponse.json([{ id: 1, title: 'admin' }])));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/roles', signedInAs('admin', ['admin']));
    expect(await screen.findByText(t('common.loadFailed', { what: 'roles' }))).toBeInTheDocument();
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(
        'The answer of listRoles does not match its schema',
        expect.anything(),
      ),
    );
    consoleError.mockRestore();
  });
});
