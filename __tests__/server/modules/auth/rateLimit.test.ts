import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { PASSWORDS } from '../../helpers/auth';
import { eventually } from '../../helpers/eventually';
import { captureLogs } from '../../helpers/logs';
import { startRedisServer } from '../../helpers/redisServer';
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

const login = (t: TestApp, username: string, password: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    remoteAddress,
  });

describe.each([
  ['in memory', {}],
  [
    'in Redis',
    {
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:`,
    },
  ],
])('rate limits, counted %s', (_where, env) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT: '3', ...env });
  });
  afterAll(() => t.close());

  it('answer 429 with Retry-After once an address tries too many usernames', async () => {
    const ip = randomIp();
    for (let i = 0; i < 9; i++) expect((await attempt(t, randomName(), ip)).statusCode).toBe(401);
    const limited = await attempt(t, randomName(), ip);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json().message).toMatch(/Too many attempts/);
    // Another address is not affected.
    expect((await attempt(t, randomName(), randomIp())).statusCode).toBe(401);
  });

  it('answer 429 once an address tries one username too often, and only to that address', async () => {
    const [username, ip] = [randomName(), randomIp()];
    for (let i = 0; i < 3; i++) expect((await attempt(t, username, ip)).statusCode).toBe(401);
    expect((await attempt(t, username, ip)).statusCode).toBe(429);
    expect((await attempt(t, username, randomIp())).statusCode).toBe(401);
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
    const [username, ip] = [randomName(), randomIp()];
    expect((await attempt(t, username, ip)).statusCode).toBe(401);
    expect((await attempt(t, username, ip)).statusCode).toBe(429);
    t.clock.advance(61_000);
    expect((await attempt(t, username, ip)).statusCode).toBe(401);
    await t.close();
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { AUTH_RATE_LIMIT: '1', TRUST_PROXY: '192.0.2.0/24' });
  });
  afterAll(() => t.close());

  const from = (peer: string, forwardedFor: string, username = randomName(), password = 'wrong') =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
      remoteAddress: peer,
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('counts the client address a trusted proxy forwards, and ignores it from anyone else', async () => {
    const [client, otherClient] = [randomIp(), randomIp()];
    for (let i = 0; i < 3; i++) expect((await from('192.0.2.7', client)).statusCode).toBe(401);
    expect((await from('192.0.2.7', client)).statusCode).toBe(429);
    // Another client through the same proxy has a count of its own.
    expect((await from('192.0.2.7', otherClient)).statusCode).toBe(401);
    // A peer that is not a trusted proxy cannot choose the address it is counted under.
    const spoofer = randomIp();
    for (let i = 0; i < 3; i++) expect((await from(spoofer, randomIp())).statusCode).toBe(401);
    expect((await from(spoofer, randomIp())).statusCode).toBe(429);
  });
});

describe('Redis keys', () => {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  it('start with the configured prefix, so deployments sharing a Redis share no counters', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    const t = await startTestApp('pglite', {
      AUTH_RATE_LIMIT: '1',
      REDIS_URL: url,
      REDIS_KEY_PREFIX: prefix,
    });
    const sameDeployment = await t.startAnother();
    const otherDeployment = await t.startAnother({
      AUTH_RATE_LIMIT: '1',
      REDIS_URL: url,
      REDIS_KEY_PREFIX: `${prefix}other:`,
    });
    const tryAs = (app: FastifyInstance, username: string, ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'wrong' },
        remoteAddress: ip,
      });
    const [username, ip] = [randomName(), randomIp()];
    expect((await tryAs(t.app, username, ip)).statusCode).toBe(401);
    expect((await tryAs(sameDeployment, username, ip)).statusCode).toBe(429);
    expect((await tryAs(otherDeployment, username, ip)).statusCode).toBe(401);

    const redis = new Redis(url);
    expect(await redis.exists(`${prefix}ratelimit:login:user-ip:${username}:${ip}`)).toBe(1);
    redis.disconnect();
    await t.close();
  });
});

describe('while Redis is unreachable', () => {
  it('counts in memory within a second, warns once, says so at /api/health, and goes back to Redis', async () => {
    const redis = await startRedisServer();
    const logs = captureLogs();
    const t = await startTestApp(
      'pglite',
      { AUTH_RATE_LIMIT: '2', REDIS_URL: redis.url, LOG_LEVEL: 'info' },
      { logStream: logs.stream },
    );
    const health = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/health' })).json().redis;
    const warnings = () =>
      logs.entries().filter((entry) => String(entry.msg).startsWith('Redis is unreachable'));
    try {
      await eventually(async () => expect(await health()).toBe('up'));

      await redis.stop();
      // Sign-in still works, and is still limited.
      const [username, ip] = [randomName(), randomIp()];
      expect((await attempt(t, username, ip)).statusCode).toBe(401);
      expect((await attempt(t, username, ip)).statusCode).toBe(401);
      expect((await attempt(t, username, ip)).statusCode).toBe(429);
      expect((await login(t, 'viewer', PASSWORDS.viewer!, randomIp())).statusCode).toBe(200);
      expect(await health()).toBe('down');
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect(warnings()).toHaveLength(1);

      await redis.start();
      await eventually(async () => expect(await health()).toBe('up'), 10_000);
      const [again, fromIp] = [randomName(), randomIp()];
      expect((await attempt(t, again, fromIp)).statusCode).toBe(401);
      const client = new Redis(redis.url);
      expect(await client.exists(`lims:ratelimit:login:user-ip:${again}:${fromIp}`)).toBe(1);
      client.disconnect();
      expect(warnings()).toHaveLength(1);

      // A Redis that keeps the connection but stops answering: each call waits at most a
      // second, then the server counts alone until a ping is answered again.
      redis.pause();
      const hung = performance.now();
      expect((await attempt(t, randomName(), randomIp())).statusCode).toBe(401);
      expect(performance.now() - hung).toBeLessThan(3000);
      expect(await health()).toBe('down');
      expect(warnings()).toHaveLength(2);
      redis.resume();
      await eventually(async () => {
        await attempt(t, randomName(), randomIp());
        expect(await health()).toBe('up');
      }, 10_000);
    } finally {
      await t.close();
      await redis.stop();
    }
  }, 30_000);
});
