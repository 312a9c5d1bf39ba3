import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { PREVIEW_ROLE_HEADER } from '@common/constants';
import { apiError, permissionsFor, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const roles = [
  { _id: 'role-admin', name: 'admin', _version: 1 },
  { _id: 'role-contributor', name: 'contributor', _version: 1 },
];

// The server narrows an admin's request to the role the preview header names.
const network = setupNetwork(
  http.get('/api/roles', ({ request }) =>
    request.headers.get(PREVIEW_ROLE_HEADER)
      ? apiError(403, 'FORBIDDEN')
      : HttpResponse.json(roles),
  ),
  http.post('/api/auth/preview', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/auth/permissions', ({ request }) => {
    const previewed = request.headers.get(PREVIEW_ROLE_HEADER);
    return HttpResponse.json(permissionsFor(previewed ? [previewed] : ['admin']));
  }),
);

describe('an admin previewing the screens as a role', () => {
  it('shows the screens as the role would, without asking for what it may not read, and comes back', async () => {
    renderApp('/roles', signedInAs('admin', ['admin']));
    const list = await screen.findByRole('list', { name: 'Roles' });
    await within(list).findByText('contributor');
    await userEvent.click(screen.getByRole('button', { name: 'See the screens as contributor' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'You are seeing the screens as the role contributor would.',
    );
    // The home page, as the role: the roles list (which a contributor may not read) is not
    // asked for again as the role, to be refused and reported.
    await waitFor(() =>
      expect(
        network
          .calls('GET /api/auth/permissions')
          .some((request) => request.headers.get(PREVIEW_ROLE_HEADER) === 'contributor'),
      ).toBe(true),
    );
    expect(await screen.findByRole('heading', { name: /Hello, admin/ })).toBeInTheDocument();
    expect(network.calls('GET /api/roles')).toHaveLength(1);
    await userEvent.click(screen.getByRole('link', { name: 'Roles' }));
    expect(await screen.findByText(/does not allow/)).toBeInTheDocument();
    expect(network.calls('GET /api/roles')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Back to my view' }));
    const back = await screen.findByRole('list', { name: 'Roles' });
    expect(await within(back).findByText('admin')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
  });
});
