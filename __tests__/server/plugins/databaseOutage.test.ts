import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { messages } from '@common/messages';
import { buildApp } from '@server/app';
import {
  type Database,
  openPostgres,
  SEARCH_CONNECTIONS,
  withSearchSession,
} from '@server/db/client';
import { bearer, login } from '../helpers/auth';
import { eventually } from '../helpers/eventually';
import { startTcpProxy } from '../helpers/tcpProxy';
import { testConfig } from '../helpers/testApp';
import { createTestPostgres } from '../helpers/testDatabase';

// A PostgreSQL server the test can take away: the tests' own, behind a proxy it cuts.
(process.env.TEST_DATABASE_URL ? describe : describe.skip)(
  'while PostgreSQL is unreachable',
  () => {
    let testDb: Awaited<ReturnType<typeof createTestPostgres>>;
    let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
    let proxied: Database;
    let direct: Database;
    let app: FastifyInstance;
    let other: FastifyInstance;
    beforeAll(async () => {
      testDb = await createTestPostgres();
      const target = new URL(testDb.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
      const throughProxy = new URL(testDb.url);
      throughProxy.port = String(proxy.port);
      proxied = openPostgres(throughProxy.href, () => {});
      app = await buildApp(testConfig(), { database: proxied });
      // Another server on the same database, which keeps its connection.
      direct = openPostgres(testDb.url, () => {});
      other = await buildApp(testConfig(), { database: direct });
    }, 60_000);
    afterAll(async () => {
      await app.close();
      await other.close();
      await proxied.close();
      await direct.close();
      await proxy.close();
      await testDb.drop();
    });

    it('answers 503 with Retry-After at once, and recovers by itself, LISTEN included', async () => {
      const admin = bearer((await login(app, 'admin')).jwt);
      const viewer = bearer((await login(app, 'viewer')).jwt);
      const books = (headers: Record<string, string>) =>
        app.inject({ method: 'GET', url: '/api/books', headers });
      expect((await books(viewer)).statusCode).toBe(200);

      await proxy.cut();
      const started = performance.now();
      const during = await books(admin);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(during.statusCode).toBe(503);
      expect(during.headers['retry-after']).toBe('2');
      expect(during.json()).toMatchObject({
        code: 'DATABASE_UNAVAILABLE',
        message: messages.server.databaseUnavailable,
      });
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503);

      // Meanwhile, through the other server: viewers may no longer list books.
      const otherAdmin = bearer((await login(other, 'admin')).jwt);
      const routes = (
        await other.inject({ method: 'GET', url: '/api/routes', headers: otherAdmin })
      ).json();
      const listBooks = routes.find(
        (r: { routeVerb: string; routePath: string }) =>
          r.routeVerb === 'GET' && r.routePath === '/api/books',
      );
      const changed = await other.inject({
        method: 'PUT',
        url: `/api/routes/${listBooks._id}`,
        headers: otherAdmin,
        payload: { allowedRoles: ['admin'] },
      });
      expect(changed.statusCode).toBe(200);

      await proxy.restore();
      await eventually(async () => expect((await books(admin)).statusCode).toBe(200), 15_000);
      // Listening again, it heard of the change (or reloaded on reconnecting).
      await eventually(async () => expect((await books(viewer)).statusCode).toBe(403), 15_000);
    }, 60_000);

    it('answers 503 OVERLOADED, not DATABASE_UNAVAILABLE, while every connection of the pool is busy', async () => {
      const admin = bearer((await login(other, 'admin')).jwt);
      // Every connection of the other server's pool held, as by slow statements.
      const pool = (direct.db as unknown as { $client: pg.Pool }).$client;
      const held = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
      try {
        const busy = await other.inject({ method: 'GET', url: '/api/books', headers: admin });
        expect(busy.statusCode).toBe(503);
        expect(busy.headers['retry-after']).toBe('1');
        expect(busy.json()).toMatchObject({
          code: 'OVERLOADED',
          message: messages.server.overloaded,
        });
      } finally {
        for (const connection of held) connection.release();
      }
      expect(
        (await other.inject({ method: 'GET', url: '/api/books', headers: admin })).statusCode,
      ).toBe(200);
    }, 30_000);

    it('keeps searches on connections of their own: with all of them busy, a search is answered OVERLOADED and everything else as usual', async () => {
      const admin = bearer((await login(other, 'admin')).jwt);
      const get = (url: string) => other.inject({ method: 'GET', url, headers: admin });
      // Every search connection held, as by slow filters.
      const held = await withSearchSession(direct.db, (pool) =>
        Promise.all(Array.from({ length: SEARCH_CONNECTIONS }, () => (pool as pg.Pool).connect())),
      );
      try {
        const search = await get('/api/LIMS/jobs?filter=pass');
        expect(search.statusCode).toBe(503);
        expect(search.headers['retry-after']).toBe('1');
        expect(search.json()).toMatchObject({ code: 'OVERLOADED' });
        expect((await get('/api/LIMS/jobs')).statusCode).toBe(200);
        expect((await get('/api/books')).statusCode).toBe(200);
      } finally {
        for (const connection of held) connection.release();
      }
      expect((await get('/api/LIMS/jobs?filter=pass')).statusCode).toBe(200);
    }, 30_000);
  },
);
