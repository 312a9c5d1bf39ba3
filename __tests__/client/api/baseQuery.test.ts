import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import { baseQuery } from '@/api/baseQuery';
import { isRequestCanceled } from '@/api/errors';
import { makeStore } from '@/app/store';
import { selectToasts } from '@/ui/ui.slice';
import { apiError, setupNetwork } from '../helpers/network';
import { signedInAs } from '../helpers/render';

const network = setupNetwork(http.get('/api/books', () => HttpResponse.json({ ok: true })));

function callWith(store: ReturnType<typeof makeStore>) {
  const api = {
    dispatch: store.dispatch,
    getState: store.getState,
    signal: new AbortController().signal,
    abort: () => {},
    extra: undefined,
    endpoint: 'test',
    type: 'query',
  } as unknown as BaseQueryApi;
  return (args: Parameters<typeof baseQuery>[0]) => baseQuery(args, api, {});
}

describe('baseQuery', () => {
  it('sends the bearer token and includes credentials when signed in', async () => {
    const store = makeStore(signedInAs('ada'));
    const result = await callWith(store)('/api/books');
    expect(result.data).toEqual({ ok: true });
    const [request] = network.calls('GET /api/books');
    expect(request!.url).toBe('http://localhost/api/books');
    expect(request!.headers.get('authorization')).toBe(
      `Bearer ${store.getState().auth.accessToken}`,
    );
    expect(request!.credentials).toBe('include');
  });

  it('sends no authorization header when signed out', async () => {
    await callWith(makeStore())('/api/books');
    expect(network.calls('GET /api/books')[0]!.headers.has('authorization')).toBe(false);
  });

  it("rejects a request whose URL is already in flight with 'Request canceled', quietly", async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    network.use(
      http.get(
        '/api/books',
        async () => {
          await answered;
          return HttpResponse.json([]);
        },
        { once: true },
      ),
    );
    const store = makeStore();
    const call = callWith(store);
    const first = call('/api/books?page=1');
    const second = await call('/api/books?page=1');
    expect(second.error).toMatchObject({ status: 'CUSTOM_ERROR', error: messages.requestCanceled });
    expect(isRequestCanceled(second.error)).toBe(true);
    expect(network.calls('GET /api/books')).toHaveLength(1);
    answer();
    expect((await first).data).toEqual([]);
    expect(selectToasts(store.getState())).toEqual([]);

    // Once the first one is done, the same URL goes through again.
    expect((await call('/api/books?page=1')).data).toEqual({ ok: true });
  });

  it.each([
    [401, 'UNAUTHENTICATED', 'toast.sessionExpired'],
    [403, 'FORBIDDEN', 'toast.notAllowed'],
    [404, 'NOT_FOUND', 'toast.notFound'],
    [500, 'INTERNAL', 'toast.notAllowed'],
  ] as const)('turns a %i %s answer into the toast %s', async (status, code, toast) => {
    network.use(http.get('/api/anything', () => apiError(status, code, 'x')));
    const store = makeStore();
    const result = await callWith(store)('/api/anything');
    expect(result.error).toMatchObject({ status });
    expect(selectToasts(store.getState()).map((t) => [t.message, t.variant])).toEqual([
      [t(toast), 'error'],
    ]);
  });

  it("shows the server's message for a conflict, which tells the person what to change", async () => {
    network.use(
      http.get('/api/anything', () => apiError(409, 'NAME_TAKEN', 'A role with this name exists')),
    );
    const store = makeStore();
    await callWith(store)('/api/anything');
    expect(selectToasts(store.getState()).map((t) => t.message)).toEqual([
      'A role with this name exists',
    ]);
  });

  it('shows the not-allowed toast when the server cannot be reached', async () => {
    network.use(http.get('/api/anything', () => HttpResponse.error()));
    const store = makeStore();
    const result = await callWith(store)('/api/anything');
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR' });
    expect(selectToasts(store.getState())[0]?.message).toBe(t('toast.notAllowed'));
  });
});
