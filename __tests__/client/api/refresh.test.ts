import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { messages } from '@common/messages';
import { baseQuery } from '@/api/baseQuery';
import { makeStore } from '@/app/store';
import { FetchStub, json } from '../helpers/fetchStub';
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

describe('baseQuery on a 401', () => {
  it('refreshes once for all concurrent callers, then retries each with the new token', async () => {
    let refreshes = 0;
    const network = new FetchStub()
      .on('POST /api/auth/refresh-token', async () => {
        refreshes += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return json(200, { accessToken: fresh, refreshToken: 'r2' });
      })
      .on('GET /api/a', (r) => respondByToken(r))
      .on('GET /api/b', (r) => respondByToken(r))
      .on('GET /api/c', (r) => respondByToken(r));
    function respondByToken(request: Request) {
      return request.headers.get('authorization') === `Bearer ${fresh}`
        ? json(200, { ok: true })
        : json(401, { statusCode: 401, error: 'Unauthorized', message: 'expired' });
    }
    const store = makeStore({
      auth: { accessToken: 'stale', refreshToken: 'r1', user: null },
    });
    const call = callerFor(store);

    const results = await Promise.all([call('/api/a'), call('/api/b'), call('/api/c')]);
    expect(results.map((r) => r.data)).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(refreshes).toBe(1);
    expect(store.getState().auth).toMatchObject({ accessToken: fresh, refreshToken: 'r2' });
    expect(store.getState().ui.toasts).toEqual([]);
    expect(network.calls('GET /api/a')).toHaveLength(2);
  });

  it("logs out and shows 'Session expired' when the refresh fails", async () => {
    new FetchStub()
      .on('POST /api/auth/refresh-token', () => json(401, { message: 'no' }))
      .on('GET /api/a', () => json(401, { message: 'expired' }));
    const store = makeStore({ auth: { accessToken: 'stale', refreshToken: 'r1', user: null } });
    const result = await callerFor(store)('/api/a');
    expect(result.error).toMatchObject({ status: 401 });
    expect(store.getState().auth.accessToken).toBeNull();
    expect(store.getState().ui.toasts.map((t) => t.message)).toEqual([
      messages.toast.sessionExpired,
    ]);
  });

  it('does not refresh or toast for the sign-in calls, whose pages handle 401 themselves', async () => {
    const network = new FetchStub().on('GET /api/auth/google', () => json(401, { message: 'x' }));
    const store = makeStore({ auth: { accessToken: 'stale', refreshToken: 'r1', user: null } });
    await callerFor(store)('/api/auth/google');
    expect(network.calls('POST /api/auth/refresh-token')).toHaveLength(0);
    expect(store.getState().ui.toasts).toEqual([]);
  });
});
