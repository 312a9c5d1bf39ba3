import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { messages } from '@common/messages';
import { REFRESH_GRACE_MS } from '@server/modules/auth/session.service';
import { bearer, login, PASSWORDS, registerUser } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('auth on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
  const listRoutes = (jwt: string) =>
    t.app.inject({ method: 'GET', url: '/api/routes', headers: bearer(jwt) });

  describe('POST /api/auth/login', () => {
    it('answers a 5-minute access token with the user claims and a refresh token', async () => {
      const { jwt, refreshToken } = await login(t.app, 'contributor');
      const claims = decodeJwt(jwt);
      expect(claims).toMatchObject({
        username: 'contributor',
        email: null,
        roles: ['contributor'],
      });
      expect(claims.sub).toMatch(/^[0-9a-f-]{36}$/);
      expect(claims.exp! - claims.iat!).toBe(300);
      expect(refreshToken.length).toBeGreaterThanOrEqual(40);
    });

    it('answers 401 with the same message for an unknown user and a wrong password', async () => {
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'viewer', password: 'not-the-password' },
      });
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'nobody-at-all', password: 'not-the-password' },
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json()).toMatchObject({
        code: 'INVALID_CREDENTIALS',
        message: messages.server.invalidCredentials,
      });
    });

    it('answers 400 naming the missing fields', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: {} });
      expect(res.statusCode).toBe(400);
      expect(
        res
          .json()
          .fields.map((f: { field: string }) => f.field)
          .sort(),
      ).toEqual(['body.password', 'body.username']);
    });
  });

  describe('the access token', () => {
    it('is accepted until it expires, 5 minutes after it was issued, and refused after', async () => {
      const { jwt } = await login(t.app, 'admin');
      t.clock.advance(299_000);
      expect((await listRoutes(jwt)).statusCode).toBe(200);
      t.clock.advance(2_000);
      const expired = await listRoutes(jwt);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toMatchObject({
        code: 'UNAUTHENTICATED',
        message: messages.server.invalidAccessToken,
      });
    });

    it('is refused when signed with another key', async () => {
      const { jwt } = await login(t.app, 'admin');
      const forged = await new SignJWT(decodeJwt(jwt))
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode('x'.repeat(48)));
      expect((await listRoutes(forged)).statusCode).toBe(401);
      expect((await listRoutes('not.a.token')).statusCode).toBe(401);
    });

    it('is signed with a key kept in the database, shared by every server on it', async () => {
      const other = await t.startAnother();
      const { jwt } = await login(other, 'admin');
      expect((await listRoutes(jwt)).statusCode).toBe(200);
    });
  });

  describe('POST /api/auth/refresh-token', () => {
    it('answers a new access token and a rotated refresh token', async () => {
      const first = await login(t.app, 'viewer');
      t.clock.advance(1000);
      const res = await refresh(first.refreshToken);
      expect(res.statusCode).toBe(200);
      const { accessToken, refreshToken } = res.json();
      expect(decodeJwt(accessToken)).toMatchObject({ username: 'viewer' });
      expect(refreshToken).not.toBe(first.refreshToken);
      expect((await refresh(refreshToken)).statusCode).toBe(200);
    });

    it('answers the same successor to a race within the grace window', async () => {
      const { refreshToken } = await login(t.app, 'viewer');
      const [a, b] = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.json().refreshToken).toBe(b.json().refreshToken);
      t.clock.advance(REFRESH_GRACE_MS - 1000);
      const late = await refresh(refreshToken);
      expect(late.json().refreshToken).toBe(a.json().refreshToken);
    });

    it('revokes the whole family when a spent token comes back after the grace window', async () => {
      const { refreshToken: first } = await login(t.app, 'viewer');
      const second = (await refresh(first)).json().refreshToken;
      const third = (await refresh(second)).json().refreshToken;
      t.clock.advance(REFRESH_GRACE_MS + 1000);

      const reuse = await refresh(first);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toMatchObject({
        code: 'INVALID_REFRESH_TOKEN',
        message: messages.server.invalidRefreshToken,
      });
      // The thief's reuse ended the session for its holder too.
      expect((await refresh(third)).statusCode).toBe(401);

      // Other sign-ins of the same user are untouched.
      const elsewhere = await login(t.app, 'viewer');
      expect((await refresh(elsewhere.refreshToken)).statusCode).toBe(200);
    });

    it('refuses an expired refresh token', async () => {
      const { refreshToken } = await login(t.app, 'viewer');
      t.clock.advance(t.config.refreshTokenDays * 86_400_000 + 1000);
      expect((await refresh(refreshToken)).statusCode).toBe(401);
    });

    it('refuses an unknown refresh token', async () => {
      expect((await refresh('made-up-token')).statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/logout', () => {
    it('revokes the refresh token and its successors', async () => {
      const { refreshToken } = await login(t.app, 'viewer');
      const next = (await refresh(refreshToken)).json().refreshToken;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: next },
      });
      expect(res.statusCode).toBe(204);
      expect((await refresh(next)).statusCode).toBe(401);
    });
  });

  describe('POST /api/auth/register', () => {
    it('creates a user named by the email, with no role, and signs them in', async () => {
      const { jwt, email } = await registerUser(t.app, 'New.Person@Example.com');
      expect(email).toBe('New.Person@Example.com');
      expect(decodeJwt(jwt)).toMatchObject({
        username: 'new.person@example.com',
        email: 'new.person@example.com',
        roles: [],
      });
      const again = await login(t.app, 'new.person@example.com', 'a-good-password');
      expect(again.jwt).toBeTruthy();
    });

    it('answers 409 for an email that already has an account', async () => {
      await registerUser(t.app, 'taken@example.com');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'TAKEN@example.com', password: 'another-password' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'EMAIL_TAKEN',
        message: messages.server.emailTaken,
      });
    });

    it.each([
      [{ email: 'not-an-email', password: 'a-good-password' }, 'body.email'],
      [{ email: 'short@example.com', password: 'short' }, 'body.password'],
      [{ email: 'long@example.com', password: 'x'.repeat(129) }, 'body.password'],
    ])('answers 400 for %p', async (payload, field) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toEqual([field]);
    });
  });

  describe('GET /api/users/identify', () => {
    it('answers the user of the token in x-access-token, even one with no role', async () => {
      const { jwt, email } = await registerUser(t.app);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/users/identify?token=${jwt}`,
        headers: { 'x-access-token': jwt },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        _id: decodeJwt(jwt).sub,
        username: email.toLowerCase(),
        email: email.toLowerCase(),
        roles: [],
      });
    });

    it('answers 401 for an invalid or expired token', async () => {
      const bad = await t.app.inject({
        method: 'GET',
        url: '/api/users/identify',
        headers: { 'x-access-token': 'garbage' },
      });
      expect(bad.statusCode).toBe(401);
      const { jwt } = await login(t.app, 'viewer');
      t.clock.advance(301_000);
      const expired = await t.app.inject({
        method: 'GET',
        url: '/api/users/identify',
        headers: { 'x-access-token': jwt },
      });
      expect(expired.statusCode).toBe(401);
    });
  });
});

describe('a configured JWT_SECRET', () => {
  it('signs the access tokens', async () => {
    const secret = 's'.repeat(40);
    const t = await startTestApp('pglite', { JWT_SECRET: secret });
    const { jwt } = await login(t.app, 'viewer');
    const { jwtVerify } = await import('jose');
    await expect(jwtVerify(jwt, new TextEncoder().encode(secret))).resolves.toBeTruthy();
    await t.close();
  });

  it.each(['not-a-user-id', '00000000-0000-4000-8000-000000000000'])(
    'refuses with 401 a well-signed token whose subject is %j, no user',
    async (sub) => {
      const secret = 's'.repeat(40);
      const t = await startTestApp('pglite', { JWT_SECRET: secret });
      const { jwt } = await login(t.app, 'admin');
      const token = await new SignJWT({ ...decodeJwt(jwt), sub })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(secret));
      const res = await t.app.inject({ method: 'GET', url: '/api/books', headers: bearer(token) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      await t.close();
    },
  );
});

describe('answers that carry tokens', () => {
  it('may not be stored by any cache', async () => {
    const t = await startTestApp('pglite');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'viewer', password: PASSWORDS.viewer },
    });
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      payload: { refreshToken: signIn.json().refreshToken },
    });
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'new-person@example.com', password: 'a-good-password' },
    });
    for (const res of [signIn, refreshed, registered]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    await t.close();
  });
});

describe.each(testDbKinds)('a session that ends on %s', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    // A second server on the same database, as behind a load balancer.
    other = await t.startAnother();
    admin = (await login(t.app, 'admin')).jwt;
  });
  afterAll(() => t.close());

  /** The status `jwt` gets from `app` (any signed-in user may ask for their permissions). */
  const statusOn = async (app: FastifyInstance, jwt: string) =>
    (await app.inject({ url: '/api/auth/permissions', headers: bearer(jwt) })).statusCode;
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });

  it('ends its access tokens on every server at logout, and no other session of the user', async () => {
    const { jwt, refreshToken, email } = await registerUser(t.app);
    const elsewhere = await login(t.app, email, 'a-good-password');
    expect(await statusOn(other, jwt)).toBe(200);
    expect((await post('/api/auth/logout', { refreshToken })).statusCode).toBe(204);
    expect(await statusOn(other, jwt)).toBe(401);
    expect(await statusOn(t.app, jwt)).toBe(401);
    expect(await statusOn(other, elsewhere.jwt)).toBe(200);
  });

  it('ends every access token of the session when a spent refresh token comes back', async () => {
    const { jwt, refreshToken } = await registerUser(t.app);
    const refreshed = (await post('/api/auth/refresh-token', { refreshToken })).json();
    expect(await statusOn(other, refreshed.accessToken)).toBe(200);
    t.clock.advance(REFRESH_GRACE_MS + 1000);
    expect((await post('/api/auth/refresh-token', { refreshToken })).statusCode).toBe(401);
    expect(await statusOn(other, jwt)).toBe(401);
    expect(await statusOn(other, refreshed.accessToken)).toBe(401);
  });

  it('ends the access tokens of a user whose password is set, or who is deleted', async () => {
    const changed = await registerUser(t.app);
    const deleted = await registerUser(t.app);
    const idOf = (jwt: string) => decodeJwt(jwt).sub!;
    expect([await statusOn(other, changed.jwt), await statusOn(other, deleted.jwt)]).toEqual([
      200, 200,
    ]);
    const setPassword = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${idOf(changed.jwt)}/password`,
      headers: bearer(admin),
      payload: { password: 'another-good-password' },
    });
    expect(setPassword.statusCode).toBe(204);
    const deletion = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${idOf(deleted.jwt)}`,
      headers: bearer(admin),
    });
    expect(deletion.statusCode).toBe(204);
    expect([await statusOn(other, changed.jwt), await statusOn(other, deleted.jwt)]).toEqual([
      401, 401,
    ]);
  });

  it('is known to a server that starts after it ended', async () => {
    const { jwt, refreshToken } = await registerUser(t.app);
    await post('/api/auth/logout', { refreshToken });
    const later = await t.startAnother();
    expect(await statusOn(later, jwt)).toBe(401);
  });
});
