import { messages } from '@common/messages';
import type { Role } from '@common/schemas/roles';
import { type SavedView, VIEWS_PER_GRID_MAX } from '@common/schemas/views';
import { bearer, login, registerUser } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('saved views on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;
  let contributor: Record<string, string>;
  let roleIds: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
    contributor = bearer((await login(t.app, 'contributor')).jwt);
    const roles: Role[] = (await t.app.inject({ url: '/api/roles', headers: admin })).json();
    roleIds = Object.fromEntries(roles.map((role) => [role.name, role._id]));
  });
  afterAll(() => t.close());

  const list = async (headers: Record<string, string>, grid = 'users'): Promise<SavedView[]> => {
    const res = await t.app.inject({ url: `/api/views?grid=${encodeURIComponent(grid)}`, headers });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const save = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/views', headers, payload });
  const saveForRole = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/role-views', headers, payload });
  const auditOf = async (action: string) =>
    (await t.app.inject({ url: `/api/audit?action=${action}`, headers: admin })).json().events;

  describe('a user’s own views', () => {
    it('saves a view and lists it to its owner only, as theirs', async () => {
      const res = await save(viewer, {
        grid: 'users',
        name: ' By email ',
        query: 'sort=email:desc',
      });
      expect(res.statusCode).toBe(201);
      const view = res.json();
      expect(view).toEqual({
        _id: expect.any(String),
        grid: 'users',
        name: 'By email',
        query: 'sort=email:desc',
        role: null,
        mine: true,
      });
      expect(await list(viewer)).toEqual([view]);
      expect(await list(contributor)).toEqual([]);
      expect(await list(viewer, 'jobs')).toEqual([]);
    });

    it('renames and changes a view; another user cannot, nor delete it', async () => {
      const view = (
        await save(viewer, { grid: 'jobs', name: 'Failed', query: 'filter=failed' })
      ).json();
      const put = (headers: Record<string, string>, payload: Record<string, unknown>) =>
        t.app.inject({ method: 'PUT', url: `/api/views/${view._id}`, headers, payload });
      expect((await put(contributor, { name: 'Mine now' })).statusCode).toBe(404);
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/api/views/${view._id}`,
            headers: contributor,
          })
        ).statusCode,
      ).toBe(404);
      const renamed = await put(viewer, { name: 'Failing', query: 'filter=failed&perPage=100' });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ name: 'Failing', query: 'filter=failed&perPage=100' });
      expect((await put(viewer, {})).statusCode).toBe(400);
      const gone = await t.app.inject({
        method: 'DELETE',
        url: `/api/views/${view._id}`,
        headers: viewer,
      });
      expect(gone.statusCode).toBe(204);
      expect(await list(viewer, 'jobs')).toEqual([]);
    });

    it('answers 409 NAME_TAKEN for a name the owner has on that list, not on another', async () => {
      await save(contributor, { grid: 'audit', name: 'Logins', query: 'q=login' });
      const again = await save(contributor, { grid: 'audit', name: 'Logins', query: 'q=x' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'NAME_TAKEN',
        message: messages.server.viewNameTaken,
      });
      expect(
        (await save(contributor, { grid: 'records/books_x', name: 'Logins', query: '' }))
          .statusCode,
      ).toBe(201);
      expect((await save(admin, { grid: 'audit', name: 'Logins', query: '' })).statusCode).toBe(
        201,
      );
    });

    // A list that is not one, a blank, long or look-alike name, a query with a line break,
    // a `?` or past 2,000 characters.
    it.each([
      [{ grid: 'nothing', name: 'x', query: '' }, 'body.grid'],
      [{ grid: 'records/no-dash', name: 'x', query: '' }, 'body.grid'],
      [{ grid: 'users', name: '   ', query: '' }, 'body.name'],
      [{ grid: 'users', name: 'x'.repeat(61), query: '' }, 'body.name'],
      [{ grid: 'users', name: 'a\u202Eb', query: '' }, 'body.name'],
      [{ grid: 'users', name: 'x', query: 'q=a\nb' }, 'body.query'],
      [{ grid: 'users', name: 'x', query: '?q=a' }, 'body.query'],
      [{ grid: 'users', name: 'x', query: 'q='.padEnd(2001, 'a') }, 'body.query'],
    ])('answers 400 for a bad %#th view, naming %s', async (payload, field) => {
      const res = await save(viewer, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it(`keeps at most ${VIEWS_PER_GRID_MAX} views of one list per user`, async () => {
      const user = bearer((await login(t.app, 'admin')).jwt);
      for (let i = 0; i < VIEWS_PER_GRID_MAX; i++)
        expect((await save(user, { grid: 'jobs', name: `v${i}`, query: '' })).statusCode).toBe(201);
      const over = await save(user, { grid: 'jobs', name: 'one more', query: '' });
      expect(over.statusCode).toBe(409);
      expect(over.json().message).toBe(messages.server.tooManyViews(VIEWS_PER_GRID_MAX));
    });

    it('answers 403 to a user with no role (the routes table grants views to the roles)', async () => {
      const nobody = bearer((await registerUser(t.app)).jwt);
      expect(
        (await t.app.inject({ url: '/api/views?grid=users', headers: nobody })).statusCode,
      ).toBe(403);
      expect((await save(nobody, { grid: 'users', name: 'x', query: '' })).statusCode).toBe(403);
    });

    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ url: '/api/views?grid=users' })).statusCode).toBe(401);
    });
  });

  describe('views for a role', () => {
    it('shows an admin’s view for a role to its members, after their own, and audits it', async () => {
      const res = await saveForRole(admin, {
        roleId: roleIds.viewer,
        grid: 'users',
        name: 'Team default',
        query: 'columns=username',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({
        role: { _id: roleIds.viewer, name: 'viewer' },
        mine: false,
      });
      await save(viewer, { grid: 'users', name: 'Zed, my own', query: '' });
      const seen = (await list(viewer)).map((view) => [view.name, view.role?.name ?? null]);
      // The member's own views first (by name), then their roles'.
      expect(seen.indexOf(seen.find(([name]) => name === 'Zed, my own')!)).toBeLessThan(
        seen.findIndex(([name]) => name === 'Team default'),
      );
      expect(seen).toContainEqual(['Team default', 'viewer']);
      expect((await list(contributor)).some((view) => view.name === 'Team default')).toBe(false);
      // Who keeps views for roles sees every role's, theirs or not.
      expect((await list(admin)).find((view) => view.name === 'Team default')).toMatchObject({
        role: { name: 'viewer' },
      });
      const [event] = await auditOf('view.create');
      expect(event).toMatchObject({
        actor: { name: 'admin' },
        resourceId: res.json()._id,
        summary: 'Saved the view Team default of users for the role viewer',
      });
    });

    it('is refused to a member, who can neither save, change nor delete one', async () => {
      const view = (
        await saveForRole(admin, {
          roleId: roleIds.contributor,
          grid: 'jobs',
          name: 'Shared',
          query: '',
        })
      ).json();
      expect(
        (await saveForRole(contributor, { ...view, roleId: roleIds.contributor, name: 'x' }))
          .statusCode,
      ).toBe(403);
      const asMember = { headers: contributor, url: `/api/role-views/${view._id}` };
      expect(
        (await t.app.inject({ ...asMember, method: 'PUT', payload: { name: 'y' } })).statusCode,
      ).toBe(403);
      expect((await t.app.inject({ ...asMember, method: 'DELETE' })).statusCode).toBe(403);
      // Nor through the routes of one's own views.
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/api/views/${view._id}`,
            headers: contributor,
          })
        ).statusCode,
      ).toBe(404);
    });

    it('is changed and deleted by an admin, each audited; a personal view is not a role’s', async () => {
      const view = (
        await saveForRole(admin, {
          roleId: roleIds.viewer,
          grid: 'jobs',
          name: 'Open jobs',
          query: 'filter=open',
        })
      ).json();
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/role-views/${view._id}`,
        headers: admin,
        payload: { name: 'Open', query: 'filter=open&perPage=20' },
      });
      expect(put.statusCode).toBe(200);
      expect((await auditOf('view.update'))[0].summary).toBe(
        'Changed the view Open jobs (now Open) of jobs for the role viewer',
      );
      const own = (await save(viewer, { grid: 'jobs', name: 'Own', query: '' })).json();
      expect(
        (
          await t.app.inject({
            method: 'DELETE',
            url: `/api/role-views/${own._id}`,
            headers: admin,
          })
        ).statusCode,
      ).toBe(404);
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/role-views/${view._id}`,
        headers: admin,
      });
      expect(del.statusCode).toBe(204);
      expect((await auditOf('view.delete'))[0].summary).toBe(
        'Deleted the view Open of jobs for the role viewer',
      );
      expect((await list(viewer, 'jobs')).map((v) => v.name)).toEqual(['Own']);
    });

    it('answers 400 for an unknown role and 409 for a name the role has on the list', async () => {
      const unknown = await saveForRole(admin, {
        roleId: '00000000-0000-4000-8000-000000000000',
        grid: 'users',
        name: 'x',
        query: '',
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().fields).toEqual([{ field: 'roleId', message: 'is not a role' }]);
      const again = await saveForRole(admin, {
        roleId: roleIds.viewer,
        grid: 'users',
        name: 'Team default',
        query: '',
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(messages.server.roleViewNameTaken);
    });

    it('goes with its role', async () => {
      const role = (
        await t.app.inject({
          method: 'POST',
          url: '/api/roles',
          headers: admin,
          payload: { name: 'temporary' },
        })
      ).json();
      const view = (
        await saveForRole(admin, { roleId: role._id, grid: 'users', name: 'Temp', query: '' })
      ).json();
      await t.app.inject({ method: 'DELETE', url: `/api/roles/${role._id}`, headers: admin });
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/role-views/${view._id}`,
        headers: admin,
        payload: { name: 'Still here?' },
      });
      expect(put.statusCode).toBe(404);
    });
  });
});
