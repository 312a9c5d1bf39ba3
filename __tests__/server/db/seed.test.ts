import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { ADMIN_USERNAME } from '@common/constants';
import { type Database, queryRows } from '@server/db/client';
import { jobs } from '@server/db/schema/jobs';
import { roles } from '@server/db/schema/roles';
import { seedDatabase } from '@server/db/seed';
import { userRoles, users } from '@server/db/schema/users';
import { verifyPassword } from '@server/lib/password';
import { loadJobs } from '@server/modules/jobs/jobs.service';
import { testConfig, TEST_ADMIN_PASSWORD } from '../helpers/testApp';
import { openTestDatabase, testDbKinds } from '../helpers/testDatabase';

const silent = pino({ level: 'silent' }) as FastifyBaseLogger;

async function accounts(database: Database) {
  return database.db
    .select({ username: users.username, role: roles.name, passwordHash: users.passwordHash })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .orderBy(asc(users.username));
}

describe.each(testDbKinds)('seedDatabase on %s', (kind) => {
  let database: Database;
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  });
  afterEach(() => database.close());

  it('creates the default roles and the three accounts with their roles', async () => {
    await seedDatabase(database.db, testConfig(), silent);
    const roleNames = await database.db.select({ name: roles.name }).from(roles);
    expect(roleNames.map((r) => r.name).sort()).toEqual(['admin', 'contributor', 'viewer']);
    expect((await accounts(database)).map(({ username, role }) => [username, role])).toEqual([
      ['admin', 'admin'],
      ['contributor', 'contributor'],
      ['viewer', 'viewer'],
    ]);
  });

  it('stores only Argon2id hashes that verify the demo and admin passwords', async () => {
    await seedDatabase(database.db, testConfig(), silent);
    const byName = new Map((await accounts(database)).map((a) => [a.username, a.passwordHash!]));
    for (const [username, password] of [
      ['viewer', 'viewer123'],
      ['contributor', 'contributor123'],
      [ADMIN_USERNAME, TEST_ADMIN_PASSWORD],
    ] as const) {
      const stored = byName.get(username)!;
      expect(stored).toMatch(/^\$argon2id\$/);
      expect(stored).not.toContain(password);
      expect(await verifyPassword(stored, password)).toBe(true);
      expect(await verifyPassword(stored, `${password}x`)).toBe(false);
    }
  });

  it('generates an admin password when none is configured and logs it once', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    await seedDatabase(database.db, testConfig({ ADMIN_PASSWORD: '' }), log as FastifyBaseLogger);
    const announced = lines.join('').match(/generated password (\S+)/);
    expect(announced).not.toBeNull();
    const admin = (await accounts(database)).find((a) => a.username === ADMIN_USERNAME)!;
    expect(await verifyPassword(admin.passwordHash!, announced![1]!)).toBe(true);

    lines.length = 0;
    await seedDatabase(database.db, testConfig({ ADMIN_PASSWORD: '' }), log as FastifyBaseLogger);
    expect(lines.join('')).not.toContain('generated password');
  });

  it('neither duplicates nor resets anything when it runs again', async () => {
    await seedDatabase(database.db, testConfig(), silent);
    // What people did since the first start: removed a demo account, changed the admin password.
    await database.db.delete(users).where(eq(users.username, 'viewer'));
    await database.db
      .update(users)
      .set({ passwordHash: 'changed' })
      .where(eq(users.username, ADMIN_USERNAME));

    await seedDatabase(database.db, testConfig({ ADMIN_PASSWORD: 'another-password' }), silent);

    const after = await accounts(database);
    expect(after.map((a) => a.username)).toEqual(['admin', 'contributor']);
    expect(after.find((a) => a.username === ADMIN_USERNAME)!.passwordHash).toBe('changed');
    expect(await database.db.$count(roles)).toBe(3);
  });

  it('seeds SEED_JOBS jobs, unless jobs were loaded before the first start', async () => {
    await seedDatabase(database.db, testConfig({ SEED_JOBS: '25' }), silent);
    expect(await database.db.$count(jobs)).toBe(25);

    const other = await openTestDatabase(kind);
    await loadJobs(other.db, 1, 5);
    await seedDatabase(other.db, testConfig({ SEED_JOBS: '25' }), silent);
    expect(await other.db.$count(jobs)).toBe(5);
    await other.close();
  });

  it('leaves the seeded jobs in the trigram index itself, none pending for searches to read', async () => {
    await seedDatabase(database.db, testConfig({ SEED_JOBS: '200' }), silent);
    // Moves what is still pending into the index, and says how many pages that was.
    const moved = await queryRows<{ pages: number }>(
      database.db,
      sql`select gin_clean_pending_list('jobs_indexed_text_trgm_index'::regclass)::int as pages`,
    );
    expect(moved).toEqual([{ pages: 0 }]);
  });

  it('seeds no jobs where some were put in by hand, whatever their numbers', async () => {
    await database.db.insert(jobs).values({
      friendlyNumber: 'LAB-7',
      status: 'Received',
      conclusion: 'Pending',
      description: 'Entered by hand',
    });
    await seedDatabase(database.db, testConfig({ SEED_JOBS: '25' }), silent);
    expect(await database.db.$count(jobs)).toBe(1);
  });

  it('completes when two servers seed the same database at once', async () => {
    await Promise.all([
      seedDatabase(database.db, testConfig(), silent),
      seedDatabase(database.db, testConfig(), silent),
    ]);
    expect(await accounts(database)).toHaveLength(3);
  });
});
