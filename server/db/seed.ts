import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ADMIN_ROLE, ADMIN_USERNAME, DEFAULT_ROLES, DEMO_ACCOUNTS } from '@common/constants';
import type { Config } from '../config';
import { hashPassword } from '../lib/password';
import { recordVersions } from '../lib/versions';
import { hasJobs, loadJobs, settleJobSearch } from '../modules/jobs/jobs.service';
import { SEED_BOOKS } from './seedBooks';
import type { Db, Tx } from './client';
import { books } from './schema/books';
import { roles } from './schema/roles';
import { seedSteps } from './schema/seedSteps';
import { userRoles, users } from './schema/users';

/**
 * One part of the first-start data. `prepare` does the slow work that needs no
 * transaction (password hashing) and returns the writes, which run in one transaction;
 * `settle`, when there is one, runs after they commit, outside any transaction.
 */
interface SeedStep {
  name: string;
  prepare(): Promise<(tx: Tx) => Promise<void>>;
  settle?(db: Db): Promise<void>;
}

function accountsStep(config: Config, log: FastifyBaseLogger): SeedStep {
  return {
    name: 'accounts',
    prepare: async () => {
      const generatedAdminPassword = config.adminPassword
        ? undefined
        : randomBytes(12).toString('base64url');
      const wanted = [
        ...DEMO_ACCOUNTS,
        {
          username: ADMIN_USERNAME,
          password: config.adminPassword ?? generatedAdminPassword!,
          role: ADMIN_ROLE,
        },
      ];
      const accounts = await Promise.all(
        wanted.map(async ({ username, password, role }) => ({
          username,
          role,
          passwordHash: await hashPassword(password),
        })),
      );
      return async (tx) => {
        await tx
          .insert(roles)
          .values(DEFAULT_ROLES.map((name) => ({ name })))
          .onConflictDoNothing();
        for (const { username, role, passwordHash } of accounts) {
          const [created] = await tx
            .insert(users)
            .values({ username, passwordHash })
            .onConflictDoNothing()
            .returning({ id: users.id });
          if (!created) continue; // an account of that name exists: leave it as it is
          const [roleRow] = await tx.select().from(roles).where(eq(roles.name, role));
          await tx.insert(userRoles).values({ userId: created.id, roleId: roleRow!.id });
          if (username === ADMIN_USERNAME && generatedAdminPassword) {
            log.warn(
              `Created the ${ADMIN_USERNAME} account with the generated password ${generatedAdminPassword} ` +
                '(shown once; set ADMIN_PASSWORD to choose it)',
            );
          }
        }
      };
    },
  };
}

/** About thirty well-known books, each with its first version; the first listed is the newest. */
const booksStep: SeedStep = {
  name: 'books',
  prepare: async () => async (tx) => {
    const now = Date.now();
    const rows = await tx
      .insert(books)
      .values(
        SEED_BOOKS.map((book, index) => ({ ...book, createdAt: new Date(now - index * 60_000) })),
      )
      .returning();
    await recordVersions(
      tx,
      rows.map((row) => ({
        resource: 'books',
        documentId: row.id,
        action: 'create',
        updatedBy: 'seed',
        document: { _id: row.id, title: row.title, author: row.author, isbn: row.isbn },
      })),
    );
  },
};

/**
 * The laboratory jobs (SEED_JOBS of them, generated deterministically), unless there are
 * jobs already (`npm run seed:jobs` or a load before the first start): asked of an index,
 * so a first start on millions of loaded jobs is as quick as on none.
 */
const jobsStep = (count: number): SeedStep => ({
  name: 'jobs',
  prepare: async () => async (tx) => {
    if (!(await hasJobs(tx))) await loadJobs(tx, 1, count);
  },
  // Otherwise every search reads the index's pending entries (~4 ms a filter at 10,000 jobs)
  // until autovacuum moves them, and on the embedded database nothing ever does.
  settle: settleJobSearch,
});

/**
 * Seeds what a new database needs: each step once, in its own transaction together with
 * the row that marks it done, so a crash mid-seed leaves nothing half-written and the
 * next start finishes the job. Safe when several servers start at once (advisory lock).
 */
export async function seedDatabase(db: Db, config: Config, log: FastifyBaseLogger): Promise<void> {
  const steps = [accountsStep(config, log), booksStep, jobsStep(config.seedJobs)];
  const done = await db
    .select({ name: seedSteps.name })
    .from(seedSteps)
    .where(
      inArray(
        seedSteps.name,
        steps.map((step) => step.name),
      ),
    );
  const doneNames = new Set(done.map((row) => row.name));
  for (const step of steps.filter((s) => !doneNames.has(s.name))) {
    log.info({ step: step.name }, 'Seeding the database');
    const write = await step.prepare();
    const wrote = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('seed'))`);
      const [claimed] = await tx
        .insert(seedSteps)
        .values({ name: step.name })
        .onConflictDoNothing()
        .returning();
      if (!claimed) return false; // another server seeded it meanwhile
      await write(tx);
      return true;
    });
    if (wrote) await step.settle?.(db);
  }
}
