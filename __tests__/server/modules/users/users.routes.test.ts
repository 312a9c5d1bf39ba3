import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { messages } from '@common/messages';
import type { Role } from '@common/schemas/roles';
import type { User } from '@common/schemas/users';
import { buildApp } from '@server/app';
import { queryRows } from '@server/db/client';
import { bearer, login } from '../../helpers/auth';
import { eventually } from '../../helpers/eventually';
import { type TestApp, startTestApp, testConfig } from '../../helpers/testApp';
import { openTestPglite, testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('users on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let roleIds: Record<string, string>;
  beforeAll(async () => {
    // Many sign-ins from one address: more than the default limit allows in a minute.
    t = await startTestApp(kind, { AUTH_RATE_LIMIT: '100' });
    admin = bearer((await login(t.app, 'admin')).jwt);
    const roles: Role[] = (await t.app.inject({ url: '/api/roles', headers: admin })).json();
    roleIds = Object.fromEntries(roles.map((r) => [r.name, r._id]));
  });
  afterAll(() => t.close());

  const listUsers = async (): Promise<User[]> =>
    (await t.app.inject({ url: '/api/users', headers: admin })).json();
  const createUser = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/users', headers: admin, payload });

  describe('GET /api/users', () => {
    it('lists the users with their roles, never a password or hash', async () => {
      const res = await t.app.inject({ url: '/api/users', headers: admin });
      expect(res.statusCode).toBe(200);
      const users: User[] = res.json();
      expect(users.find((u) => u.username === 'viewer')).toEqual({
        _id: expect.any(String),
        username: 'viewer',
        email: null,
        roles: [{ _id: roleIds.viewer, name: 'viewer' }],
        _version: 1,
      });
      expect(res.body).not.toMatch(/password|argon2/i);
    });

    it.each(['viewer', 'contributor'])('answers 403 to a %s', async (who) => {
      const res = await t.app.inject({
        url: '/api/users',
        headers: bearer((await login(t.app, who)).jwt),
      });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('POST /api/users', () => {
    it('creates a user with roles who can then sign in', async () => {
      const res = await createUser({
        username: 'ada',
        email: 'Ada@Example.com',
        password: 'analytical-engine',
        roles: [roleIds.contributor, roleIds.viewer],
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        username: 'ada',
        email: 'ada@example.com',
        roles: [
          { _id: roleIds.contributor, name: 'contributor' },
          { _id: roleIds.viewer, name: 'viewer' },
        ],
      });
      const { jwt } = await login(t.app, 'ada', 'analytical-engine');
      expect(jwt).toBeTruthy();
    });

    it('takes the email as optional', async () => {
      const res = await createUser({ username: 'no-email', email: '', password: 'long-enough' });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ email: null, roles: [] });
    });

    it.each([
      [{ email: 'x@example.com', password: 'long-enough' }, 'body.username'],
      [{ username: 'u1' }, 'body.password'],
      [{ username: 'u1', password: 'short' }, 'body.password'],
      [{ username: 'u1', password: 'x'.repeat(129) }, 'body.password'],
      [{ username: 'u1', password: 'long-enough', email: 'not-an-email' }, 'body.email'],
      [{ username: 'has space', password: 'long-enough' }, 'body.username'],
      [{ username: 'u1', password: 'long-enough', roles: ['not-an-id'] }, 'body.roles.0'],
    ])('answers 400 for %p', async (payload, field) => {
      const res = await createUser(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it('answers 400 for an unknown role id, creating nothing', async () => {
      const res = await createUser({
        username: 'ghost-role',
        password: 'long-enough',
        roles: [randomUUID()],
      });
      expect(res.statusCode).toBe(400);
      expect((await listUsers()).some((u) => u.username === 'ghost-role')).toBe(false);
    });

    it('answers 409 for a username that is taken', async () => {
      const res = await createUser({ username: 'viewer', password: 'long-enough' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'USERNAME_TAKEN',
        message: messages.server.usernameTaken,
      });
    });

    it('answers 409 for an email another account has, whatever its capitals', async () => {
      const first = { username: 'mail-one', password: 'long-enough', email: 'shared@example.com' };
      expect((await createUser(first)).statusCode).toBe(201);
      const res = await createUser({ ...first, username: 'mail-two', email: 'Shared@Example.com' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'EMAIL_TAKEN',
        message: messages.server.emailTaken,
      });
      const { _id } = (
        await createUser({ username: 'mail-three', password: 'long-enough' })
      ).json();
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/users/${_id}`,
        headers: admin,
        payload: { username: 'mail-three', email: 'SHARED@example.com' },
      });
      expect(put.statusCode).toBe(409);
      expect(put.json()).toMatchObject({
        code: 'EMAIL_TAKEN',
        message: messages.server.emailTaken,
      });
      // Registering that email is refused too, though no account has it as its username.
      const register = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email: 'shared@example.com', password: 'long-enough' },
      });
      expect(register.statusCode).toBe(409);
    });
  });

  describe('PUT /api/users/:id', () => {
    it('changes the username and email', async () => {
      const { _id } = (await createUser({ username: 'before', password: 'long-enough' })).json();
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/users/${_id}`,
        headers: admin,
        payload: { username: 'after', email: 'after@example.com' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ _id, username: 'after', email: 'after@example.com' });
    });

    it('answers 409 for a taken username, 404 for an unknown user, 400 for bad input', async () => {
      const { _id } = (await createUser({ username: 'renamer', password: 'long-enough' })).json();
      const put = (id: string, payload: object) =>
        t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: admin, payload });
      expect((await put(_id, { username: 'viewer' })).statusCode).toBe(409);
      expect((await put(randomUUID(), { username: 'nobody' })).statusCode).toBe(404);
      expect((await put(_id, { username: '' })).statusCode).toBe(400);
      expect((await put(_id, { username: 'ok', email: 'bad' })).statusCode).toBe(400);
    });

    it('refuses to rename the admin user', async () => {
      const adminUser = (await listUsers()).find((u) => u.username === 'admin')!;
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/users/${adminUser._id}`,
        headers: admin,
        payload: { username: 'root' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'ADMIN_PROTECTED',
        message: messages.server.adminUserProtected,
      });
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('deletes the user and ends their sessions', async () => {
      const { _id } = (await createUser({ username: 'leaver', password: 'long-enough' })).json();
      const { refreshToken } = await login(t.app, 'leaver', 'long-enough');
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/${_id}`,
        headers: admin,
      });
      expect(res.statusCode).toBe(204);
      expect((await listUsers()).some((u) => u._id === _id)).toBe(false);
      const refresh = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        payload: { refreshToken },
      });
      expect(refresh.statusCode).toBe(401);
    });

    it('answers 404 for an unknown user', async () => {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/${randomUUID()}`,
        headers: admin,
      });
      expect(res.statusCode).toBe(404);
    });

    it('refuses to delete the user named admin', async () => {
      const adminUser = (await listUsers()).find((u) => u.username === 'admin')!;
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/${adminUser._id}`,
        headers: admin,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'ADMIN_PROTECTED',
        message: messages.server.adminUserProtected,
      });
    });

    it('refuses to delete the last user holding the admin role', async () => {
      const second = (
        await createUser({
          username: 'second-admin',
          password: 'long-enough',
          roles: [roleIds.admin],
        })
      ).json();
      const adminUser = (await listUsers()).find((u) => u.username === 'admin')!;
      // Take the admin role from the user named admin, leaving second-admin the only one.
      await t.app.inject({
        method: 'PUT',
        url: `/api/roles/${roleIds.admin}/users/${adminUser._id}`,
        headers: admin,
      });
      const secondToken = bearer((await login(t.app, 'second-admin', 'long-enough')).jwt);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/users/${second._id}`,
        headers: secondToken,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'LAST_ADMIN',
        message: messages.server.lastAdmin,
      });
      // Put things back.
      await t.app.inject({
        method: 'PUT',
        url: `/api/roles/${roleIds.admin}/users/${adminUser._id}`,
        headers: secondToken,
      });
    });
  });
  describe('POST /api/users/bulk-delete', () => {
    const bulkDelete = (ids: string[], headers = admin) =>
      t.app.inject({ method: 'POST', url: '/api/users/bulk-delete', headers, payload: { ids } });
    const made = async (username: string, roles: string[] = []): Promise<User> =>
      (await createUser({ username, password: 'long-enough', roles })).json();

    it('deletes the chosen users in one request, each with its audit line', async () => {
      const [a, b] = [await made('bulk-a'), await made('bulk-b')];
      const res = await bulkDelete([a!._id, b!._id]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ids: [a!._id, b!._id] });
      const left = (await listUsers()).map((u) => u._id);
      expect(left).not.toContain(a!._id);
      expect(left).not.toContain(b!._id);
      const audit = (
        await t.app.inject({ url: '/api/audit', query: { action: 'user.delete' }, headers: admin })
      ).json();
      expect(audit.events.map((e: { summary: string }) => e.summary)).toEqual(
        expect.arrayContaining(['Deleted the user bulk-a', 'Deleted the user bulk-b']),
      );
    });

    it('refuses the whole when one is the admin user, and deletes none; one gone is left out', async () => {
      const kept = await made('bulk-kept');
      const adminUser = (await listUsers()).find((u) => u.username === 'admin')!;
      const gone = randomUUID();
      const res = await bulkDelete([kept._id, adminUser._id, gone]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'BULK_REFUSED',
        report: {
          items: [{ id: adminUser._id, code: 'ADMIN_PROTECTED' }],
        },
      });
      expect((await listUsers()).some((u) => u._id === kept._id)).toBe(true);
      const res2 = await bulkDelete([kept._id, gone]);
      expect(res2.json()).toEqual({ ids: [kept._id] });
    });

    it('refuses to delete every user holding the admin role', async () => {
      await made('bulk-admin-x', [roleIds.admin!]);
      const asX = bearer((await login(t.app, 'bulk-admin-x', 'long-enough')).jwt);
      const adminUser = (await listUsers()).find((u) => u.username === 'admin')!;
      // The user named admin loses the role: the others holding it are the only admins.
      await t.app.inject({
        method: 'PUT',
        url: `/api/roles/${roleIds.admin}/users/${adminUser._id}`,
        headers: admin,
      });
      try {
        const everyone: User[] = (await t.app.inject({ url: '/api/users', headers: asX })).json();
        const admins = everyone
          .filter((u) => u.roles.some((role) => role.name === 'admin'))
          .map((u) => u._id);
        const res = await bulkDelete(admins, asX);
        expect(res.statusCode).toBe(409);
        expect(res.json().report.items).toEqual(
          admins.map((id) => ({ id, code: 'LAST_ADMIN', message: messages.server.lastAdmin })),
        );
      } finally {
        await t.app.inject({
          method: 'PUT',
          url: `/api/roles/${roleIds.admin}/users/${adminUser._id}`,
          headers: asX,
        });
      }
      // With the user named admin an admin again, x may go.
      const x = (await listUsers()).find((u) => u.username === 'bulk-admin-x')!;
      expect((await bulkDelete([x._id])).statusCode).toBe(200);
    });

    it('is allowed to whoever may delete one user, and answers 400 for no ids', async () => {
      const viewer = bearer((await login(t.app, 'viewer')).jwt);
      expect((await bulkDelete([randomUUID()], viewer)).statusCode).toBe(403);
      expect((await bulkDelete([])).statusCode).toBe(400);
    });
  });

  describe('POST /api/users/bulk-restore', () => {
    const restore = (ids: string[], headers = admin) =>
      t.app.inject({ method: 'POST', url: '/api/users/bulk-restore', headers, payload: { ids } });
    const remove = (id: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: admin });

    it('undoes a delete: same id, email and roles, the old password signs in, old sessions stay ended', async () => {
      const made: User = (
        await createUser({
          username: 'undone',
          email: 'undone@example.com',
          password: 'undo-password',
          roles: [roleIds.viewer, roleIds.contributor],
        })
      ).json();
      const before = bearer((await login(t.app, 'undone', 'undo-password')).jwt);
      expect((await remove(made._id)).statusCode).toBe(204);

      const res = await restore([made._id]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ids: [made._id] });
      expect((await listUsers()).find((u) => u._id === made._id)).toEqual({
        _id: made._id,
        username: 'undone',
        email: 'undone@example.com',
        roles: made.roles,
        _version: made._version + 1,
      });
      expect((await login(t.app, 'undone', 'undo-password')).jwt).toEqual(expect.any(String));
      // An access token of the session the delete ended does not come back to life.
      expect((await t.app.inject({ url: '/api/books', headers: before })).statusCode).toBe(401);
      const audit = (
        await t.app.inject({ url: '/api/audit', query: { action: 'user.restore' }, headers: admin })
      ).json();
      expect(audit.events[0]).toMatchObject({
        resourceId: made._id,
        summary: 'Restored the user undone',
      });
    });

    it('gives back the saved views of the user', async () => {
      const made: User = (
        await createUser({
          username: 'with-views',
          password: 'long-enough',
          roles: [roleIds.viewer],
        })
      ).json();
      const own = bearer((await login(t.app, 'with-views', 'long-enough')).jwt);
      await t.app.inject({
        method: 'POST',
        url: '/api/views',
        headers: own,
        payload: { grid: 'jobs', name: 'Mine', query: 'filter=x' },
      });
      await remove(made._id);
      await restore([made._id]);
      const again = bearer((await login(t.app, 'with-views', 'long-enough')).jwt);
      const views = (await t.app.inject({ url: '/api/views?grid=jobs', headers: again })).json();
      expect(views).toEqual([
        expect.objectContaining({ name: 'Mine', query: 'filter=x', mine: true }),
      ]);
    });

    it('undoes a bulk delete as a whole, giving back only the roles that still exist', async () => {
      const role: Role = (
        await t.app.inject({
          method: 'POST',
          url: '/api/roles',
          headers: admin,
          payload: { name: 'short-lived' },
        })
      ).json();
      const made: User[] = [];
      for (const username of ['bulk-undone-a', 'bulk-undone-b'])
        made.push(
          (await createUser({ username, password: 'long-enough', roles: [role._id] })).json(),
        );
      const ids = made.map((user) => user._id);
      await t.app.inject({
        method: 'POST',
        url: '/api/users/bulk-delete',
        headers: admin,
        payload: { ids },
      });
      await t.app.inject({ method: 'DELETE', url: `/api/roles/${role._id}`, headers: admin });
      expect((await restore(ids)).json()).toEqual({ ids });
      const back = (await listUsers()).filter((u) => ids.includes(u._id));
      expect(back.map((u) => [u.username, u.roles])).toEqual([
        ['bulk-undone-a', []],
        ['bulk-undone-b', []],
      ]);
    });

    it('refuses the whole, naming each user: not deleted, name taken, never deleted', async () => {
      const made: User[] = [];
      for (const username of ['twice', 'taken-meanwhile', 'fine'])
        made.push((await createUser({ username, password: 'long-enough' })).json());
      const [twice, taken, fine] = made as [User, User, User];
      for (const user of made) await remove(user._id);
      expect((await restore([twice._id])).statusCode).toBe(200);
      await createUser({ username: 'taken-meanwhile', password: 'long-enough' });
      const never = randomUUID();

      const res = await restore([twice._id, taken._id, fine._id, never]);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'BULK_REFUSED',
        report: {
          items: [
            { id: twice._id, code: 'CONFLICT', message: messages.server.notDeleted },
            { id: taken._id, code: 'USERNAME_TAKEN' },
            { id: never, code: 'NOT_FOUND' },
          ],
        },
      });
      // Nothing came back: fine is still deleted.
      expect((await listUsers()).some((u) => u._id === fine._id)).toBe(false);
    });

    it('answers CONFLICT for a user never deleted, and 400 for no ids', async () => {
      const viewerId = (await listUsers()).find((u) => u.username === 'viewer')!._id;
      expect((await restore([viewerId])).json().report.items).toEqual([
        { id: viewerId, code: 'CONFLICT', message: messages.server.notDeleted },
      ]);
      expect((await restore([])).statusCode).toBe(400);
    });

    it('is a route of the routes table of its own, not the right to delete', async () => {
      const routes: {
        _id: string;
        routeVerb: string;
        routePath: string;
        allowedRoles: string[];
      }[] = (await t.app.inject({ url: '/api/routes', headers: admin })).json();
      const route = routes.find(
        (r) => r.routeVerb === 'POST' && r.routePath === '/api/users/bulk-restore',
      )!;
      expect(route.allowedRoles).toEqual(['admin']);
      const made: User = (
        await createUser({ username: 'granted', password: 'long-enough' })
      ).json();
      await t.app.inject({ method: 'DELETE', url: `/api/users/${made._id}`, headers: admin });
      const contributor = bearer((await login(t.app, 'contributor')).jwt);
      expect((await restore([made._id], contributor)).statusCode).toBe(403);
      await t.app.inject({
        method: 'PUT',
        url: `/api/routes/${route._id}`,
        headers: admin,
        payload: { allowedRoles: ['admin', 'contributor'] },
      });
      try {
        expect((await restore([made._id], contributor)).statusCode).toBe(200);
      } finally {
        await t.app.inject({
          method: 'PUT',
          url: `/api/routes/${route._id}`,
          headers: admin,
          payload: { allowedRoles: ['admin'] },
        });
      }
    });
  });

  describe('PUT /api/users/:id/password', () => {
    const setPassword = (id: string, payload: object, headers = admin) =>
      t.app.inject({ method: 'PUT', url: `/api/users/${id}/password`, headers, payload });
    const refresh = (refreshToken: string, app = t.app) =>
      app.inject({ method: 'POST', url: '/api/auth/refresh-token', payload: { refreshToken } });
    const listBooks = (jwt: string, app = t.app) =>
      app.inject({ url: '/api/books', headers: bearer(jwt) });
    let viewer: User;
    let others: Record<'viewer' | 'contributor', { authorization: string }>;
    beforeAll(async () => {
      viewer = (await listUsers()).find((u) => u.username === 'viewer')!;
      others = {
        viewer: bearer((await login(t.app, 'viewer')).jwt),
        contributor: bearer((await login(t.app, 'contributor')).jwt),
      };
    });

    it('sets the password and ends every session of the user, on every server', async () => {
      const grace: User = (
        await createUser({ username: 'grace', password: 'old-password', roles: [roleIds.viewer] })
      ).json();
      const other = await t.startAnother();
      const before = await login(t.app, 'grace', 'old-password');
      const onOther = await login(other, 'grace', 'old-password');
      // Both servers now hold the user's identity in their caches.
      expect((await listBooks(before.jwt)).statusCode).toBe(200);
      expect((await listBooks(before.jwt, other)).statusCode).toBe(200);

      const res = await setPassword(grace._id, { password: 'new-password' });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');

      const old = await listBooks(before.jwt);
      expect(old.statusCode).toBe(401);
      expect(old.json().code).toBe('UNAUTHENTICATED');
      await eventually(async () =>
        expect((await listBooks(before.jwt, other)).statusCode).toBe(401),
      );
      for (const token of [before.refreshToken, onOther.refreshToken]) {
        const refused = await refresh(token);
        expect(refused.statusCode).toBe(401);
        expect(refused.json().code).toBe('INVALID_REFRESH_TOKEN');
      }
      await expect(login(t.app, 'grace', 'old-password')).rejects.toThrow('401');
      const after = await login(t.app, 'grace', 'new-password');
      expect((await listBooks(after.jwt)).statusCode).toBe(200);
      expect((await refresh(after.refreshToken)).statusCode).toBe(200);
    });

    // Only PostgreSQL runs two transactions at once (PGlite is one session in the process).
    (kind === 'postgres' ? it.each : it.skip.each)([
      ['a refresh reaches the database first', 'refresh'],
      ['the password change reaches the database first', 'password'],
    ] as const)('ends every session when %s and both run at once', async (_, first) => {
      const { _id } = (
        await createUser({ username: `racer-${first}`, password: 'old-password' })
      ).json() as User;
      const session = await login(t.app, `racer-${first}`, 'old-password');

      // A transaction of the test's own holds the refresh tokens against writes, so both
      // requests reach the database and stop there, in the chosen order, before either
      // writes a token: the refresh has then locked its token row (or waits before doing
      // so), and the password change has updated the user (or waits to).
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      const holder = t.database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table refresh_tokens in share mode`);
        held();
        await released;
      });
      await holding;
      const waiting = async (count: number) => {
        const [row] = await queryRows<{ waiting: number }>(
          t.database.db,
          sql`select count(*)::int as waiting from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`,
        );
        expect(row!.waiting).toBe(count);
      };
      const requests = {
        refresh: () => refresh(session.refreshToken),
        password: () => setPassword(_id, { password: 'new-password' }),
      };
      const firstDone = requests[first]();
      await eventually(() => waiting(1));
      const secondDone = requests[first === 'refresh' ? 'password' : 'refresh']();
      await eventually(() => waiting(2));
      release();
      await holder;
      const [refreshed, changed] =
        first === 'refresh'
          ? [await firstDone, await secondDone]
          : [await secondDone, await firstDone];
      expect(changed.statusCode).toBe(204);

      // Whatever the user holds now, no session is left.
      const renewed = refreshed.statusCode === 200 ? refreshed.json() : undefined;
      const refreshToken = renewed?.refreshToken ?? session.refreshToken;
      const accessToken = renewed?.accessToken ?? session.jwt;
      const again = await refresh(refreshToken);
      expect(again.statusCode).toBe(401);
      expect(again.json().code).toBe('INVALID_REFRESH_TOKEN');
      expect((await listBooks(accessToken)).statusCode).toBe(401);
    });

    it.each(['viewer', 'contributor'] as const)('answers 403 to a %s', async (who) => {
      const res = await setPassword(viewer._id, { password: 'a-new-password' }, others[who]);
      expect(res.statusCode).toBe(403);
      // Nothing changed: the viewer's session goes on.
      expect((await listBooks(others.viewer.authorization.slice(7))).statusCode).toBe(200);
    });

    it('answers 404 for an unknown user', async () => {
      const res = await setPassword(randomUUID(), { password: 'a-new-password' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    });

    it.each([[{ password: 'short' }], [{ password: 'x'.repeat(129) }], [{}]])(
      'answers 400 VALIDATION_FAILED naming the password for %p',
      async (payload) => {
        const res = await setPassword(viewer._id, payload);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('VALIDATION_FAILED');
        expect(res.json().fields.map((f: { field: string }) => f.field)).toEqual(['body.password']);
        expect((await listBooks(others.viewer.authorization.slice(7))).statusCode).toBe(200);
      },
    );
  });
});

describe('setting a password, in the log', () => {
  it('logs who set whose password at info level, never the password', async () => {
    const lines: string[] = [];
    const database = await openTestPglite();
    const app = await buildApp(testConfig({ LOG_LEVEL: 'info' }), {
      database,
      logStream: { write: (line) => lines.push(line) },
    });
    try {
      const admin = bearer((await login(app, 'admin')).jwt);
      const users: User[] = (await app.inject({ url: '/api/users', headers: admin })).json();
      const viewer = users.find((u) => u.username === 'viewer')!;
      const res = await app.inject({
        method: 'PUT',
        url: `/api/users/${viewer._id}/password`,
        headers: admin,
        payload: { password: 'logged-nowhere' },
      });
      expect(res.statusCode).toBe(204);
      const entries = lines.map((line) => JSON.parse(line));
      expect(entries).toContainEqual(
        expect.objectContaining({ level: 30, userId: viewer._id, by: 'admin' }),
      );
      expect(lines.join('')).not.toContain('logged-nowhere');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
