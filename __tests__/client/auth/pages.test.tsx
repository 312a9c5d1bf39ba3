import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import { apiError, setupNetwork } from '../helpers/network';
import { fakeToken, renderApp, signedInAs } from '../helpers/render';

const tokenFor = (username: string) =>
  fakeToken({
    sub: `id-${username}`,
    username,
    roles: [],
    exp: Math.floor(Date.now() / 1000) + 300,
  });

const network = setupNetwork();
beforeEach(() => window.localStorage.clear());

describe('/login', () => {
  it('signs in and goes back to the private page that was asked for', async () => {
    network.use(
      http.post('/api/auth/login', () =>
        HttpResponse.json({ jwt: tokenFor('ada'), refreshToken: 'r1' }),
      ),
      http.get('/api/routes', () => HttpResponse.json([])),
      http.get('/api/roles', () => HttpResponse.json([])),
    );
    const { router, store } = renderApp('/routes');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));

    await userEvent.type(await screen.findByLabelText(/Username/), 'ada');
    await userEvent.type(screen.getByLabelText(/Password/), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/routes'));
    expect(store.getState().auth.user?.username).toBe('ada');
    expect(await network.calls('POST /api/auth/login')[0]!.json()).toEqual({
      username: 'ada',
      password: 'secret-password',
    });
  });

  it('says authentication failed on bad credentials, with no toast', async () => {
    network.use(
      http.post('/api/auth/login', () =>
        apiError(401, 'INVALID_CREDENTIALS', 'Invalid username or password'),
      ),
    );
    const { store } = renderApp('/login');
    await userEvent.type(await screen.findByLabelText(/Username/), 'ada');
    await userEvent.type(screen.getByLabelText(/Password/), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(t('login.failed'))).toBeInTheDocument();
    expect(store.getState().ui.toasts).toEqual([]);
  });

  it('shows the too-many-attempts message when sign-ins are rate limited', async () => {
    network.use(
      http.post('/api/auth/login', () =>
        apiError(429, 'RATE_LIMITED', 'Too many attempts; try again in 60 s'),
      ),
    );
    renderApp('/login');
    await userEvent.type(await screen.findByLabelText(/Username/), 'ada');
    await userEvent.type(screen.getByLabelText(/Password/), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many attempts; try again in 60 s',
    );
    expect(screen.queryByText(t('login.failed'))).not.toBeInTheDocument();
  });

  it('says under each empty input that it is required, sending nothing', async () => {
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Login' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Username/)).toHaveAccessibleDescription('is required'),
    );
    expect(screen.getByLabelText(/Password/)).toHaveAccessibleDescription('is required');
    expect(network.calls('POST /api/auth/login')).toHaveLength(0);
  });

  it('links to Forgot Password? and Register', async () => {
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Forgot Password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
  });

  it("logs 'Error triggering Google registration' when Google sign-in cannot start", async () => {
    network.use(
      http.get('/api/auth/google', () =>
        apiError(503, 'SIGN_IN_PROVIDER_NOT_CONFIGURED', 'not configured'),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/login');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with Google' }));
    expect(await screen.findByText('not configured')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.auth.googleContext, expect.anything());
    consoleError.mockRestore();
  });
});

describe('/register', () => {
  it('registers with email and password and signs in', async () => {
    network.use(
      http.post('/api/auth/register', () =>
        HttpResponse.json({ jwt: tokenFor('new@example.com'), refreshToken: 'r1' }),
      ),
    );
    const { router, store } = renderApp('/register');
    await userEvent.type(await screen.findByLabelText(/Email/), 'new@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.user?.username).toBe('new@example.com');
  });

  it('shows the email and password rules under their inputs before sending anything', async () => {
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText(/Email/), 'not-an-email');
    await userEvent.type(screen.getByLabelText(/Password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Password/)).toHaveAccessibleDescription(
        'must be at least 8 characters',
      ),
    );
    expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription(
      'must be a valid email address',
    );
    expect(network.requests).toHaveLength(0);
  });

  it("says 'is required' under an empty email and an empty password", async () => {
    renderApp('/register');
    await userEvent.click(await screen.findByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Password/)).toHaveAccessibleDescription('is required'),
    );
    expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription('is required');
    expect(network.requests).toHaveLength(0);
  });

  it("shows the fields of the server's 400 under the inputs they name", async () => {
    network.use(
      http.post('/api/auth/register', () =>
        apiError(400, 'VALIDATION_FAILED', 'invalid', [
          { field: 'body.password', message: 'must not contain control characters' },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText(/Email/), 'new@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Password/)).toHaveAccessibleDescription(
        'must not contain control characters',
      ),
    );
    consoleError.mockRestore();
  });

  it("shows a taken email under the email and logs 'Error registering with email'", async () => {
    network.use(
      http.post('/api/auth/register', () =>
        apiError(409, 'EMAIL_TAKEN', 'An account with this email already exists'),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText(/Email/), 'taken@example.com');
    await userEvent.type(screen.getByLabelText(/Password/), 'long-enough');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Email/)).toHaveAccessibleDescription(
        'An account with this email already exists',
      ),
    );
    expect(screen.getByLabelText(/Email/)).toHaveValue('taken@example.com');
    expect(consoleError).toHaveBeenCalledWith(messages.auth.registerContext, expect.anything());
    consoleError.mockRestore();
  });
});

describe('/google-callback/', () => {
  it('stores the tokens, makes the identify answer the user, and goes home', async () => {
    const token = tokenFor('grace@example.com');
    network.use(
      http.get('/api/users/identify', () =>
        HttpResponse.json({
          _id: 'g1',
          username: 'grace@example.com',
          email: 'grace@example.com',
          roles: [],
        }),
      ),
    );
    const { router, store } = renderApp(`/google-callback/?token=${token}&refreshToken=r1`);
    expect(await screen.findByText(t('auth.loggingInWithGoogle'))).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.user).toEqual({
      _id: 'g1',
      username: 'grace@example.com',
      email: 'grace@example.com',
      roles: [],
    });
    expect(window.localStorage.getItem('refreshToken')).toBe('r1');
    expect(network.calls('GET /api/users/identify')[0]!.headers.get('x-access-token')).toBe(token);
  });

  it('goes to /Login when identify fails', async () => {
    network.use(
      http.get('/api/users/identify', () => apiError(401, 'UNAUTHENTICATED', 'bad')),
      // The undecodable token makes the session try a refresh, which fails too.
      http.post('/api/auth/refresh-token', () => apiError(401, 'INVALID_REFRESH_TOKEN')),
    );
    const { router, store } = renderApp('/google-callback/?token=bad&refreshToken=r1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/Login'));
    expect(store.getState().auth.accessToken).toBeNull();
  });
});

describe('the navigation when signed in', () => {
  it('offers Roles, Users, Entities, Experimental, Routes and Logout', async () => {
    renderApp('/', signedInAs('ada'));
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['Home', '/'],
      ['Roles', '/roles'],
      ['Users', '/users'],
      ['Routes', '/routes'],
    ]) {
      expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('button', { name: 'Entities' }));
    const entities = await screen.findByRole('navigation', { name: 'Entities' });
    expect(within(entities).getByRole('link', { name: 'Manage...' })).toHaveAttribute(
      'href',
      '/entities',
    );
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(nav).getByRole('button', { name: 'Experimental' }));
    const experimental = await screen.findByRole('navigation', { name: 'Experimental' });
    expect(within(experimental).getByRole('link', { name: 'Job' })).toHaveAttribute(
      'href',
      '/lims/jobs',
    );
  });
});
