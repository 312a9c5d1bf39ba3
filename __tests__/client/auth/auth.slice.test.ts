import { makeStore } from '@/app/store';
import {
  loadAuthState,
  loggedIn,
  loggedOut,
  selectCurrentUser,
  selectIsAuthenticated,
  tokenRefreshed,
} from '@/auth/auth.slice';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '@/auth/session';
import { fakeToken } from '../helpers/render';

const token = (username: string) =>
  fakeToken({ sub: `id-${username}`, username, roles: ['viewer'] });

beforeEach(() => window.localStorage.clear());

describe('the auth slice', () => {
  it('starts signed out when the browser keeps no token', () => {
    const store = makeStore({ auth: loadAuthState() });
    expect(selectIsAuthenticated(store.getState())).toBe(false);
    expect(selectCurrentUser(store.getState())).toBeNull();
  });

  it('signs in: keeps both tokens in storage under their own keys and decodes the user', () => {
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: token('ada'), refreshToken: 'r1' }));
    expect(selectCurrentUser(store.getState())).toMatchObject({
      username: 'ada',
      roles: ['viewer'],
    });
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe(token('ada'));
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r1');
  });

  it('restores the session from storage when the app starts again', () => {
    makeStore().dispatch(loggedIn({ accessToken: token('ada'), refreshToken: 'r1' }));
    const restarted = makeStore({ auth: loadAuthState() });
    expect(selectCurrentUser(restarted.getState())?.username).toBe('ada');
  });

  it('stores a refreshed access token, and the rotated refresh token when one comes', () => {
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: token('ada'), refreshToken: 'r1' }));
    store.dispatch(tokenRefreshed({ accessToken: token('ada2') }));
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r1');
    store.dispatch(tokenRefreshed({ accessToken: token('ada3'), refreshToken: 'r2' }));
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBe(token('ada3'));
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r2');
  });

  it('signs out: forgets the user and removes both tokens', () => {
    const store = makeStore();
    store.dispatch(loggedIn({ accessToken: token('ada'), refreshToken: 'r1' }));
    store.dispatch(loggedOut());
    expect(selectIsAuthenticated(store.getState())).toBe(false);
    expect(window.localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
  });
});
