import { and, eq, sql } from 'drizzle-orm';
import type { Permissions } from '@common/schemas/permissions';
import { queryRows, NOTIFICATION_CONNECTION_NAME } from '@server/db/client';
import { routes } from '@server/db/schema/routes';
import { userRoles, users } from '@server/db/schema/users';
import { bearer, login } from '../helpers/auth';
import { eventually } from '../helpers/eventually';
import { type TestApp, startTestApp } from '../helpers/testApp';
import { testDbKinds } from '../helpers/testDatabase';

/** A subscriber that records what it is told. */
function recorder() {
  const heard: string[] = [];
  let reconnects = 0;
  return {
    heard,
    reconnects: () => reconnects,
    subscriber: {
      onNotify: (payload: string) => heard.push(payload),
      onReconnect: () => reconnects++,
    },
  };
}

describe.each(testDbKinds)('the notification connection on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const notify = (channel: string, payload: string) =>
    t.database.db.execute(sql`select pg_notify(${channel}, ${payload})`);

  it('hands each notification to every subscriber of its channel, with its payload', async () => {
    const [a1, a2, b] = [recorder(), recorder(), recorder()];
    const stopA1 = await t.app.pgEvents.subscribe('test_a', a1.subscriber);
    await t.app.pgEvents.subscribe('test_a', a2.subscriber);
    await t.app.pgEvents.subscribe('test_b', b.subscriber);

    await notify('test_a', 'one');
    await notify('test_b', 'two');
    await eventually(async () => {
      expect(a1.heard).toEqual(['one']);
      expect(a2.heard).toEqual(['one']);
      expect(b.heard).toEqual(['two']);
    });

    // Both subscribers of a channel hear a notice at once: once a2 has it, a1 would have too.
    stopA1();
    await notify('test_a', 'three');
    await eventually(async () => expect(a2.heard).toEqual(['one', 'three']));
    expect(a1.heard).toEqual(['one']);
    expect(b.heard).toEqual(['two']);
  });

  it('has handed every notification committed before heard() to its subscribers once it resolves', async () => {
    const probe = recorder();
    await t.app.pgEvents.subscribe('test_heard', probe.subscriber);
    const sent: string[] = [];
    for (let i = 0; i < 20; i++) {
      await notify('test_heard', String(i));
      sent.push(String(i));
      await t.app.pgEvents.heard();
      expect(probe.heard).toEqual(sent);
    }
    // Callers at once share round trips, and each is told only after its own.
    await notify('test_heard', 'last');
    await Promise.all([1, 2, 3].map(() => t.app.pgEvents.heard()));
    expect(probe.heard).toEqual([...sent, 'last']);
  });

  it('refuses a channel name that is not a lower-case identifier', async () => {
    await expect(t.app.pgEvents.subscribe('Mixed Case', recorder().subscriber)).rejects.toThrow(
      'Invalid channel name',
    );
  });

  (kind === 'postgres' ? it : it.skip)(
    'listens to every channel on one connection per server',
    async () => {
      // Permissions, identities and events each subscribe; two servers: two connections,
      // and no other connection whose last statement was a LISTEN.
      const listening = async () =>
        (
          await queryRows<{ others: number; named: number }>(
            t.database.db,
            sql`select count(*) filter (where query ilike 'listen %' and application_name <> ${NOTIFICATION_CONNECTION_NAME})::int as others,
                  count(*) filter (where application_name = ${NOTIFICATION_CONNECTION_NAME})::int as named
                from pg_stat_activity where datname = current_database()`,
          )
        )[0];
      expect(await listening()).toEqual({ others: 0, named: 1 });
      await t.startAnother();
      expect(await listening()).toEqual({ others: 0, named: 2 });
    },
  );
});

(testDbKinds.includes('postgres') ? describe : describe.skip)(
  'the notification connection after it drops, on postgres',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp('postgres');
    });
    afterAll(() => t.close());

    it('reconnects, resyncs what a lost notice would have changed, and hears other servers again', async () => {
      const probe = recorder();
      await t.app.pgEvents.subscribe('probe', probe.subscriber);
      const contributor = bearer((await login(t.app, 'contributor')).jwt);
      const viewer = bearer((await login(t.app, 'viewer')).jwt);
      const routesAsContributor = async () =>
        (await t.app.inject({ url: '/api/routes', headers: contributor })).statusCode;
      const viewerRoles = async () =>
        (
          (
            await t.app.inject({ url: '/api/auth/permissions', headers: viewer })
          ).json() as Permissions
        ).roles;
      expect(await routesAsContributor()).toBe(403);
      expect(await viewerRoles()).toEqual(['viewer']);

      // Changes that send no NOTIFY (triggers off, as a replica applies them): only a
      // resync can bring them to the server.
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx
          .update(routes)
          .set({ allowedRoles: ['admin', 'contributor'] })
          .where(and(eq(routes.routeVerb, 'GET'), eq(routes.routePath, '/api/routes')));
        const [viewerUser] = await tx.select().from(users).where(eq(users.username, 'viewer'));
        await tx.delete(userRoles).where(eq(userRoles.userId, viewerUser!.id));
      });
      expect(await routesAsContributor()).toBe(403);
      expect(await viewerRoles()).toEqual(['viewer']);

      await t.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name = ${NOTIFICATION_CONNECTION_NAME}`,
      );
      await eventually(async () => expect(probe.reconnects()).toBe(1));
      await eventually(async () => {
        expect(await routesAsContributor()).toBe(200);
        expect(await viewerRoles()).toEqual([]);
      });

      // A change another server makes now reaches this one through the new connection.
      const other = await t.startAnother();
      const [route] = await t.database.db
        .select()
        .from(routes)
        .where(and(eq(routes.routeVerb, 'GET'), eq(routes.routePath, '/api/routes')));
      const res = await other.inject({
        method: 'PUT',
        url: `/api/routes/${route!.id}`,
        headers: bearer((await login(other, 'admin')).jwt),
        payload: { allowedRoles: ['admin'] },
      });
      expect(res.statusCode).toBe(200);
      await eventually(async () => expect(await routesAsContributor()).toBe(403));
      await t.database.db.execute(sql`select pg_notify('probe', 'still here')`);
      await eventually(async () => expect(probe.heard).toEqual(['still here']));
    });
  },
);

(testDbKinds.includes('postgres') ? describe : describe.skip)(
  'the notification connection when the app closes during a reconnection, on postgres',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp('postgres');
    });
    afterAll(() => t.close());

    it('closes the connection the reconnection opens, and tells no subscriber', async () => {
      const probe = recorder();
      await t.app.pgEvents.subscribe('probe', probe.subscriber);
      // The reconnection's connection opens only once the app has begun closing.
      const open = t.database.openNotificationConnection;
      let closing!: () => void;
      const appClosing = new Promise<void>((resolve) => (closing = resolve));
      let reconnecting!: () => void;
      const reopening = new Promise<void>((resolve) => (reconnecting = resolve));
      let reopened = false;
      t.database.openNotificationConnection = async (handlers) => {
        reconnecting();
        await appClosing;
        const connection = await open(handlers);
        reopened = true;
        return connection;
      };
      const notificationConnections = async () =>
        (
          await queryRows<{ count: number }>(
            t.database.db,
            sql`select count(*)::int as count from pg_stat_activity
                where datname = current_database() and application_name = ${NOTIFICATION_CONNECTION_NAME}`,
          )
        )[0]!.count;

      await t.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name = ${NOTIFICATION_CONNECTION_NAME}`,
      );
      await reopening;
      const closed = t.app.close();
      closing();
      await closed;

      // The reconnection opened its connection, and then closed it.
      await eventually(async () => {
        expect(reopened).toBe(true);
        expect(await notificationConnections()).toBe(0);
      });
      expect(probe.reconnects()).toBe(0);
    });
  },
);
