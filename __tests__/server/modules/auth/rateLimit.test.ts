import { randomBytes } from 'node:crypto';
import { type TestApp, startTestApp } from '../../helpers/testApp';

const attempt = (t: TestApp, username: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password: 'wrong-password' },
    remoteAddress,
  });

// Redis keeps counters between runs: every address and username is new to it.
const randomName = () => `user-${randomBytes(6).toString('hex')}`;
const randomIp = () => `10.${[...randomBytes(3)].join('.')}`;

describe.each([
  ['in memory', {}],
  ['in Redis', { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' }],
])('rate limits, counted %s', (_where, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT: '3', ...env });
  });
  afterAll(() => t.close());

  it('answer 429 with Retry-After once an address tries too often', async () => {
    const ip = randomIp();
    for (let i = 0; i < 3; i++) expect((await attempt(t, randomName(), ip)).statusCode).toBe(401);
    const limited = await attempt(t, randomName(), ip);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json().message).toMatch(/Too many attempts/);
    // Another address is not affected.
    expect((await attempt(t, randomName(), randomIp())).statusCode).toBe(401);
  });

  it('answer 429 once one username is tried too often, from any address', async () => {
    const username = randomName();
    for (let i = 0; i < 3; i++)
      expect((await attempt(t, username, randomIp())).statusCode).toBe(401);
    expect((await attempt(t, username, randomIp())).statusCode).toBe(429);
  });

  it('also limit registration and refresh', async () => {
    const ip = randomIp();
    const register = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'bad', password: 'x' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 3; i++) expect((await register()).statusCode).toBe(400);
    expect((await register()).statusCode).toBe(429);

    const refresh = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        payload: { refreshToken: 'unknown' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 9; i++) expect((await refresh()).statusCode).toBe(401);
    expect((await refresh()).statusCode).toBe(429);
  });
});

describe('the in-memory window', () => {
  it('lets attempts through again once the minute has passed', async () => {
    const t = await startTestApp('pglite', { AUTH_RATE_LIMIT: '1' });
    const ip = randomIp();
    expect((await attempt(t, randomName(), ip)).statusCode).toBe(401);
    expect((await attempt(t, randomName(), ip)).statusCode).toBe(429);
    t.clock.advance(61_000);
    expect((await attempt(t, randomName(), ip)).statusCode).toBe(401);
    await t.close();
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT: '1', TRUST_PROXY: '192.0.2.0/24' });
  });
  afterAll(() => t.close());

  it('counts the client address a trusted proxy forwards, and ignores it from anyone else', async () => {
    const from = (peer: string, forwardedFor: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: randomName(), password: 'wrong-password' },
        remoteAddress: peer,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    const [client, otherClient] = [randomIp(), randomIp()];
    expect((await from('192.0.2.7', client)).statusCode).toBe(401);
    // Another client through the same proxy has a count of its own.
    expect((await from('192.0.2.7', otherClient)).statusCode).toBe(401);
    expect((await from('192.0.2.7', client)).statusCode).toBe(429);
    // A peer that is not a trusted proxy cannot choose the address it is counted under.
    const spoofer = randomIp();
    expect((await from(spoofer, randomIp())).statusCode).toBe(401);
    expect((await from(spoofer, randomIp())).statusCode).toBe(429);
  });
});
