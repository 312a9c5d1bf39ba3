import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ErrorCode } from '@common/errorCodes';
import { messages } from '@common/messages';
import { apiErrorSchema } from '@common/schemas/apiError';
import { bearer, login } from './helpers/auth';
import { startBookService } from './helpers/bookService';
import { captureLogs } from './helpers/logs';
import { type TestApp, startTestApp } from './helpers/testApp';
import { testDbKinds } from './helpers/testDatabase';

/** Put into requests; never to come back in an answer. */
const ECHO = 'echo-marker';
/** Put into query strings only; never to reach the log. */
const QUERY_SECRET = 'query-secret';
/** A password sent with a write that fails; neither it nor its hash may reach the log. */
const PASSWORD = 'password-secret';
/** An email sent with a write that fails: a parameter of the insert, never to reach the log. */
const PARAM_EMAIL = 'param-secret@example.com';

describe.each(testDbKinds)('the error contract on %s', (kind) => {
  let t: TestApp;
  let service: Awaited<ReturnType<typeof startBookService>>;
  const logs = captureLogs();
  let admin: Record<string, string>;
  let contributor: Record<string, string>;
  let viewer: Record<string, string>;
  beforeAll(async () => {
    service = await startBookService();
    t = await startTestApp(
      kind,
      { LOG_LEVEL: 'info', BOOKS_API_URL: service.url },
      { logStream: logs.stream },
    );
    admin = bearer((await login(t.app, 'admin')).jwt);
    contributor = bearer((await login(t.app, 'contributor')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  /** The answer is the contract's error body, with this status and code, echoing nothing. */
  function expectError(res: LightMyRequestResponse, status: number, code: ErrorCode) {
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = apiErrorSchema.strict().parse(res.json());
    expect(body).toMatchObject({ statusCode: status, code });
    expect(res.body).not.toContain(ECHO);
    expect(res.body).not.toContain(QUERY_SECRET);
    return body;
  }

  const inject = (options: InjectOptions) => t.app.inject(options);

  describe('400', () => {
    it('answers VALIDATION_FAILED naming the field', async () => {
      const res = await inject({
        method: 'POST',
        url: `/api/books/add?${QUERY_SECRET}=1`,
        headers: contributor,
        payload: { title: 'A title', isbn: ECHO },
      });
      const body = expectError(res, 400, 'VALIDATION_FAILED');
      expect(body.fields).toEqual([{ field: 'body.isbn', message: expect.any(String) }]);
    });

    it.each([
      ['malformed JSON', { 'content-type': 'application/json' }, `{"title": "${ECHO}`],
      ['an empty JSON body', { 'content-type': 'application/json' }, ''],
    ])('answers MALFORMED_REQUEST to %s', async (_what, headers, payload) => {
      const res = await inject({
        method: 'POST',
        url: '/api/books/add',
        headers: { ...contributor, ...headers },
        payload,
      });
      expect(expectError(res, 400, 'MALFORMED_REQUEST').message).toBe(
        messages.server.malformedRequest,
      );
    });

    it('answers MALFORMED_REQUEST to a path with a broken percent-encoding', async () => {
      const res = await inject({ url: `/api/entities/%zz${ECHO}` });
      expectError(res, 400, 'MALFORMED_REQUEST');
    });

    it('answers ADMIN_PROTECTED to deleting the admin role', async () => {
      const roles: { _id: string; name: string }[] = (
        await inject({ url: '/api/roles', headers: admin })
      ).json();
      const adminRole = roles.find((role) => role.name === 'admin')!;
      const res = await inject({
        method: 'DELETE',
        url: `/api/roles/${adminRole._id}`,
        headers: admin,
      });
      expectError(res, 400, 'ADMIN_PROTECTED');
    });
  });

  describe('401', () => {
    it.each([
      ['no token', {}],
      ['a token that is no JWT', { authorization: `Bearer ${ECHO}` }],
    ])('answers UNAUTHENTICATED to %s', async (_what, headers) => {
      expectError(await inject({ url: '/api/books', headers }), 401, 'UNAUTHENTICATED');
    });

    it('answers INVALID_CREDENTIALS to a wrong password', async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'viewer', password: ECHO },
      });
      expectError(res, 401, 'INVALID_CREDENTIALS');
    });

    it('answers INVALID_REFRESH_TOKEN to an unknown refresh token', async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        payload: { refreshToken: ECHO },
      });
      expectError(res, 401, 'INVALID_REFRESH_TOKEN');
    });
  });

  it('answers 403 FORBIDDEN to a role that may not call the route', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/books/add',
      headers: viewer,
      payload: { title: ECHO },
    });
    expectError(res, 403, 'FORBIDDEN');
  });

  describe('404', () => {
    it('answers NOT_FOUND for an unknown item', async () => {
      const res = await inject({ url: `/api/roles/${randomUUID()}`, headers: admin });
      expectError(res, 404, 'NOT_FOUND');
    });

    it('answers NOT_FOUND for an unknown /api route, without naming it', async () => {
      const res = await inject({ method: 'POST', url: `/api/${ECHO}?${QUERY_SECRET}=1` });
      expect(expectError(res, 404, 'NOT_FOUND').message).toBe(messages.server.apiRouteNotFound);
    });
  });

  describe('409', () => {
    const post = (url: string, payload: object) =>
      inject({ method: 'POST', url, headers: admin, payload });
    const entity = { name: 'Ship', category: 'Vehicles', fields: [{ name: 'hull' }] };

    it('answers EMAIL_TAKEN to registering an email twice, or giving a user a taken one', async () => {
      const register = () =>
        inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email: 'twice@example.com', password: PASSWORD },
        });
      expect((await register()).statusCode).toBe(200);
      expectError(await register(), 409, 'EMAIL_TAKEN');
      const res = await post('/api/users', {
        username: 'someone-else',
        email: 'TWICE@example.com',
        password: PASSWORD,
      });
      expectError(res, 409, 'EMAIL_TAKEN');
    });

    it('answers USERNAME_TAKEN to a taken username', async () => {
      const res = await post('/api/users', { username: 'viewer', password: PASSWORD });
      expectError(res, 409, 'USERNAME_TAKEN');
    });

    it('answers NAME_TAKEN to a taken role name and a taken entity name', async () => {
      expectError(await post('/api/roles', { name: 'viewer' }), 409, 'NAME_TAKEN');
      expect((await post('/api/entities', entity)).statusCode).toBe(201);
      expectError(await post('/api/entities', entity), 409, 'NAME_TAKEN');
    });

    it('answers ID_TAKEN to a record id that exists', async () => {
      const record = { _id: randomUUID(), fields: { hull: 'steel' } };
      expect((await post('/api/entity-records/Ship', record)).statusCode).toBe(201);
      expectError(await post('/api/entity-records/Ship', record), 409, 'ID_TAKEN');
    });

    it('answers LAST_ADMIN to taking the admin role from the last admin', async () => {
      const roles: { _id: string; name: string }[] = (
        await inject({ url: '/api/roles', headers: admin })
      ).json();
      const adminRole = roles.find((role) => role.name === 'admin')!;
      const users: { _id: string; username: string }[] = (
        await inject({ url: '/api/users', headers: admin })
      ).json();
      const adminUser = users.find((user) => user.username === 'admin')!;
      const res = await inject({
        method: 'PUT',
        url: `/api/roles/${adminRole._id}/users/${adminUser._id}`,
        headers: admin,
      });
      expectError(res, 409, 'LAST_ADMIN');
    });
  });

  it('answers 413 PAYLOAD_TOO_LARGE to a body past the limit', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/books/add',
      headers: contributor,
      payload: { title: ECHO.repeat(200_000) },
    });
    expect(expectError(res, 413, 'PAYLOAD_TOO_LARGE').message).toBe(
      messages.server.payloadTooLarge,
    );
  });

  it('answers 414 URI_TOO_LONG to a path parameter past the router limit', async () => {
    const res = await inject({ url: `/api/entities/${ECHO.repeat(20)}`, headers: admin });
    expect(expectError(res, 414, 'URI_TOO_LONG').message).toBe(messages.server.uriTooLong);
  });

  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a body of a type the route does not take', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/books/add',
      headers: { ...contributor, 'content-type': `application/x-${ECHO}` },
      payload: ECHO,
    });
    expect(expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE').message).toBe(
      messages.server.unsupportedMediaType,
    );
  });

  it('answers 429 RATE_LIMITED with Retry-After once a sign-in is tried too often', async () => {
    const username = `nobody-${randomUUID()}`;
    const attempt = () =>
      inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: ECHO },
        remoteAddress: '10.9.8.7',
      });
    let res = await attempt();
    for (let i = 0; i < t.config.authRateLimit; i++) res = await attempt();
    expectError(res, 429, 'RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers 431 HEADERS_TOO_LARGE, in the error shape, to headers past the limit', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/api/books`, {
      headers: { 'x-filler': ECHO.repeat(2_000) },
    });
    expect(res.status).toBe(431);
    const text = await res.text();
    expect(text).not.toContain(ECHO);
    expect(apiErrorSchema.strict().parse(JSON.parse(text))).toEqual({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      code: 'HEADERS_TOO_LARGE',
      message: messages.server.headersTooLarge,
    });
  });

  it('answers 500 INTERNAL to a database fault, logging no SQL, parameter or password hash', async () => {
    // A constraint no code knows of: its violation is a fault, not a conflict.
    await t.database.db.execute(
      sql`alter table users add constraint test_no_doomed_user check (username <> 'doomed')`,
    );
    const res = await inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: { username: 'doomed', email: PARAM_EMAIL, password: PASSWORD },
    });
    expect(expectError(res, 500, 'INTERNAL').message).toBe(messages.server.internal);
    const logged = logs.entries().find((entry) => entry.msg === 'Unhandled error');
    expect(logged?.err).toMatchObject({
      type: 'DrizzleQueryError',
      code: '23514',
      constraint: 'test_no_doomed_user',
      table: 'users',
    });
    const written = logs.lines.join('\n');
    expect(written).not.toMatch(/\$argon2|insert into|Failed query|params:/i);
    expect(written).not.toContain(PASSWORD);
    expect(written).not.toContain(PARAM_EMAIL);
  });

  it('logs a conflicting insert without its parameters (the password hash among them)', async () => {
    logs.lines.length = 0;
    const res = await inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: { username: 'contributor', email: PARAM_EMAIL, password: PASSWORD },
    });
    expectError(res, 409, 'USERNAME_TAKEN');
    const logged = logs.entries().find((entry) => entry.msg === 'Answered 409 USERNAME_TAKEN');
    expect(logged?.err).toMatchObject({ code: '23505', constraint: 'users_username_unique' });
    const written = logs.lines.join('\n');
    expect(written).not.toMatch(/\$argon2|insert into|Failed query|params:/i);
    expect(written).not.toContain(PARAM_EMAIL);
  });

  it('answers 502 BOOK_LOOKUP_UNAVAILABLE when the lookup service fails', async () => {
    service.answer(500, { error: ECHO });
    const res = await inject({
      url: `/api/books/search-book?title=${QUERY_SECRET}`,
      headers: viewer,
    });
    expectError(res, 502, 'BOOK_LOOKUP_UNAVAILABLE');
  });

  it('answers 503 SIGN_IN_PROVIDER_NOT_CONFIGURED for Google sign-in without its settings', async () => {
    expectError(
      await inject({ url: `/api/auth/google?${QUERY_SECRET}=1` }),
      503,
      'SIGN_IN_PROVIDER_NOT_CONFIGURED',
    );
  });

  it('answers 503 CLIENT_NOT_BUILT to a page when the web app is not built', async () => {
    const other = await t.startAnother({
      STATIC_DIR: mkdtempSync(path.join(os.tmpdir(), 'empty-')),
    });
    const body = expectError(
      await other.inject({ url: `/books?${QUERY_SECRET}=${ECHO}` }),
      503,
      'CLIENT_NOT_BUILT',
    );
    expect(body.message).toBe(messages.server.clientNotBuilt);
  });

  it('logs requests by their path, without the query string', async () => {
    logs.lines.length = 0;
    await inject({ url: `/api/LIMS/jobs?filter=${QUERY_SECRET}`, headers: viewer });
    await inject({ url: `/api/users/identify?token=${QUERY_SECRET}` });
    const requests = logs.entries().flatMap((entry) => (entry.req ? [entry.req] : []));
    expect(requests).toEqual([
      expect.objectContaining({ method: 'GET', path: '/api/LIMS/jobs' }),
      expect.objectContaining({ method: 'GET', path: '/api/users/identify' }),
    ]);
    expect(logs.lines.join('\n')).not.toContain(QUERY_SECRET);
  });
});
