import { randomUUID } from 'node:crypto';
import { messages } from '@common/messages';
import type { Role, RoleUser } from '@common/schemas/roles';
import type { RoutePermission } from '@common/schemas/permissions';
import { bearer, login } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('roles on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
  });
  afterAll(() => t.close());

  const listRoles = async (): Promise<Role[]> =>
    (await t.app.inject({ url: '/api/roles', headers: admin })).json();
  const roleId = async (name: string) => (await listRoles()).find((r) => r.name === name)!._id;
  const createRole = (name: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/roles', headers: admin, payload: { name } });
  const roleUsers = async (id: string): Promise<RoleUser[]> =>
    (await t.app.inject({ url: `/api/roles/${id}/users`, headers: admin })).json();
  const toggle = (id: string, userId: string, headers = admin) =>
    t.app.inject({ method: 'PUT', url: `/api/roles/${id}/users/${userId}`, headers });

  it('lists the default roles', async () => {
    expect((await listRoles()).map((r) => r.name)).toEqual(['admin', 'contributor', 'viewer']);
  });

  describe('POST /api/roles', () => {
    it('creates a role', async () => {
      const res = await createRole('auditor');
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        _id: expect.any(String),
        name: 'auditor',
        _version: 1,
        requireSecondFactor: false,
      });
      const one = await t.app.inject({ url: `/api/roles/${res.json()._id}`, headers: admin });
      expect(one.json()).toEqual(res.json());
    });

    it.each(['', 'has space', 'semi;colon', 'x'.repeat(51), 42])(
      'answers 400 for the name %p',
      async (name) => {
        const res = await createRole(name);
        expect(res.statusCode).toBe(400);
        expect(res.json().fields[0].field).toBe('body.name');
      },
    );

    it('answers 409 for a name that exists', async () => {
      const res = await createRole('viewer');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'NAME_TAKEN',
        message: messages.server.roleNameTaken,
      });
    });
  });

  describe('the assignment of users', () => {
    it('lists every user with whether they hold the role, and toggles it', async () => {
      const id = (await createRole('reviewers')).json()._id;
      const users = await roleUsers(id);
      expect(users.map((u) => u.username)).toEqual(['admin', 'contributor', 'viewer']);
      expect(users.every((u) => u.hasRole === false)).toBe(true);

      const viewer = users.find((u) => u.username === 'viewer')!;
      expect((await toggle(id, viewer._id)).json()).toEqual({ hasRole: true });
      expect((await roleUsers(id)).find((u) => u.username === 'viewer')!.hasRole).toBe(true);
      expect((await toggle(id, viewer._id)).json()).toEqual({ hasRole: false });
      expect((await roleUsers(id)).find((u) => u.username === 'viewer')!.hasRole).toBe(false);
    });

    it('takes effect on the next request of the user', async () => {
      const viewerToken = bearer((await login(t.app, 'viewer')).jwt);
      const users = await roleUsers(await roleId('admin'));
      const viewer = users.find((u) => u.username === 'viewer')!;
      expect((await t.app.inject({ url: '/api/users', headers: viewerToken })).statusCode).toBe(
        403,
      );
      await toggle(await roleId('admin'), viewer._id);
      expect((await t.app.inject({ url: '/api/users', headers: viewerToken })).statusCode).toBe(
        200,
      );
      await toggle(await roleId('admin'), viewer._id);
      expect((await t.app.inject({ url: '/api/users', headers: viewerToken })).statusCode).toBe(
        403,
      );
    });

    it('refuses to take the admin role from the last admin', async () => {
      const adminRole = await roleId('admin');
      const adminUser = (await roleUsers(adminRole)).find((u) => u.username === 'admin')!;
      const res = await toggle(adminRole, adminUser._id);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'LAST_ADMIN',
        message: messages.server.lastAdmin,
      });
      expect((await roleUsers(adminRole)).find((u) => u.username === 'admin')!.hasRole).toBe(true);
    });

    it('answers 404 for an unknown role or user, 400 for malformed ids', async () => {
      const viewer = (await roleUsers(await roleId('viewer')))[0]!;
      expect((await toggle(randomUUID(), viewer._id)).statusCode).toBe(404);
      expect((await toggle(await roleId('viewer'), randomUUID())).statusCode).toBe(404);
      expect((await toggle('nope', viewer._id)).statusCode).toBe(400);
      expect(
        (await t.app.inject({ url: `/api/roles/${randomUUID()}/users`, headers: admin }))
          .statusCode,
      ).toBe(404);
    });
  });

  describe('DELETE /api/roles/:id', () => {
    it('deletes the role, takes it from its users and from every route grant', async () => {
      const id = (await createRole('temporary')).json()._id;
      const viewer = (await roleUsers(id)).find((u) => u.username === 'viewer')!;
      await toggle(id, viewer._id);
      const routes: RoutePermission[] = (
        await t.app.inject({ url: '/api/routes', headers: admin })
      ).json();
      const getRoles = routes.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/roles')!;
      await t.app.inject({
        method: 'PUT',
        url: `/api/routes/${getRoles._id}`,
        headers: admin,
        payload: { allowedRoles: ['admin', 'temporary'] },
      });
      const viewerToken = bearer((await login(t.app, 'viewer')).jwt);
      expect((await t.app.inject({ url: '/api/roles', headers: viewerToken })).statusCode).toBe(
        200,
      );

      const res = await t.app.inject({ method: 'DELETE', url: `/api/roles/${id}`, headers: admin });
      expect(res.statusCode).toBe(204);
      expect((await listRoles()).some((r) => r.name === 'temporary')).toBe(false);
      const after: RoutePermission[] = (
        await t.app.inject({ url: '/api/routes', headers: admin })
      ).json();
      expect(after.find((r) => r._id === getRoles._id)!.allowedRoles).toEqual(['admin']);
      expect(after.some((r) => r.allowedRoles.includes('temporary'))).toBe(false);
      expect((await t.app.inject({ url: '/api/roles', headers: viewerToken })).statusCode).toBe(
        403,
      );
      const identity = await t.app.inject({
        url: '/api/users/identify',
        headers: { 'x-access-token': viewerToken.authorization.slice(7) },
      });
      expect(identity.json().roles).toEqual(['viewer']);
    });

    it('refuses to delete the admin role', async () => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/roles/${await roleId('admin')}`,
        headers: admin,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'ADMIN_PROTECTED',
        message: messages.server.adminRoleProtected,
      });
    });

    it('answers 404 for an unknown role', async () => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/roles/${randomUUID()}`,
        headers: admin,
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('POST /api/roles/:id/restore', () => {
    const restore = (id: string, headers = admin) =>
      t.app.inject({ method: 'POST', url: `/api/roles/${id}/restore`, headers });
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/roles/${id}`, headers: admin });

    it('undoes a delete: the role is back for its users and on its routes, on the next request', async () => {
      const made: Role = (await createRole('undoable')).json();
      const viewer = (await roleUsers(made._id)).find((u) => u.username === 'viewer')!;
      await toggle(made._id, viewer._id);
      const routes: RoutePermission[] = (
        await t.app.inject({ url: '/api/routes', headers: admin })
      ).json();
      const getRoles = routes.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/roles')!;
      await t.app.inject({
        method: 'PUT',
        url: `/api/routes/${getRoles._id}`,
        headers: admin,
        payload: { allowedRoles: ['admin', 'undoable'] },
      });
      const viewerToken = bearer((await login(t.app, 'viewer')).jwt);
      const deleted: Role = (
        await t.app.inject({ url: `/api/roles/${made._id}`, headers: admin })
      ).json();
      await remove(made._id);
      expect((await t.app.inject({ url: '/api/roles', headers: viewerToken })).statusCode).toBe(
        403,
      );

      const res = await restore(made._id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...deleted, _version: deleted._version + 1 });
      expect((await roleUsers(made._id)).find((u) => u._id === viewer._id)!.hasRole).toBe(true);
      const after: RoutePermission[] = (
        await t.app.inject({ url: '/api/routes', headers: admin })
      ).json();
      expect(after.find((r) => r._id === getRoles._id)!.allowedRoles).toEqual([
        'admin',
        'undoable',
      ]);
      expect((await t.app.inject({ url: '/api/roles', headers: viewerToken })).statusCode).toBe(
        200,
      );
      const audit = (
        await t.app.inject({ url: '/api/audit', query: { action: 'role.restore' }, headers: admin })
      ).json();
      expect(audit.events[0]).toMatchObject({
        resourceId: made._id,
        summary: 'Restored the role undoable',
      });
      // Leave the viewer as the other tests expect.
      await remove(made._id);
    });

    it('answers 409 when the role is not deleted or its name was taken, 404 for none', async () => {
      const made: Role = (await createRole('once')).json();
      expect((await restore(made._id)).json()).toMatchObject({
        code: 'CONFLICT',
        message: messages.server.notDeleted,
      });
      expect((await restore(randomUUID())).statusCode).toBe(404);
      await remove(made._id);
      expect((await restore(made._id)).statusCode).toBe(200);
      expect((await restore(made._id)).json()).toMatchObject({
        code: 'CONFLICT',
        message: messages.server.notDeleted,
      });
      await remove(made._id);
      await createRole('once');
      const taken = await restore(made._id);
      expect(taken.statusCode).toBe(409);
      expect(taken.json().code).toBe('NAME_TAKEN');
    });

    it("gives back the role's saved views", async () => {
      const made: Role = (await createRole('viewful')).json();
      await t.app.inject({
        method: 'POST',
        url: '/api/role-views',
        headers: admin,
        payload: { grid: 'jobs', name: 'Shared', query: 'filter=y', roleId: made._id },
      });
      await remove(made._id);
      expect((await restore(made._id)).statusCode).toBe(200);
      const views = (
        await t.app.inject({ url: '/api/views?grid=jobs', headers: admin })
      ).json() as { name: string; role: { _id: string } | null }[];
      expect(views.filter((v) => v.role?._id === made._id).map((v) => v.name)).toEqual(['Shared']);
    });

    it('is a route of the routes table of its own, admins only by default', async () => {
      const routes: RoutePermission[] = (
        await t.app.inject({ url: '/api/routes', headers: admin })
      ).json();
      expect(
        routes.find((r) => r.routeVerb === 'POST' && r.routePath === '/api/roles/:id/restore')!
          .allowedRoles,
      ).toEqual(['admin']);
    });
  });

  it.each(['viewer', 'contributor'])('answers 403 to a %s on every roles route', async (who) => {
    const headers = bearer((await login(t.app, who)).jwt);
    const id = await roleId('viewer');
    for (const [method, url] of [
      ['GET', '/api/roles'],
      ['POST', '/api/roles'],
      ['GET', `/api/roles/${id}`],
      ['DELETE', `/api/roles/${id}`],
      ['POST', `/api/roles/${id}/restore`],
      ['GET', `/api/roles/${id}/users`],
      ['PUT', `/api/roles/${id}/users/${id}`],
    ] as const) {
      expect([
        method,
        url,
        (await t.app.inject({ method, url, headers, payload: {} })).statusCode,
      ]).toEqual([method, url, 403]);
    }
  });
});
