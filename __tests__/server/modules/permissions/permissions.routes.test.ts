import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { defaultAllowedRoles } from '@common/apiRoutes';
import { messages } from '@common/messages';
import type { AllowedRoute, Permissions, RoutePermission } from '@common/schemas/permissions';
import { NOTIFICATION_CONNECTION_NAME } from '@server/db/client';
import { roles } from '@server/db/schema/roles';
import { routes } from '@server/db/schema/routes';
import { userRoles, users } from '@server/db/schema/users';
import { bearer, login, registerUser } from '../../helpers/auth';
import { eventually } from '../../helpers/eventually';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('route permissions on %s', (kind) => {
  let t: TestApp;
  let tokens: Record<'admin' | 'contributor' | 'viewer' | 'none', string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    tokens = {
      admin: (await login(t.app, 'admin')).jwt,
      contributor: (await login(t.app, 'contributor')).jwt,
      viewer: (await login(t.app, 'viewer')).jwt,
      none: (await registerUser(t.app)).jwt,
    };
  });
  afterAll(() => t.close());

  const listRoutes = async (app: FastifyInstance = t.app): Promise<RoutePermission[]> =>
    (await app.inject({ method: 'GET', url: '/api/routes', headers: bearer(tokens.admin) })).json();
  const routeOf = async (verb: string, path: string) =>
    (await listRoutes()).find((r) => r.routeVerb === verb && r.routePath === path)!;
  const putRoute = (id: string, allowedRoles: string[], app: FastifyInstance = t.app) =>
    app.inject({
      method: 'PUT',
      url: `/api/routes/${id}`,
      headers: bearer(tokens.admin),
      payload: { allowedRoles },
    });

  describe('GET /api/routes', () => {
    it('lists every route that needs a signed-in user, with its default grants', async () => {
      const rows = await listRoutes();
      const get = rows.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/routes');
      expect(get).toEqual({
        _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        routeEntity: 'routes',
        routeVerb: 'GET',
        routePath: '/api/routes',
        allowedRoles: ['admin'],
        _version: 1,
      });
      expect(rows.some((r) => r.routePath === '/api/routes/:id' && r.routeVerb === 'PUT')).toBe(
        true,
      );
      for (const row of rows) {
        expect(row.allowedRoles).toEqual(
          defaultAllowedRoles({ verb: row.routeVerb, path: row.routePath }),
        );
      }
    });

    it('leaves the public routes out: sign-in, identify and health', async () => {
      const paths = (await listRoutes()).map((r) => r.routePath);
      expect(paths.filter((p) => p.startsWith('/api/auth') || p === '/api/health')).toEqual([]);
      expect(paths).not.toContain('/api/users/identify');
    });
  });

  describe('the check on every listed route', () => {
    it('answers 401 without a token, 403 without an allowed role, and lets allowed roles in', async () => {
      const rows = await listRoutes();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const url = row.routePath.replace(/:\w+/g, randomUUID());
        const anonymous = await t.app.inject({ method: row.routeVerb as 'GET', url, payload: {} });
        expect([row.routeVerb, row.routePath, anonymous.statusCode]).toEqual([
          row.routeVerb,
          row.routePath,
          401,
        ]);
        for (const [who, jwt] of Object.entries(tokens)) {
          const res = await t.app.inject({
            method: row.routeVerb as 'GET',
            url,
            headers: bearer(jwt),
            payload: {},
          });
          const allowed = row.allowedRoles.includes(who);
          expect([row.routeVerb, row.routePath, who, res.statusCode === 403]).toEqual([
            row.routeVerb,
            row.routePath,
            who,
            !allowed,
          ]);
          expect(res.statusCode).not.toBe(401);
          // What a signed-in user is answered is theirs alone.
          expect(res.headers['cache-control']).toBe('no-store');
        }
      }
    });

    it('reads roles from the database: a role taken away counts at once', async () => {
      const granted = await routeOf('GET', '/api/routes');
      expect((await putRoute(granted._id, ['admin', 'viewer'])).statusCode).toBe(200);
      const viewer = (await login(t.app, 'viewer')).jwt;
      const asViewer = () =>
        t.app.inject({ method: 'GET', url: '/api/routes', headers: bearer(viewer) });
      expect((await asViewer()).statusCode).toBe(200);

      const [viewerRole] = await t.database.db.select().from(roles).where(eq(roles.name, 'viewer'));
      const [viewerUser] = await t.database.db
        .select()
        .from(users)
        .where(eq(users.username, 'viewer'));
      const toggleViewerRole = () =>
        t.app.inject({
          method: 'PUT',
          url: `/api/roles/${viewerRole!.id}/users/${viewerUser!.id}`,
          headers: bearer(tokens.admin),
        });
      // Through the API: the very next request sees it.
      expect((await toggleViewerRole()).json()).toEqual({ hasRole: false });
      expect((await asViewer()).statusCode).toBe(403);
      expect((await toggleViewerRole()).json()).toEqual({ hasRole: true });
      expect((await asViewer()).statusCode).toBe(200);

      // Straight in the database (another tool): the trigger's NOTIFY reaches the server.
      await t.database.db.delete(userRoles).where(eq(userRoles.userId, viewerUser!.id));
      await eventually(async () => expect((await asViewer()).statusCode).toBe(403));

      await t.database.db
        .insert(userRoles)
        .values({ userId: viewerUser!.id, roleId: viewerRole!.id });
      await eventually(async () => expect((await asViewer()).statusCode).toBe(200));
      await putRoute(granted._id, ['admin']);
      expect((await asViewer()).statusCode).toBe(403);
    });
  });

  describe('PUT /api/routes/:id', () => {
    it('changes who may call the route, at once', async () => {
      const route = await routeOf('GET', '/api/routes');
      const asContributor = () =>
        t.app.inject({ method: 'GET', url: '/api/routes', headers: bearer(tokens.contributor) });
      expect((await asContributor()).statusCode).toBe(403);

      const res = await putRoute(route._id, ['admin', 'contributor', 'contributor']);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        ...route,
        allowedRoles: ['admin', 'contributor'],
        _version: route._version + 1,
      });
      expect((await asContributor()).statusCode).toBe(200);

      await putRoute(route._id, ['admin']);
      expect((await asContributor()).statusCode).toBe(403);
    });

    it('answers 400 for unknown role names', async () => {
      const route = await routeOf('PUT', '/api/routes/:id');
      const res = await putRoute(route._id, ['admin', 'wizard', 'ghost']);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: messages.server.unknownRoles(['ghost', 'wizard']),
      });
    });

    it.each([
      ['GET', '/api/routes'],
      ['PUT', '/api/routes/:id'],
    ])('refuses to take the admin role off %s %s', async (verb, path) => {
      const route = await routeOf(verb, path);
      const res = await putRoute(route._id, ['viewer']);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'ADMIN_PROTECTED',
        message: messages.server.adminKeepsRoutes,
      });
      expect((await routeOf(verb, path)).allowedRoles).toEqual(['admin']);
    });

    it('answers 404 for an unknown route and 400 for a malformed id', async () => {
      expect((await putRoute(randomUUID(), ['admin'])).statusCode).toBe(404);
      expect((await putRoute('not-an-id', ['admin'])).statusCode).toBe(400);
    });

    it('is enforced by another server on the same database from its very next request', async () => {
      const other = await t.startAnother();
      const route = await routeOf('GET', '/api/routes');
      const contributorOn = async (app: FastifyInstance) =>
        (await app.inject({ url: '/api/routes', headers: bearer(tokens.contributor) })).statusCode;
      expect(await contributorOn(other)).toBe(403);
      // The notice of each change is still on its way when the other server is asked.
      for (let i = 0; i < 10; i++) {
        await putRoute(route._id, ['admin', 'contributor']);
        expect(await contributorOn(other)).toBe(200);
        await putRoute(route._id, ['admin'], other);
        expect(await contributorOn(t.app)).toBe(403);
      }
    });

    it('enforces a change made in SQL, on every server, from the next request', async () => {
      const other = await t.startAnother();
      const route = await routeOf('GET', '/api/routes');
      const contributorOn = async (app: FastifyInstance) =>
        (await app.inject({ url: '/api/routes', headers: bearer(tokens.contributor) })).statusCode;
      const grantInSql = (roles: string[]) =>
        t.database.db.execute(
          sql`update routes set allowed_roles = ${sql.param(roles)}::text[] where id = ${route._id}`,
        );
      expect([await contributorOn(t.app), await contributorOn(other)]).toEqual([403, 403]);
      await grantInSql(['admin', 'contributor']);
      expect([await contributorOn(t.app), await contributorOn(other)]).toEqual([200, 200]);
      await grantInSql(['admin']);
      expect([await contributorOn(t.app), await contributorOn(other)]).toEqual([403, 403]);
    });
  });

  (kind === 'postgres' ? it : it.skip)(
    'keeps following changes after its listening connection drops',
    async () => {
      const other = await t.startAnother();
      const route = await routeOf('GET', '/api/routes');
      const contributorOn = (app: FastifyInstance) =>
        app.inject({ method: 'GET', url: '/api/routes', headers: bearer(tokens.contributor) });
      // Drop every LISTEN connection, as a database restart would.
      await t.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${NOTIFICATION_CONNECTION_NAME} and datname = current_database()`,
      );
      await putRoute(route._id, ['admin', 'contributor']);
      await eventually(async () => expect((await contributorOn(other)).statusCode).toBe(200));
      await putRoute(route._id, ['admin'], other);
      await eventually(async () => expect((await contributorOn(t.app)).statusCode).toBe(403));
    },
  );

  describe('GET /api/auth/permissions', () => {
    const permissionsOf = async (jwt: string, app: FastifyInstance = t.app) => {
      const res = await app.inject({ url: '/api/auth/permissions', headers: bearer(jwt) });
      expect(res.statusCode).toBe(200);
      const { roles, allowed } = res.json() as Permissions;
      return { roles, allowed: [...allowed].sort(byRoute) };
    };
    const byRoute = (a: AllowedRoute, b: AllowedRoute) =>
      `${a.routePath} ${a.routeVerb}`.localeCompare(`${b.routePath} ${b.routeVerb}`);
    /** What the routes table lets these roles call, read through the editor's API. */
    const allowedFor = async (roleNames: string[]) =>
      (await listRoutes())
        .filter((row) => row.allowedRoles.some((role) => roleNames.includes(role)))
        .map(({ routeVerb, routePath }) => ({ routeVerb, routePath }))
        .sort(byRoute);

    it.each(['admin', 'contributor', 'viewer'] as const)(
      'answers the roles of the %s and the routes the table lets them call',
      async (who) => {
        const answer = await permissionsOf(tokens[who]);
        expect(answer).toEqual({ roles: [who], allowed: await allowedFor([who]) });
        expect(answer.allowed.length).toBeGreaterThan(0);
      },
    );

    it('answers a user with no role: no roles, no routes', async () => {
      expect(await permissionsOf(tokens.none)).toEqual({ roles: [], allowed: [] });
    });

    it("tells the routes in the table's own form", async () => {
      const viewer = await permissionsOf(tokens.viewer);
      expect(viewer.allowed).toContainEqual({
        routeVerb: 'GET',
        routePath: '/api/books/:id/versions',
      });
      expect(viewer.allowed).not.toContainEqual({ routeVerb: 'PUT', routePath: '/api/books/:id' });
      expect((await permissionsOf(tokens.admin)).allowed).toContainEqual({
        routeVerb: 'PUT',
        routePath: '/api/users/:id/password',
      });
    });

    it('follows a route change, on this server at once and on another one', async () => {
      const other = await t.startAnother();
      const route = await routeOf('GET', '/api/routes');
      const routesScreen = { routeVerb: 'GET', routePath: '/api/routes' };
      expect((await permissionsOf(tokens.viewer)).allowed).not.toContainEqual(routesScreen);

      await putRoute(route._id, ['admin', 'viewer']);
      expect((await permissionsOf(tokens.viewer)).allowed).toContainEqual(routesScreen);
      await eventually(async () =>
        expect((await permissionsOf(tokens.viewer, other)).allowed).toContainEqual(routesScreen),
      );
      expect((await permissionsOf(tokens.none)).allowed).toEqual([]);

      await putRoute(route._id, ['admin']);
      expect((await permissionsOf(tokens.viewer)).allowed).not.toContainEqual(routesScreen);
    });

    it("follows a change of the user's roles", async () => {
      const me = (
        await t.app.inject({
          url: '/api/users/identify',
          headers: { 'x-access-token': tokens.none },
        })
      ).json();
      const [viewerRole] = await t.database.db.select().from(roles).where(eq(roles.name, 'viewer'));
      const toggle = () =>
        t.app.inject({
          method: 'PUT',
          url: `/api/roles/${viewerRole!.id}/users/${me._id}`,
          headers: bearer(tokens.admin),
        });
      expect((await toggle()).json()).toEqual({ hasRole: true });
      expect(await permissionsOf(tokens.none)).toEqual({
        roles: ['viewer'],
        allowed: await allowedFor(['viewer']),
      });
      expect((await toggle()).json()).toEqual({ hasRole: false });
      expect(await permissionsOf(tokens.none)).toEqual({ roles: [], allowed: [] });
    });

    it('answers 401 UNAUTHENTICATED without a valid token', async () => {
      for (const headers of [{}, bearer('not-a-token')]) {
        const res = await t.app.inject({ url: '/api/auth/permissions', headers });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
      }
    });
  });

  describe('the sync at start', () => {
    it('keeps edited grants, restores missing routes and removes routes that no longer exist', async () => {
      const route = await routeOf('GET', '/api/routes');
      await putRoute(route._id, ['admin', 'viewer']);
      await t.database.db
        .delete(routes)
        .where(sql`${routes.routeVerb} = 'PUT' and ${routes.routePath} = '/api/routes/:id'`);
      await t.database.db.insert(routes).values({
        routeEntity: 'gone',
        routeVerb: 'GET',
        routePath: '/api/gone',
        allowedRoles: ['admin'],
      });

      const restarted = await t.startAnother();
      const rows = await listRoutes(restarted);
      expect(
        rows.find((r) => r.routePath === '/api/routes' && r.routeVerb === 'GET')?.allowedRoles,
      ).toEqual(['admin', 'viewer']);
      expect(rows.find((r) => r.routePath === '/api/routes/:id')?.allowedRoles).toEqual(['admin']);
      expect(rows.some((r) => r.routePath === '/api/gone')).toBe(false);
      await putRoute(route._id, ['admin']);
    });
  });
});
