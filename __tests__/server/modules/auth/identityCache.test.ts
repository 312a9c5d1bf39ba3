import { eq, sql } from 'drizzle-orm';
import type { Permissions } from '@common/schemas/permissions';
import { roles } from '@server/db/schema/roles';
import { users, userRoles } from '@server/db/schema/users';
import { IDENTITY_TTL_MS, IdentityCache } from '@server/modules/auth/identityCache';
import { bearer, login } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe('the identity cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(() => t.close());

  // This cache listens for nothing, as if the server's LISTEN connection had dropped.
  it('reads an identity again once it is IDENTITY_TTL_MS old, even without a notice', async () => {
    const cache = new IdentityCache(t.database.db, t.clock.now);
    const [viewer] = await t.database.db.select().from(users).where(eq(users.username, 'viewer'));
    expect((await cache.find(viewer!.id))?.identity.roles).toEqual(['viewer']);

    await t.database.db.delete(userRoles).where(eq(userRoles.userId, viewer!.id));
    t.clock.advance(IDENTITY_TTL_MS - 1000);
    expect((await cache.find(viewer!.id))?.identity.roles).toEqual(['viewer']);
    t.clock.advance(1000);
    expect((await cache.find(viewer!.id))?.identity.roles).toEqual([]);
  });

  it('forgets every identity when invalidated', async () => {
    const cache = new IdentityCache(t.database.db, t.clock.now);
    const [admin] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
    expect((await cache.find(admin!.id))?.identity.username).toBe('admin');
    await t.database.db.update(users).set({ username: 'chief' }).where(eq(users.id, admin!.id));
    expect((await cache.find(admin!.id))?.identity.username).toBe('admin');
    cache.invalidate();
    expect((await cache.find(admin!.id))?.identity.username).toBe('chief');
  });
});

describe.each(testDbKinds)('the identity cache of a server on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('is kept through other writes, and forgotten at once when users or roles change', async () => {
    const admin = bearer((await login(t.app, 'admin')).jwt);
    const contributor = bearer((await login(t.app, 'contributor')).jwt);
    const contributorRoles = async () =>
      (
        (
          await t.app.inject({ url: '/api/auth/permissions', headers: contributor })
        ).json() as Permissions
      ).roles;
    expect(await contributorRoles()).toEqual(['contributor']);

    // A membership added without the trigger's NOTIFY: the server learns of it only when
    // it forgets its cached identities.
    const db = t.database.db;
    const [viewerRole] = await db.select().from(roles).where(eq(roles.name, 'viewer'));
    const [contributorUser] = await db
      .select()
      .from(users)
      .where(eq(users.username, 'contributor'));
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.insert(userRoles).values({ userId: contributorUser!.id, roleId: viewerRole!.id });
    });

    const book = await t.app.inject({
      method: 'POST',
      url: '/api/books/add',
      headers: contributor,
      payload: { title: 'Kept identities' },
    });
    expect(book.statusCode).toBe(201);
    expect(await contributorRoles()).toEqual(['contributor']);

    // Any change to roles (here the admin's) makes every identity be read again.
    const [adminUser] = await db.select().from(users).where(eq(users.username, 'admin'));
    const toggle = await t.app.inject({
      method: 'PUT',
      url: `/api/roles/${viewerRole!.id}/users/${adminUser!.id}`,
      headers: admin,
    });
    expect(toggle.json()).toEqual({ hasRole: true });
    expect(await contributorRoles()).toEqual(['contributor', 'viewer']);
  });
});
