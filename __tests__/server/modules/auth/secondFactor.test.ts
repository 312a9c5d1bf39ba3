import { generateSync } from 'otplib';
import { totpSecrets } from '../../../../server/db/schema/signInFactors';
import { adminHeaders, bearer, login as signIn, registerUser } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

const PASSWORD = 'a-good-password';

describe.each(testDbKinds)('a second factor (authenticator app), on %s', (kind) => {
  let t: TestApp;
  let asAdmin: () => Promise<Record<string, string>>;
  beforeAll(async () => {
    t = await startTestApp(kind, { PASSWORD_ATTEMPTS_PER_USER: '100', AUTH_RATE_LIMIT: '1000' });
    asAdmin = adminHeaders(t.app, t.clock);
  });
  afterAll(() => t.close());

  /** The authenticator app's code now, by the server's clock. */
  const codeOf = (secret: string) =>
    generateSync({ secret, epoch: Math.floor(t.clock.time / 1000) });
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const login = (username: string) => post('/api/auth/login', { username, password: PASSWORD });
  const secondFactor = (challenge: string, code: string) =>
    post('/api/auth/login/second-factor', { challenge, code });
  const auditOf = async (action: string) => {
    const res = await t.app.inject({
      url: `/api/audit?action=${action}&perPage=100`,
      headers: await asAdmin(),
    });
    return res.json().events as { actor: { name: string } | null; summary: string }[];
  };

  /** A new account with a confirmed authenticator app: its headers, secret and recovery codes. */
  async function enrolled() {
    const { jwt, email } = await registerUser(t.app);
    const headers = bearer(jwt);
    const started = await post('/api/auth/authenticator', {}, headers);
    expect(started.statusCode).toBe(200);
    const { secret } = started.json();
    const confirmed = await post(
      '/api/auth/authenticator/confirm',
      { code: codeOf(secret) },
      headers,
    );
    expect(confirmed.statusCode).toBe(200);
    t.clock.advance(30_000); // the confirming code is spent
    return { email, headers, secret, recoveryCodes: confirmed.json().recoveryCodes as string[] };
  }

  it('is set up from a QR code or its secret, confirmed by a code, and kept encrypted', async () => {
    const { jwt } = await registerUser(t.app);
    const headers = bearer(jwt);
    const started = await post('/api/auth/authenticator', {}, headers);
    const { secret, uri, qrCode } = started.json();
    expect(secret).toMatch(/^[A-Z2-7]{26,}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(
      Buffer.from(qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString(),
    ).toContain('<svg');
    // Not on until a code of it confirms it: sign-in does not ask for it yet.
    const factors = await t.app.inject({ url: '/api/auth/factors', headers });
    expect(factors.json()).toMatchObject({ totp: false, recoveryCodesLeft: 0, passkeys: [] });

    const wrong = await post('/api/auth/authenticator/confirm', { code: '000000' }, headers);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('INVALID_SECOND_FACTOR');
    const right = await post('/api/auth/authenticator/confirm', { code: codeOf(secret) }, headers);
    expect(right.statusCode).toBe(200);
    expect(right.json().recoveryCodes).toHaveLength(10);
    expect((await t.app.inject({ url: '/api/auth/factors', headers })).json()).toMatchObject({
      totp: true,
      recoveryCodesLeft: 10,
    });
    // A second set-up is refused while one is on.
    expect((await post('/api/auth/authenticator', {}, headers)).json().code).toBe(
      'SECOND_FACTOR_ON',
    );

    // At rest the secret is sealed: the database never holds it as it is.
    const rows = await t.app.db.select().from(totpSecrets);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.secret).toMatch(/^v1\./);
    expect(rows.some((row) => row.secret.includes(secret))).toBe(false);
  });

  it('is asked for after the password; a wrong or replayed code is refused, and a step signs in once', async () => {
    const { email, secret } = await enrolled();
    const first = await login(email);
    expect(first.statusCode).toBe(200);
    const step = first.json().secondFactor;
    expect(first.json().jwt).toBeUndefined();
    expect(step).toMatchObject({ methods: ['totp', 'recovery_code'], enrol: false });

    const wrong = await secondFactor(step.challenge, '123456');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('INVALID_SECOND_FACTOR');
    expect((await auditOf('auth.second_factor_failed')).some((e) => e.actor?.name === email)).toBe(
      true,
    );

    const code = codeOf(secret);
    const right = await secondFactor(step.challenge, code);
    expect(right.statusCode).toBe(200);
    expect(right.json().jwt).toEqual(expect.any(String));
    expect(right.cookies.some((c) => c.name.startsWith('device-'))).toBe(true);
    expect(
      (await auditOf('auth.login')).some(
        (e) =>
          e.actor?.name === email &&
          e.summary === 'Signed in with an authenticator code (second step)',
      ),
    ).toBe(true);
    // The step is spent.
    expect((await secondFactor(step.challenge, code)).json().code).toBe('SIGN_IN_EXPIRED');

    // The same code again, in another sign-in within its 30 seconds: a replay.
    const again = (await login(email)).json().secondFactor;
    expect((await secondFactor(again.challenge, code)).json().code).toBe('INVALID_SECOND_FACTOR');
    t.clock.advance(30_000);
    expect((await secondFactor(again.challenge, codeOf(secret))).statusCode).toBe(200);
  });

  it('takes each recovery code once, however it is typed', async () => {
    const { email, headers, recoveryCodes } = await enrolled();
    const [code] = recoveryCodes;
    const step = (await login(email)).json().secondFactor;
    const typed = ` ${code!.toUpperCase().replace('-', ' ')} `;
    const used = await secondFactor(step.challenge, typed);
    expect(used.statusCode).toBe(200);
    expect(
      (await auditOf('auth.login')).some(
        (e) => e.summary === 'Signed in with a recovery code (second step)',
      ),
    ).toBe(true);
    const next = (await login(email)).json().secondFactor;
    expect((await secondFactor(next.challenge, code!)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/auth/factors', headers })).json().recoveryCodesLeft,
    ).toBe(9);
  });

  it('gives a step five tries and five minutes', async () => {
    const { email, secret } = await enrolled();
    const step = (await login(email)).json().secondFactor;
    for (let i = 0; i < 5; i++)
      expect((await secondFactor(step.challenge, '000000')).statusCode).toBe(401);
    expect((await secondFactor(step.challenge, codeOf(secret))).json().code).toBe(
      'SIGN_IN_EXPIRED',
    );

    const late = (await login(email)).json().secondFactor;
    t.clock.advance(301_000);
    expect((await secondFactor(late.challenge, codeOf(secret))).json().code).toBe(
      'SIGN_IN_EXPIRED',
    );
  });

  it('is turned off with a code, and then sign-in asks for none', async () => {
    const { email, headers, secret } = await enrolled();
    const wrong = await post('/api/auth/authenticator/disable', { code: '000000' }, headers);
    expect(wrong.json().code).toBe('INVALID_SECOND_FACTOR');
    const off = await post('/api/auth/authenticator/disable', { code: codeOf(secret) }, headers);
    expect(off.statusCode).toBe(204);
    expect((await login(email)).json().jwt).toEqual(expect.any(String));
  });

  it('is reset by an admin (audited), not by others', async () => {
    const { email, headers } = await enrolled();
    const me = (await t.app.inject({ url: '/api/auth/permissions', headers })).statusCode;
    expect(me).toBe(200);
    const users = (await t.app.inject({ url: '/api/users', headers: await asAdmin() })).json() as {
      _id: string;
      username: string;
    }[];
    const user = users.find((u) => u.username === email)!;
    const viewer = bearer((await signIn(t.app, 'viewer')).jwt);
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${user._id}/second-factor`,
      headers: viewer,
    });
    expect(refused.statusCode).toBe(403);
    const reset = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${user._id}/second-factor`,
      headers: await asAdmin(),
    });
    expect(reset.statusCode).toBe(204);
    expect((await auditOf('user.second_factor_reset')).some((e) => e.summary.includes(email))).toBe(
      true,
    );
    expect((await login(email)).json().jwt).toEqual(expect.any(String));
  });

  it('is required by a role: its members set one up at their next sign-in, and cannot remove their last', async () => {
    const { email, jwt } = await registerUser(t.app);
    const role = (await post('/api/roles', { name: `secure-${kind}` }, await asAdmin())).json();
    const users = (await t.app.inject({ url: '/api/users', headers: await asAdmin() })).json() as {
      _id: string;
      username: string;
    }[];
    const user = users.find((u) => u.username === email)!;
    await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${role._id}/users/${user._id}`,
      headers: await asAdmin(),
    });
    const required = await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${role._id}/second-factor`,
      payload: { required: true },
      headers: await asAdmin(),
    });
    expect(required.statusCode).toBe(200);
    expect(required.json()).toMatchObject({ requireSecondFactor: true });
    expect((await auditOf('role.update')).some((e) => e.summary.includes(role.name))).toBe(true);
    // Only admins may require it.
    const byViewer = await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${role._id}/second-factor`,
      payload: { required: false },
      headers: bearer((await signIn(t.app, 'viewer')).jwt),
    });
    expect(byViewer.statusCode).toBe(403);

    const step = (await login(email)).json().secondFactor;
    expect(step).toMatchObject({ methods: [], enrol: true });
    // Without a code of the app set up in this step, no session.
    expect((await secondFactor(step.challenge, '000000')).statusCode).toBe(401);
    const { secret } = (
      await post('/api/auth/login/authenticator', { challenge: step.challenge })
    ).json();
    const done = await secondFactor(step.challenge, codeOf(secret));
    expect(done.statusCode).toBe(200);
    expect(done.json().recoveryCodes).toHaveLength(10);
    // The step may not set one up once there is one.
    const next = (await login(email)).json().secondFactor;
    expect(next.enrol).toBe(false);
    expect(
      (await post('/api/auth/login/authenticator', { challenge: next.challenge })).json().code,
    ).toBe('SIGN_IN_EXPIRED');

    t.clock.advance(30_000);
    const off = await post(
      '/api/auth/authenticator/disable',
      { code: codeOf(secret) },
      bearer(jwt),
    );
    expect(off.statusCode).toBe(409);
    expect(off.json().code).toBe('SECOND_FACTOR_REQUIRED');
  });

  it('counts codes against the account’s attempt budget', async () => {
    const budgeted = await startTestApp(kind, { PASSWORD_ATTEMPTS_PER_USER: '3' });
    try {
      const { jwt, email } = await registerUser(budgeted.app);
      const headers = bearer(jwt);
      const { secret } = (
        await budgeted.app.inject({ method: 'POST', url: '/api/auth/authenticator', headers })
      ).json();
      const code = generateSync({ secret, epoch: Math.floor(budgeted.clock.time / 1000) });
      await budgeted.app.inject({
        method: 'POST',
        url: '/api/auth/authenticator/confirm',
        payload: { code },
        headers,
      });
      const { challenge } = (
        await budgeted.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: email, password: PASSWORD },
        })
      ).json().secondFactor;
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await budgeted.app.inject({
          method: 'POST',
          url: '/api/auth/login/second-factor',
          payload: { challenge, code: '000000' },
        });
        statuses.push(res.statusCode);
      }
      // The password and two codes fill the budget of 3; the next code is refused unchecked.
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await budgeted.close();
    }
  });

  it('refuses codes, without a fault, once the secrets key changed', async () => {
    const { email, secret, recoveryCodes } = await enrolled();
    const other = await t.startAnother({
      SECRETS_KEY: 'another key of at least thirty-two characters',
    });
    const step = (
      await other.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: email, password: PASSWORD },
      })
    ).json().secondFactor;
    const code = await other.inject({
      method: 'POST',
      url: '/api/auth/login/second-factor',
      payload: { challenge: step.challenge, code: codeOf(secret) },
    });
    expect(code.statusCode).toBe(401);
    expect(code.json().code).toBe('INVALID_SECOND_FACTOR');
    // Recovery codes are digested with the key too: an admin's reset is the way back in.
    const recovery = await other.inject({
      method: 'POST',
      url: '/api/auth/login/second-factor',
      payload: { challenge: step.challenge, code: recoveryCodes[0] },
    });
    expect(recovery.statusCode).toBe(401);
  });

  it('makes new recovery codes for an authenticator code only; a recovery code typed there stays unspent', async () => {
    const { headers, secret, recoveryCodes } = await enrolled();
    const withRecovery = await post(
      '/api/auth/authenticator/recovery-codes',
      { code: recoveryCodes[0]! },
      headers,
    );
    expect(withRecovery.json().code).toBe('INVALID_SECOND_FACTOR');
    expect(
      (await auditOf('auth.second_factor_failed')).some((e) => e.summary.includes('Security page')),
    ).toBe(true);
    expect(
      (await t.app.inject({ url: '/api/auth/factors', headers })).json().recoveryCodesLeft,
    ).toBe(10);
    const renewed = await post(
      '/api/auth/authenticator/recovery-codes',
      { code: codeOf(secret) },
      headers,
    );
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().recoveryCodes).toHaveLength(10);
    expect(renewed.json().recoveryCodes).not.toContain(recoveryCodes[0]);
  });

  it('is set up only by a recent sign-in', async () => {
    const { jwt, refreshToken } = await registerUser(t.app);
    t.clock.advance(11 * 60_000);
    // The session goes on (refreshed), but it signed in too long ago to add a factor.
    const refreshed = await post('/api/auth/refresh-token', { refreshToken });
    expect(refreshed.statusCode).toBe(200);
    expect(jwt).not.toBe(refreshed.json().accessToken);
    const res = await post('/api/auth/authenticator', {}, bearer(refreshed.json().accessToken));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('RECENT_SIGN_IN_REQUIRED');
    const passkey = await post(
      '/api/auth/passkeys/options',
      {},
      bearer(refreshed.json().accessToken),
    );
    expect(passkey.json().code).toBe('RECENT_SIGN_IN_REQUIRED');
  });

  it('is not reset by an admin for themself (their profile asks for a code)', async () => {
    const admin = await asAdmin();
    const me = (await t.app.inject({ url: '/api/users', headers: admin })).json() as {
      _id: string;
      username: string;
    }[];
    const own = me.find((u) => u.username === 'admin')!;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${own._id}/second-factor`,
      headers: admin,
    });
    expect(res.statusCode).toBe(400);
  });

  it('stays required by a role deleted and restored', async () => {
    const admin = await asAdmin();
    const role = (await post('/api/roles', { name: `kept-${kind}` }, admin)).json();
    await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${role._id}/second-factor`,
      payload: { required: true },
      headers: admin,
    });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/roles/${role._id}`, headers: admin }))
        .statusCode,
    ).toBe(204);
    const restored = await post(`/api/roles/${role._id}/restore`, {}, admin);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().requireSecondFactor).toBe(true);
  });
});
