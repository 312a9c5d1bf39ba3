import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { delay, http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import { baseQuery } from '@/api/baseQuery';
import { makeStore } from '@/app/store';
import { apiError, setupNetwork } from '../helpers/network';
import { fakeToken } from '../helpers/render';

const fresh = fakeToken({ sub: 'u1', username: 'ada', exp: Math.floor(Date.now() / 1000) + 300 });

function callerFor(store: ReturnType<typeof makeStore>) {
  const api = {
    dispatch: store.dispatch,
    getState: store.getState,
    signal: new AbortController().signal,
  } as unknown as BaseQueryApi;
  return (url: string) => baseQuery(url, api, {});
}

const respondByToken = ({ request }: { request: Request }) =>
  request.headers.get('authorization') === `Bearer ${fresh}`
    ? HttpResponse.json({ ok: true })
    : apiError(401, 'UNAUTHENTICATED', 'expired');

const network = setupNetwork(
  http.get('/api/a', respondByToken),
  http.get('/api/b', respondByToken),
  http.get('/api/c', respondByToken),
);

describe('baseQuery on a 401', () => {
  it('refreshes once for all concurrent callers, then retries each with the new token', async () => {
    network.use(
      http.post('/api/auth/refresh-token', async () => {
        await delay(20);
        return HttpResponse.json({ accessToken: fresh, refreshToken: 'r2' });
      }),
    );
    const store = makeStore({
      auth: { accessToken: 'stale', refreshToken: 'r1', user: null },
    });
    const call = callerFor(store);

    const results = await Promise.all([call('/api/a'), call('/api/b'), call('/api/c')]);
    expect(results.map((r) => r.data)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(network.calls('POST /api/auth/refresh-token')).toHaveLength(1);
    expect(store.getState().auth).toMatchObject({ accessToken: fresh, refreshToken: 'r2' });
    expect(store.getState().ui.toasts).toEqual([]);
    expect(network.calls('GET /api/a')).toHaveLength(2);
  });

  it("logs out and shows 'Session expired' once when the refresh fails", async () => {
    network.use(
      http.post('/api/auth/refresh-token', () => apiError(401, 'INVALID_REFRESH_TOKEN', 'no')),
      http.get('/api/a', () => apiError(401, 'UNAUTHENTICATED', 'expired')),
    );
    const store = makeStore({ auth: { accessToken: 'stale', refreshToken: 'r1', user: null } });
    const result = await callerFor(store)('/api/a');
    expect(result.error).toMatchObject({ status: 401 });
    expect(store.getState().auth.accessToken).toBeNull();
    expect(store.getState().ui.toasts.map((t) => t.message)).toEqual([t('toast.sessionExpired')]);
  });

  it('does not refresh or toast for the sign-in calls, whose pages handle 401 themselves', async () => {
    network.use(http.get('/api/auth/google', () => apiError(401, 'UNAUTHENTICATED')));
    const store = makeStore({ auth: { accessToken: 'stale', refreshToken: 'r1', user: null } });
    await callerFor(store)('/api/auth/google');
    expect(network.calls('POST /api/auth/refresh-token')).toHaveLength(0);
    expect(store.getState().ui.toasts).toEqual([]);
  });
});
