import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import { appStarted } from '@/lib/store';
import { ACCESS_TOKEN_KEY } from '@/auth/session';
import { apiError, setupNetwork } from '../helpers/network';
import { fakeToken, renderApp, signedInAs } from '../helpers/render';

const network = setupNetwork(http.get('/api/roles', () => HttpResponse.json([])));

describe('the shell', () => {
  it('shows the red banner word for word, the navigation and the footer', async () => {
    renderApp('/');
    expect(await screen.findByRole('note')).toHaveTextContent(
      'This is a development server. It could be wiped out, changed, down, etc. Do not use sensitive information nor rely on storing data!',
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'An Experimentation' })).toHaveAttribute(
      'href',
      '/',
    );
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} ${t('shell.brand')}`);
    const external = within(footer).getByRole('link');
    expect(external).toHaveAttribute('target', '_blank');
    expect(external.getAttribute('href')).toMatch(/^https:\/\//);
  });

  it('offers Logout instead of Login when signed in; Logout signs out and goes home', async () => {
    window.localStorage.setItem(ACCESS_TOKEN_KEY, 'kept');
    const { store, router } = renderApp('/mexico', signedInAs('ada'));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('button', { name: 'Logout' }));
    expect(store.getState().auth.accessToken).toBeNull();
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(router.state.location.pathname).toBe('/');
    expect(within(nav).getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('goes home on Logout from a private page too, not to the sign-in page', async () => {
    const { store, router } = renderApp('/roles', signedInAs('ada', ['admin']));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(store.getState().auth.accessToken).toBeNull());
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('the error pages', () => {
  it("shows the router's error page, inside the shell, for an unknown path", async () => {
    renderApp('/no/such/page');
    expect(await screen.findByText(t('shell.routerError'))).toBeInTheDocument();
    expect(screen.getByText('404 Not Found')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(t('shell.banner'));
  });
});

describe('a broken session', () => {
  it("says 'Session expired' once, though the page and the session timer both found out", async () => {
    let release!: () => void;
    const refreshAnswered = new Promise<void>((resolve) => (release = resolve));
    network.use(
      http.get('/api/roles', () => apiError(401, 'UNAUTHENTICATED')),
      http.post('/api/auth/refresh-token', async () => {
        await refreshAnswered;
        return apiError(401, 'INVALID_REFRESH_TOKEN');
      }),
    );
    const expired = fakeToken({ sub: 'u1', username: 'ada', roles: ['admin'], exp: 1 });
    const { store, router } = renderApp('/roles', {
      auth: { accessToken: expired, refreshToken: 'spent', user: null },
    });
    // The page's request is refused and waits for the refresh; then the timer asks too.
    await waitFor(() => expect(network.calls('POST /api/auth/refresh-token')).toHaveLength(1));
    store.dispatch(appStarted());
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByText(t('toast.sessionExpired'))).toBeInTheDocument();
    expect(store.getState().ui.toasts.map((t) => t.message)).toEqual([t('toast.sessionExpired')]);
  });
});
