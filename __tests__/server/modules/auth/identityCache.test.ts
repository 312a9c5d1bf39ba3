import { eq } from 'drizzle-orm';
import { users, userRoles } from '@server/db/schema/users';
import { IDENTITY_TTL_MS, IdentityCache } from '@server/modules/auth/identityCache';
import { type TestApp, startTestApp } from '../../helpers/testApp';

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
    expect((await cache.find(viewer!.id))?.roles).toEqual(['viewer']);

    await t.database.db.delete(userRoles).where(eq(userRoles.userId, viewer!.id));
    t.clock.advance(IDENTITY_TTL_MS - 1000);
    expect((await cache.find(viewer!.id))?.roles).toEqual(['viewer']);
    t.clock.advance(1000);
    expect((await cache.find(viewer!.id))?.roles).toEqual([]);
  });

  it('forgets every identity when invalidated', async () => {
    const cache = new IdentityCache(t.database.db, t.clock.now);
    const [admin] = await t.database.db.select().from(users).where(eq(users.username, 'admin'));
    expect((await cache.find(admin!.id))?.username).toBe('admin');
    await t.database.db.update(users).set({ username: 'chief' }).where(eq(users.id, admin!.id));
    expect((await cache.find(admin!.id))?.username).toBe('admin');
    cache.invalidate();
    expect((await cache.find(admin!.id))?.username).toBe('chief');
  });
});
