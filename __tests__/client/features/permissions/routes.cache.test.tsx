/**
 * The cache after a route's grants change on /routes: leaving the page and coming back
 * shows the stored grants from the cache, with no second request for the list.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { RoutePermission } from '@common/schemas/permissions';
import { setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const deleteBooks: RoutePermission = {
  _id: 'r2',
  _version: 1,
  routeEntity: 'books',
  routeVerb: 'DELETE',
  routePath: '/api/books/:id',
  allowedRoles: ['admin'],
};
const roles = ['admin', 'contributor', 'viewer'].map((name) => ({ _id: name, name, _version: 1 }));

const network = setupNetwork(
  http.get('/api/routes', () => HttpResponse.json([deleteBooks])),
  http.get('/api/roles', () => HttpResponse.json(roles)),
  http.put('/api/routes/r2', async ({ request }) =>
    HttpResponse.json({ ...deleteBooks, ...((await request.json()) as object) }),
  ),
);

const grantsOfDeleteBooks = () =>
  screen.getByRole('group', { name: 'Roles allowed on DELETE /api/books/:id' });

describe('/routes: the cache after a change of grants', () => {
  it('shows the saved grants after leaving and coming back, without a refetch', async () => {
    const { router } = renderApp('/routes', signedInAs('admin', ['admin']));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Edit DELETE /api/books/:id' }),
    );
    await userEvent.click(within(grantsOfDeleteBooks()).getByRole('button', { name: 'viewer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save DELETE /api/books/:id' }));
    await waitFor(() => expect(network.calls('PUT /api/routes/r2')).toHaveLength(1));
    expect(
      await screen.findByRole('button', { name: 'Edit DELETE /api/books/:id' }),
    ).toBeInTheDocument();

    await act(() => router.navigate('/'));
    await waitFor(() =>
      expect(screen.queryByRole('table', { name: 'books' })).not.toBeInTheDocument(),
    );
    await act(() => router.navigate('/routes'));
    await screen.findByRole('table', { name: 'books' });
    expect(within(grantsOfDeleteBooks()).getByText('viewer')).toBeInTheDocument();
    expect(network.calls('GET /api/routes')).toHaveLength(1);
  });
});
