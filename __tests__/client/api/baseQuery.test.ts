import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { messages } from '@common/messages';
import { baseQuery } from '@/api/baseQuery';
import { makeStore } from '@/app/store';
import { selectToasts } from '@/ui/ui.slice';
import { signedInAs } from '../helpers/render';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: jest.Mock<Promise<Response>, [Request]>;
beforeEach(() => {
  fetchMock = jest.fn();
  globalThis.fetch = fetchMock as unknown as typeof fetch;
});

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
    fetchMock.mockResolvedValue(json(200, { ok: true }));
    const store = makeStore(signedInAs('ada'));
    const result = await callWith(store)('/api/books');
    expect(result.data).toEqual({ ok: true });
    const request = fetchMock.mock.calls[0]![0];
    expect(request.url).toBe('http://localhost/api/books');
    expect(request.headers.get('authorization')).toBe(
      `Bearer ${store.getState().auth.accessToken}`,
    );
    expect(request.credentials).toBe('include');
  });

  it('sends no authorization header when signed out', async () => {
    fetchMock.mockResolvedValue(json(200, []));
    await callWith(makeStore())('/api/books');
    expect(fetchMock.mock.calls[0]![0].headers.has('authorization')).toBe(false);
  });

  it("rejects a request whose URL is already in flight with 'Request canceled', quietly", async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const store = makeStore();
    const call = callWith(store);
    const first = call('/api/books?page=1');
    const second = await call('/api/books?page=1');
    expect(second.error).toEqual({ status: 'CUSTOM_ERROR', error: messages.requestCanceled });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    answer(json(200, []));
    expect((await first).data).toEqual([]);
    expect(selectToasts(store.getState())).toEqual([]);

    // Once the first one is done, the same URL goes through again.
    fetchMock.mockResolvedValue(json(200, ['again']));
    expect((await call('/api/books?page=1')).data).toEqual(['again']);
  });

  it.each([
    [401, { message: 'x' }, messages.toast.sessionExpired],
    [403, { message: 'x' }, messages.toast.notAllowed],
    [404, { message: 'x' }, messages.toast.notFound],
    [
      500,
      { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
      messages.toast.notAllowed,
    ],
    [
      409,
      { statusCode: 409, error: 'Conflict', message: 'That role name is taken' },
      'That role name is taken',
    ],
  ])('turns a %i answer into the toast %p', async (status, body, toast) => {
    fetchMock.mockResolvedValue(json(status, body));
    const store = makeStore();
    const result = await callWith(store)('/api/anything');
    expect(result.error).toMatchObject({ status });
    expect(selectToasts(store.getState()).map((t) => [t.message, t.variant])).toEqual([
      [toast, 'error'],
    ]);
  });

  it('shows the not-allowed toast when the server cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const store = makeStore();
    const result = await callWith(store)('/api/anything');
    expect(result.error).toMatchObject({ status: 'FETCH_ERROR' });
    expect(selectToasts(store.getState())[0]?.message).toBe(messages.toast.notAllowed);
  });
});
