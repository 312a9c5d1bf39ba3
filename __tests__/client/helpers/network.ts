/**
 * The network of client tests: one msw server per test file, with the answers every
 * signed-in page needs, and a record of the requests made. The app under test is real;
 * only what crosses the wire is stubbed.
 *
 * @example
 * const network = setupNetwork(http.get('/api/books', () => HttpResponse.json([])));
 * it('…', async () => {
 *   network.use(http.get('/api/books', () => apiError(403, 'FORBIDDEN')));
 *   …
 *   expect(network.calls('GET /api/books')).toHaveLength(1);
 * });
 */
import { waitFor } from '@testing-library/react';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { API_ROUTES, defaultAllowedRoles } from '@common/apiRoutes';
import type { ErrorCode } from '@common/errorCodes';
import type { FieldError } from '@common/schemas/apiError';
import type { Permissions } from '@common/schemas/permissions';

/** What `GET /api/auth/permissions` answers to a user with `roles` under the default grants. */
export function permissionsFor(roles: string[]): Permissions {
  return {
    roles,
    allowed: API_ROUTES.filter(([verb, path]) =>
      defaultAllowedRoles({ verb, path }).some((role) => roles.includes(role)),
    ).map(([routeVerb, routePath]) => ({ routeVerb, routePath })),
  };
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** An error answer in the API's shape: `{ statusCode, error, code, message, fields? }`. */
/** A records page of `records`, all of them, as the records list answers it. */
export const recordPage = (records: unknown[]) =>
  HttpResponse.json({ records, total: records.length, totalIsEstimate: false });

export function apiError(
  status: number,
  code: ErrorCode,
  message = `stub ${code}`,
  fields?: FieldError[],
) {
  return HttpResponse.json(
    { statusCode: status, error: reasons[status] ?? 'Error', code, message, fields },
    { status },
  );
}

/** A 409 VERSION_CONFLICT as the server answers it, with the item as it is now. */
export const versionConflict = (current: unknown) =>
  HttpResponse.json(
    {
      statusCode: 409,
      error: 'Conflict',
      code: 'VERSION_CONFLICT',
      message: 'Someone else changed this item since you opened it',
      current,
    },
    { status: 409 },
  );

/** The roles claim of the request's bearer token, or undefined without a readable one. */
function rolesOf(request: Request): string[] | undefined {
  const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { roles?: unknown };
    return Array.isArray(claims.roles) ? claims.roles.map(String) : [];
  } catch {
    return undefined;
  }
}

/**
 * The event stream's stand-in: every open `GET /api/events` (it answers `ready` at once)
 * gets what `send` pushes, as the server's SSE would carry it.
 */
export const liveEvents = {
  streams: new Set<ReadableStreamDefaultController<Uint8Array>>(),
  /** Resolves once the app under test has its stream open: what `send` pushes, it hears. */
  opened: () => waitFor(() => expect(liveEvents.streams.size).toBe(1)),
  send(event: string, data: unknown, id?: number) {
    const frame = `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of liveEvents.streams) stream.enqueue(new TextEncoder().encode(frame));
  },
};

/**
 * `GET /api/events` answering `ready` with `ready` as its data, then what `liveEvents.send`
 * pushes. By default (`{}`) it names no stream, as a server from before stream ids.
 */
export const eventStream = (ready: object = {}) =>
  http.get('/api/events', ({ request }) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        liveEvents.streams.add(controller);
        controller.enqueue(
          new TextEncoder().encode(`event: ready\ndata: ${JSON.stringify(ready)}\n\n`),
        );
        request.signal.addEventListener('abort', () => {
          liveEvents.streams.delete(controller);
          controller.error(new DOMException('Aborted', 'AbortError'));
        });
      },
    });
    return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } });
  });

/**
 * What every test gets unless it says otherwise: the navigation's entity list (empty),
 * the permissions of the token's roles under the default grants, logout, no saved views,
 * no language kept for the account (one chosen is kept), and an event stream that carries
 * what `liveEvents.send` pushes.
 */
export const defaultHandlers: RequestHandler[] = [
  eventStream(),
  http.post('/api/events/presence', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/entities', () => HttpResponse.json([])),
  http.get('/api/auth/permissions', ({ request }) => {
    const roles = rolesOf(request);
    return roles ? HttpResponse.json(permissionsFor(roles)) : apiError(401, 'UNAUTHENTICATED');
  }),
  http.post('/api/auth/logout', () => new HttpResponse(null, { status: 204 })),
  http.get('/api/views', () => HttpResponse.json([])),
  http.get('/api/auth/preferences', () => HttpResponse.json({ locale: null })),
  http.put('/api/auth/preferences', async ({ request }) => HttpResponse.json(await request.json())),
];

/** `METHOD /path` of a request, as `calls()` matches it. */
const routeOf = (request: Request) => `${request.method} ${new URL(request.url).pathname}`;

/**
 * Starts one msw server for this test file (call once, at the top level): the default
 * handlers, then `handlers`, which take precedence. Per test, `use()` adds handlers that
 * take precedence over both until the test ends. A request no handler answers fails the
 * test that made it.
 */
export function setupNetwork(...handlers: RequestHandler[]) {
  const server = setupServer(...handlers, ...defaultHandlers);
  /** Every request sent during the current test, in order (clones: bodies can be read). */
  const requests: Request[] = [];
  const unhandled: string[] = [];

  server.events.on('request:start', ({ request }) => {
    requests.push(request.clone());
  });

  beforeAll(() =>
    server.listen({
      onUnhandledRequest: (request, print) => {
        unhandled.push(routeOf(request));
        print.error(); // The request fails as a network error; it never leaves the process.
      },
    }),
  );
  afterEach(() => {
    server.resetHandlers();
    // The next test's app cancels this one's stream; its events go to the next one only.
    liveEvents.streams.clear();
    requests.length = 0;
    const missed = unhandled.splice(0);
    if (missed.length > 0) {
      throw new Error(`Requests no handler answered (add one with network.use): ${missed}`);
    }
  });
  afterAll(() => server.close());

  return {
    server,
    requests,
    /** Adds handlers for the current test, ahead of every other. */
    use: (...extra: RequestHandler[]) => server.use(...extra),
    /** The requests of the current test to `route`, e.g. `'PUT /api/books/b1'` (no query). */
    calls: (route: string) => requests.filter((request) => routeOf(request) === route),
  };
}

export type Network = ReturnType<typeof setupNetwork>;
