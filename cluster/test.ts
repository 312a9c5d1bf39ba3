/**
 * `npm run test:cluster`: two built API servers behind nginx on a fresh PostgreSQL database
 * (of TEST_DATABASE_URL's server, or the local one) and the local Redis, and what must hold
 * across them: the balancer spreads requests, a permission change through one server is
 * enforced by the other on its next request (the p99 of the delay over 100 changes is
 * printed), the sign-in limit is shared, a refresh race across the two gets one successor,
 * and live events cross servers. Exits 1 on the first failure.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import pg from 'pg';
import { startCluster } from './cluster';

const ADMIN_PASSWORD = 'cluster-admin-password';
const CHANGES = 100;

type Json = Record<string, unknown>;

async function call(base: string, method: string, url: string, jwt?: string, body?: unknown) {
  const answer = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(jwt ? { authorization: `Bearer ${jwt}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return { status: answer.status, json: (text ? JSON.parse(text) : null) as Json };
}

const signIn = async (base: string, username: string, password: string) => {
  const { status, json } = await call(base, 'POST', '/api/auth/login', undefined, {
    username,
    password,
  });
  assert.equal(status, 200, `signing in as ${username}`);
  return json as { jwt: string; refreshToken: string };
};

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)
  ]!;

async function main() {
  const server = new URL(
    process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  );
  const name = `cluster_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.href });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const databaseUrl = new URL(server.href);
  databaseUrl.pathname = `/${name}`;

  const cluster = await startCluster({
    size: 2,
    port: Number(process.env.CLUSTER_PORT ?? 18080),
    env: {
      DATABASE_URL: databaseUrl.href,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_KEY_PREFIX: `${name}:`,
      ADMIN_PASSWORD,
      AUTH_RATE_LIMIT: '5',
      SEED_JOBS: '0',
      LOG_LEVEL: 'warn',
    },
  });
  const [one, two] = cluster.servers as [string, string];
  try {
    // The balancer: both servers answer through it.
    const instances = new Set<string>();
    for (let i = 0; i < 6; i++)
      instances.add((await call(cluster.base, 'GET', '/api/health')).json.instance as string);
    assert.deepEqual([...instances].sort(), ['api-1', 'api-2']);
    console.log('✓ nginx spreads requests over api-1 and api-2');

    // A permission change through one server, enforced by the other.
    const { jwt: adminJwt } = await signIn(cluster.base, 'admin', ADMIN_PASSWORD);
    const { jwt: viewerJwt } = await signIn(cluster.base, 'viewer', 'viewer123');
    const routes = (await call(one, 'GET', '/api/routes', adminJwt)).json as unknown as {
      _id: string;
      routeVerb: string;
      routePath: string;
    }[];
    const listBooks = routes.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/books')!;
    const delays: number[] = [];
    let firstRequestEnforced = 0;
    for (let i = 0; i < CHANGES; i++) {
      const allowed = i % 2 === 0 ? ['admin'] : ['admin', 'viewer'];
      const expected = i % 2 === 0 ? 403 : 200;
      const changed = await call(one, 'PUT', `/api/routes/${listBooks._id}`, adminJwt, {
        allowedRoles: allowed,
      });
      assert.equal(changed.status, 200);
      const answered = performance.now();
      for (let attempt = 0; ; attempt++) {
        const { status } = await call(two, 'GET', '/api/books', viewerJwt);
        if (status === expected) {
          if (attempt === 0) firstRequestEnforced++;
          delays.push(performance.now() - answered);
          break;
        }
        assert.ok(
          performance.now() - answered < 5000,
          `change ${i} not enforced by the other server in 5 s`,
        );
      }
    }
    console.log(
      `✓ ${CHANGES} permission changes through api-1 enforced by api-2: ${firstRequestEnforced} on its very next request; ` +
        `delay p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms`,
    );
    assert.equal(firstRequestEnforced, CHANGES, 'every change enforced on the very next request');

    // The sign-in limit is shared: five wrong passwords spread over both servers, then 429.
    const username = `nobody-${name}`;
    for (let i = 0; i < 5; i++) {
      const { status } = await call(i % 2 ? one : two, 'POST', '/api/auth/login', undefined, {
        username,
        password: 'wrong',
      });
      assert.equal(status, 401);
    }
    const limited = await call(one, 'POST', '/api/auth/login', undefined, {
      username,
      password: 'wrong',
    });
    assert.equal(limited.status, 429);
    console.log('✓ the sign-in limit is counted across servers (Redis)');

    // A refresh race across the two servers: one successor for both.
    const { refreshToken } = await signIn(cluster.base, 'contributor', 'contributor123');
    const [a, b] = await Promise.all(
      [one, two].map((base) =>
        call(base, 'POST', '/api/auth/refresh-token', undefined, { refreshToken }),
      ),
    );
    assert.equal(a!.status, 200);
    assert.equal(b!.status, 200);
    assert.equal(a!.json.refreshToken, b!.json.refreshToken);
    console.log('✓ a refresh race across two servers gets one successor');

    // Live events cross servers: a book added through api-2 reaches a stream on api-1.
    const stream = await fetch(`${one}/api/events`, {
      headers: { authorization: `Bearer ${adminJwt}` },
    });
    assert.equal(stream.status, 200);
    const events: { event?: string; data: string }[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const added = await call(two, 'POST', '/api/books/add', adminJwt, {
      title: `Across servers ${name}`,
    });
    assert.equal(added.status, 201);
    const deadline = Date.now() + 10_000;
    const heard = () =>
      events.some(
        (e) => e.event === 'change' && (JSON.parse(e.data) as Json).id === added.json._id,
      );
    while (!heard()) {
      assert.ok(
        Date.now() < deadline,
        'the change did not reach the other server’s stream in 10 s',
      );
      const { value, done } = await Promise.race([
        reader.read(),
        new Promise<{ value?: string; done: boolean }>((resolve) =>
          setTimeout(() => resolve({ done: false }), Math.max(0, deadline - Date.now())),
        ),
      ]);
      if (done) throw new Error('the event stream ended');
      if (value) parser.feed(value);
    }
    await reader.cancel();
    console.log('✓ a change made through api-2 reaches an event stream on api-1');
  } finally {
    await cluster.stop();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error('✗', error instanceof Error ? error.message : error);
  process.exit(1);
});
