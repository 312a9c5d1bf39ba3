import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, login as signIn, PASSWORDS } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

const BUDGET = 5;
const randomIp = () => `10.${[...randomBytes(3)].join('.')}`;

/** The device cookie a sign-in set, as a Cookie header's `name=value`. */
function deviceCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name.startsWith('device-'));
  if (!cookie) throw new Error('No device cookie was set');
  return `${cookie.name}=${cookie.value}`;
}

describe.each(testDbKinds)('the password attempts of one username, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { PASSWORD_ATTEMPTS_PER_USER: String(BUDGET) });
  });
  afterAll(() => t.close());

  const login = (username: string, password: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
      // Every guess from an address of its own: the per-address limits never stop it.
      remoteAddress: randomIp(),
      headers: cookie ? { cookie } : {},
    });
  const failedSignInsAs = async (username: string) => {
    const admin = bearer((await signIn(t.app, 'admin')).jwt);
    const res = await t.app.inject({
      url: '/api/audit?action=auth.login_failed&perPage=100',
      headers: admin,
    });
    return (res.json().events as { summary: string }[]).filter(
      (event) => event.summary === `Failed sign-in as ${JSON.stringify(username)}`,
    ).length;
  };

  it('are checked at most the budget a minute, from every address together; the owner still gets in', async () => {
    // The owner signed in on this browser before: it holds their device cookie.
    const owned = await login('viewer', PASSWORDS.viewer!);
    expect(owned.statusCode).toBe(200);
    const device = deviceCookieOf(owned);
    expect(owned.cookies[0]).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth',
    });

    // A flood of guesses in parallel, each from another address, some in other capitals.
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(i % 2 ? 'viewer' : 'VIEWER', `guess-${i}`)),
    );
    const statuses = guesses.map((res) => res.statusCode);
    // The owner's sign-in spent one of the budget; the rest were refused unchecked.
    expect(statuses.filter((status) => status === 401)).toHaveLength(BUDGET - 1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - (BUDGET - 1));
    expect(Number(guesses.find((res) => res.statusCode === 429)!.headers['retry-after'])).toBe(60);
    // Only what was checked is a failed sign-in in the audit log.
    expect((await failedSignInsAs('viewer')) + (await failedSignInsAs('VIEWER'))).toBe(BUDGET - 1);

    // The right password from a browser without the cookie waits like any guess.
    expect((await login('viewer', PASSWORDS.viewer!)).statusCode).toBe(429);
    // The owner's browser gets in.
    expect((await login('viewer', PASSWORDS.viewer!, device)).statusCode).toBe(200);
    // Other users are not held back.
    expect((await login('contributor', PASSWORDS.contributor!)).statusCode).toBe(200);

    // A minute later the budget is whole again.
    t.clock.advance(61_000);
    expect((await login('viewer', PASSWORDS.viewer!)).statusCode).toBe(200);
  });

  it('takes no device cookie of another account, nor one it did not sign', async () => {
    const other = deviceCookieOf(await login('contributor', PASSWORDS.contributor!));
    const admin = await login('admin', PASSWORDS.admin!);
    const adminId = JSON.parse(Buffer.from(admin.json().jwt.split('.')[1], 'base64url').toString())
      .sub as string;
    for (let i = 0; i < BUDGET; i++) await login('admin', `guess-${i}`);
    // Another account's cookie under this account's name, and a cookie made up.
    const renamed = `device-${adminId}=${other.split('=').slice(1).join('=')}`;
    const forged = `device-${adminId}=${encodeURIComponent(`${adminId}.made-up.signature`)}`;
    for (const cookie of [renamed, forged])
      expect((await login('admin', PASSWORDS.admin!, cookie)).statusCode).toBe(429);
    t.clock.advance(61_000);
  });

  it('ends the device cookies of a user whose password an administrator sets', async () => {
    const owned = await login('contributor', PASSWORDS.contributor!);
    const device = deviceCookieOf(owned);
    const id = JSON.parse(Buffer.from(owned.json().jwt.split('.')[1], 'base64url').toString())
      .sub as string;
    const admin = bearer((await signIn(t.app, 'admin')).jwt);
    const setPassword = (password: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/users/${id}/password`,
        headers: admin,
        payload: { password },
      });
    expect((await setPassword('a-new-password')).statusCode).toBe(204);
    for (let i = 0; i < BUDGET; i++) await login('contributor', `guess-${i}`);
    expect((await login('contributor', 'a-new-password', device)).statusCode).toBe(429);
    await setPassword(PASSWORDS.contributor!);
    t.clock.advance(61_000);
  });

  it('holds a device cookie to a budget of its own, should it be stolen', async () => {
    const device = deviceCookieOf(await login('contributor', PASSWORDS.contributor!));
    t.clock.advance(61_000);
    // The budget of the cookie, then the user's.
    const statuses = [];
    for (let i = 0; i < BUDGET * 2 + 1; i++)
      statuses.push((await login('contributor', `guess-${i}`, device)).statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(BUDGET * 2);
    expect(statuses.at(-1)).toBe(429);
    t.clock.advance(61_000);
  });
});
