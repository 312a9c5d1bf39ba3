import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import { appStarted } from '@/lib/store';
import { makeStore } from '@/app/store';
import { REFRESH_MARGIN_MS } from '@/auth/auth.listeners';
import { loggedIn, loggedOut } from '@/auth/auth.slice';
import { ACCESS_TOKEN_KEY, noteTokenArrived, REFRESH_TOKEN_KEY } from '@/auth/session';
import { apiError, setupNetwork } from '../helpers/network';
import { fakeToken } from '../helpers/render';

const tokenExpiringIn = (seconds: number, username = 'ada') =>
  fakeToken({ sub: 'u1', username, roles: [], exp: Math.floor(Date.now() / 1000) + seconds });

/** Lets the listener's promises run without moving the fake clock. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await jest.advanceTimersByTimeAsync(0);
};

let refreshes = 0;
const network = setupNetwork(
  http.post('/api/auth/refresh-token', async ({ request }) => {
    refreshes += 1;
    const { refreshToken } = (await request.json()) as { refreshToken: string };
    return refreshToken === 'good'
      ? HttpResponse.json({
          accessToken: tokenExpiringIn(300, `ada${refreshes}`),
          refreshToken: 'good',
        })
      : apiError(401, 'INVALID_REFRESH_TOKEN', 'no');
  }),
);
beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2026-06-01T12:00:00Z') });
  window.localStorage.clear();
  refreshes = 0;
});
afterEach(() => {
  jest.useRealTimers();
  // The page's knowledge of the server's clock, back to none (it lives as long as the page).
  noteTokenArrived(undefined);
});

describe('the session listener', () => {
  it('schedules the refresh at the token life minus the margin, then again after each refresh', async () => {
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: tokenExpiringIn(300), refreshToken: 'good' }));
    await jest.advanceTimersByTimeAsync(300_000 - REFRESH_MARGIN_MS - 1000);
    expect(refreshes).toBe(0);
    await jest.advanceTimersByTimeAsync(1000);
    await settle();
    expect(refreshes).toBe(1);
    expect(store.getState().auth.user?.username).toBe('ada1');
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe(store.getState().auth.accessToken);

    await jest.advanceTimersByTimeAsync(300_000 - REFRESH_MARGIN_MS);
    await settle();
    expect(refreshes).toBe(2);
  });

  it('times the refresh by the server’s clock: a browser ten minutes fast does not refresh without end', async () => {
    // Tokens as the server issues them, by its clock, ten minutes behind this browser's.
    const serverToken = (username: string) => {
      const iat = Math.floor((Date.now() - 600_000) / 1000);
      return fakeToken({ sub: 'u1', username, roles: [], iat, exp: iat + 300 });
    };
    network.use(
      http.post('/api/auth/refresh-token', () => {
        refreshes += 1;
        // Refreshing without end: the third is refused, ending the storm (and the session).
        if (refreshes > 2) return apiError(401, 'INVALID_REFRESH_TOKEN', 'no');
        return HttpResponse.json({
          accessToken: serverToken(`ada${refreshes}`),
          refreshToken: 'good',
        });
      }),
    );
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: serverToken('ada'), refreshToken: 'good' }));
    await settle();
    await jest.advanceTimersByTimeAsync(300_000 - REFRESH_MARGIN_MS - 1000);
    expect(refreshes).toBe(0);
    await jest.advanceTimersByTimeAsync(1000);
    await settle();
    expect(refreshes).toBe(1);
    // The new token, too, lives its five minutes.
    await jest.advanceTimersByTimeAsync(60_000);
    expect(refreshes).toBe(1);
    expect(store.getState().auth.user?.username).toBe('ada1');
  });

  it('refreshes at once on start when the stored access token has expired', async () => {
    const store = makeStore({
      auth: { accessToken: tokenExpiringIn(-10), refreshToken: 'good', user: null },
    });
    store.dispatch(appStarted());
    await settle();
    expect(refreshes).toBe(1);
    expect(store.getState().auth.user?.username).toBe('ada1');
  });

  it('logs out on start when the access token has expired and there is no refresh token', async () => {
    const store = makeStore({
      auth: { accessToken: tokenExpiringIn(-10), refreshToken: null, user: null },
    });
    store.dispatch(appStarted());
    await settle();
    expect(refreshes).toBe(0);
    expect(store.getState().auth.accessToken).toBeNull();
  });

  it('logs out, saying the session expired, when the refresh fails', async () => {
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: tokenExpiringIn(-1), refreshToken: 'bad' }));
    await settle();
    expect(refreshes).toBe(1);
    expect(store.getState().auth.accessToken).toBeNull();
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(store.getState().ui.toasts.map((t) => t.message)).toContain(t('toast.sessionExpired'));
  });

  it('on logout cancels the timer and revokes the refresh token', async () => {
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: tokenExpiringIn(300), refreshToken: 'good' }));
    store.dispatch(loggedOut());
    await settle();
    const [logout] = network.calls('POST /api/auth/logout');
    expect(await logout!.json()).toEqual({ refreshToken: 'good' });
    await jest.advanceTimersByTimeAsync(600_000);
    expect(refreshes).toBe(0);
  });

  it("keeps each store's timer its own: another store's sign-in and logout cancel nothing", async () => {
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: tokenExpiringIn(300), refreshToken: 'good' }));
    const other = makeStore();
    other.dispatch(loggedIn({ accessToken: tokenExpiringIn(300, 'grace'), refreshToken: 'good' }));
    other.dispatch(loggedOut());
    await jest.advanceTimersByTimeAsync(300_000 - REFRESH_MARGIN_MS);
    await settle();
    expect(refreshes).toBe(1);
    expect(store.getState().auth.user?.username).toBe('ada1');
  });

  it('follows a logout and a sign-in made in another tab', async () => {
    const store = makeStore();
    store.dispatch(appStarted());
    const other = tokenExpiringIn(300, 'grace');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'good');
    window.dispatchEvent(new StorageEvent('storage', { key: ACCESS_TOKEN_KEY, newValue: other }));
    expect(store.getState().auth.user?.username).toBe('grace');

    window.localStorage.removeItem(ACCESS_TOKEN_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: ACCESS_TOKEN_KEY, newValue: null }));
    expect(store.getState().auth.accessToken).toBeNull();
  });
});
