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
const asAdmin = signedInAs('admin', ['admin']);

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

/** Resolves once the permissions have been asked for `times` times (a 403 asks again). */
const permissionsAsked = (times: number) =>
  waitFor(() => expect(network.calls('GET /api/auth/permissions').length).toBe(times));

describe('an admin previewing the screens as a role', () => {
  it('shows the screens as the role would, every call naming it, and comes back', async () => {
    renderApp('/roles', asAdmin);
    const list = await screen.findByRole('list', { name: 'Roles' });
    await within(list).findByText('contributor');
    await userEvent.click(screen.getByRole('button', { name: 'See the screens as contributor' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'You are seeing the screens as the role contributor would. Exports and imports still go as you.',
    );
    await waitFor(() =>
      expect(
        network.calls('GET /api/auth/permissions').at(-1)!.headers.get(PREVIEW_ROLE_HEADER),
      ).toBe('contributor'),
    );
    await userEvent.click(screen.getByRole('link', { name: 'Roles' }));
    expect(await screen.findByText(/does not allow reading the roles/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Back to my view' }));
    const back = await screen.findByRole('list', { name: 'Roles' });
    expect(await within(back).findByText('admin')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('reports no refusal of a read the role may not make (the screens catching up), as it would without a preview', async () => {
    network.use(http.get('/api/books', () => apiError(403, 'FORBIDDEN')));
    renderApp('/books', { auth: { ...asAdmin.auth!, previewRole: 'contributor' } });
    // The refusal has been handled once the permissions are asked for again.
    await permissionsAsked(2);
    expect(screen.queryByText('You are not allowed to perform this action')).toBeNull();
  });

  it('reports such a refusal without a preview', async () => {
    network.use(http.get('/api/books', () => apiError(403, 'FORBIDDEN')));
    renderApp('/books', asAdmin);
    expect(await screen.findByText('You are not allowed to perform this action')).toBeVisible();
  });
});
