import { adminHeaders, bearer, login as signIn, registerUser } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

const DAY_MS = 86_400_000;

describe.each(testDbKinds)('personal access tokens, on %s', (kind) => {
  let t: TestApp;
  let asAdmin: () => Promise<Record<string, string>>;
  beforeAll(async () => {
    t = await startTestApp(kind, { AUTH_RATE_LIMIT: '1000' });
    asAdmin = adminHeaders(t.app, t.clock);
  });
  afterAll(() => t.close());

  const call = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers, payload });
  const roleId = async (name: string) =>
    (
      (await call('GET', '/api/roles', await asAdmin())).json() as { _id: string; name: string }[]
    ).find((role) => role.name === name)!._id;
  /** A new account holding `role`: its session headers and id. */
  async function member(role: string) {
    const { email } = await registerUser(t.app);
    const users = (await call('GET', '/api/users', await asAdmin())).json() as {
      _id: string;
      username: string;
    }[];
    const id = users.find((u) => u.username === email)!._id;
    await call('PUT', `/api/roles/${await roleId(role)}/users/${id}`, await asAdmin());
    return { id, email, session: bearer((await signIn(t.app, email, 'a-good-password')).jwt) };
  }
  const create = (
    session: Record<string, string>,
    routes: [string, string][],
    expiresInDays = 30,
  ) =>
    call('POST', '/api/auth/access-tokens', session, {
      name: `script ${Math.random()}`,
      expiresInDays,
      routes: routes.map(([routeVerb, routePath]) => ({ routeVerb, routePath })),
    });

  it('is shown once, listed without itself, and reaches only its routes', async () => {
    const { session, email } = await member('contributor');
    const made = await create(session, [['GET', '/api/books']]);
    expect(made.statusCode).toBe(201);
    const { token, accessToken } = made.json();
    expect(token).toMatch(/^pat_[\w-]{43}$/);
    expect(accessToken).toMatchObject({ prefix: token.slice(0, 12), lastUsedAt: null });
    const listed = (await call('GET', '/api/auth/access-tokens', session)).body;
    expect(listed).toContain(accessToken._id);
    expect(listed).not.toContain(token);

    const pat = bearer(token);
    expect((await call('GET', '/api/books', pat)).statusCode).toBe(200);
    // Its owner may add books; the token may not.
    const write = await call('POST', '/api/books/add', pat, { title: 'By script' });
    expect(write.statusCode).toBe(403);
    expect(write.json().code).toBe('TOKEN_SCOPE');
    // What belongs to a session: the user's factors, tokens and event stream.
    for (const url of [
      '/api/auth/factors',
      '/api/auth/access-tokens',
      '/api/auth/permissions',
      '/api/auth/preferences',
    ]) {
      const res = await call('GET', url, pat);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('TOKEN_SCOPE');
    }
    const setLanguage = await call('PUT', '/api/auth/preferences', pat, { locale: 'fr' });
    expect(setLanguage.json().code).toBe('TOKEN_SCOPE');
    const [listedToken] = (await call('GET', '/api/auth/access-tokens', session)).json();
    expect(listedToken.lastUsedAt).not.toBeNull();
    // It is its owner in the audit log.
    const created = (
      await call('GET', '/api/audit?action=auth.access_token_created', await asAdmin())
    ).json();
    expect(created.events.some((e: { actor: { name: string } }) => e.actor.name === email)).toBe(
      true,
    );
  });

  it('acts as its owner, and the audit log says so', async () => {
    const { session, email } = await member('contributor');
    const pat = bearer((await create(session, [['POST', '/api/books/add']])).json().token);
    const made = await call('POST', '/api/books/add', pat, { title: `Scripted ${kind}` });
    expect(made.statusCode).toBe(201);
    const audit = (
      await call('GET', '/api/audit?action=book.create&perPage=100', await asAdmin())
    ).json();
    expect(
      audit.events.some(
        (e: { actor: { name: string }; summary: string }) =>
          e.actor.name === email && e.summary.includes(`Scripted ${kind}`),
      ),
    ).toBe(true);
  });

  it('may not name a route its owner may not call', async () => {
    const { session } = await member('viewer');
    const res = await create(session, [
      ['GET', '/api/books'],
      ['POST', '/api/books/add'],
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { field: 'body.routes.1', message: 'is not a route you may call' },
    ]);
  });

  it('loses a route at once when its owner loses the role that gave it', async () => {
    const { id, session } = await member('viewer');
    const pat = bearer((await create(session, [['GET', '/api/books']])).json().token);
    expect((await call('GET', '/api/books', pat)).statusCode).toBe(200);
    await call('PUT', `/api/roles/${await roleId('viewer')}/users/${id}`, await asAdmin());
    const res = await call('GET', '/api/books', pat);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  it('ends at its expiry, and when revoked (on every server)', async () => {
    const { session } = await member('viewer');
    const expiring = bearer((await create(session, [['GET', '/api/books']], 1)).json().token);
    const { token, accessToken } = (await create(session, [['GET', '/api/books']])).json();
    const other = await t.startAnother();
    expect((await other.inject({ url: '/api/books', headers: bearer(token) })).statusCode).toBe(
      200,
    );

    const revoked = await call('DELETE', `/api/auth/access-tokens/${accessToken._id}`, session);
    expect(revoked.statusCode).toBe(204);
    const after = await other.inject({ url: '/api/books', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(
      (await call('DELETE', `/api/auth/access-tokens/${accessToken._id}`, session)).statusCode,
    ).toBe(404);

    t.clock.advance(DAY_MS + 1000);
    expect((await call('GET', '/api/books', expiring)).statusCode).toBe(401);
  });

  it('ends with its owner', async () => {
    const { id, session } = await member('viewer');
    const pat = bearer((await create(session, [['GET', '/api/books']])).json().token);
    expect((await call('DELETE', `/api/users/${id}`, await asAdmin())).statusCode).toBe(204);
    expect((await call('GET', '/api/books', pat)).statusCode).toBe(401);
  });

  it('is made only by a recent sign-in, so a stolen session cannot make itself a lasting one', async () => {
    const { email } = await member('viewer');
    const { refreshToken } = await signIn(t.app, email, 'a-good-password');
    t.clock.advance(11 * 60_000);
    // The session goes on (refreshed), but its sign-in is too old to add a credential.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh-token',
      payload: { refreshToken },
    });
    const late = await create(bearer(refreshed.json().accessToken), [['GET', '/api/books']]);
    expect(late.statusCode).toBe(403);
    expect(late.json().code).toBe('RECENT_SIGN_IN_REQUIRED');
  });

  it('ends when an admin sets its owner’s password', async () => {
    const { id, session } = await member('viewer');
    const pat = bearer((await create(session, [['GET', '/api/books']])).json().token);
    const set = await call('PUT', `/api/users/${id}/password`, await asAdmin(), {
      password: 'a-new-password-1',
    });
    expect(set.statusCode).toBe(204);
    expect((await call('GET', '/api/books', pat)).statusCode).toBe(401);
  });

  it('is not told its owner by /api/users/identify', async () => {
    const { session } = await member('viewer');
    const { token } = (await create(session, [['GET', '/api/books']])).json();
    const res = await t.app.inject({
      url: '/api/users/identify',
      headers: { 'x-access-token': token },
    });
    expect(res.statusCode).toBe(401);
  });

  it('changes no existing user through an import unless it names the update route', async () => {
    const admin = await asAdmin();
    const { id, email } = await member('viewer');
    const { token } = (await create(admin, [['POST', '/api/users']])).json();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/users/import?dryRun=false&mode=valid',
      headers: { ...bearer(token), 'content-type': 'text/csv' },
      payload: `_id,Username\n${id},renamed-by-token\n`,
    });
    // A file of ids changes users: the token names no route that does.
    expect(res.statusCode).toBe(403);
    const users = (await call('GET', '/api/users', admin)).json() as {
      _id: string;
      username: string;
    }[];
    expect(users.find((u) => u._id === id)!.username).toBe(email);
  });
});
