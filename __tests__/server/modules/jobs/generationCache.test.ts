import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { JobListQuery } from '@common/schemas/jobs';
import { type Database, fromPglite, pgliteExtensions, withSearchSession } from '@server/db/client';
import { JOB_STATUSES } from '@server/modules/jobs/jobGenerator';
import { listJobs, loadJobs } from '@server/modules/jobs/jobs.service';
import { openTestDatabase, testDbKinds } from '../../helpers/testDatabase';
import { templatePath } from '../../setup/templatePath';

/** A fresh database, and a spy on its client's `query`: every statement a call sends. */
async function openCounted(kind: (typeof testDbKinds)[number]) {
  if (kind === 'pglite') {
    const loadDataDir = new Blob([readFileSync(templatePath())]);
    const client = await PGlite.create({ loadDataDir, extensions: pgliteExtensions });
    return { database: fromPglite(client), statements: jest.spyOn(client, 'query') };
  }
  const database = await openTestDatabase(kind);
  // Filtered lists run on the search pool.
  const pool = await withSearchSession(database.db, async (session) => session as pg.Pool);
  return { database, statements: jest.spyOn(pool, 'query') };
}

describe.each(testDbKinds)('filter totals and pages kept, on %s', (kind) => {
  let database: Database;
  let statements: jest.SpyInstance;
  beforeAll(async () => {
    ({ database, statements } = await openCounted(kind));
    await loadJobs(database.db, 1, 300);
  }, 60_000);
  afterAll(() => database.close());

  const asked = (filter: string): JobListQuery => ({
    filter,
    page: 1,
    perPage: 20,
    sortColumn: 'friendlyNumber',
    sortOrder: 'asc',
  });

  it("answers a page asked again with one statement, the jobs' generation; another page of the filter with the page's", async () => {
    const status = JOB_STATUSES[0]!.toLowerCase();
    const first = await listJobs(database.db, asked(status));
    expect(first.totalJobs).toBeGreaterThan(20);
    statements.mockClear();
    expect(await listJobs(database.db, asked(status))).toEqual(first);
    expect(statements).toHaveBeenCalledTimes(1);
    statements.mockClear();
    const second = await listJobs(database.db, { ...asked(status), page: 2 });
    expect(second).toMatchObject({ totalJobs: first.totalJobs, page: 2 });
    expect(statements).toHaveBeenCalledTimes(2);
  });

  it('answers a filter not seen before, among few jobs, in two statements', async () => {
    // The jobs' generation with what status and conclusion say of the words, then the page
    // with its exact total.
    statements.mockClear();
    const answer = await listJobs(database.db, asked('first seen'));
    expect(answer).toMatchObject({ totalIsEstimate: false, page: 1 });
    expect(statements).toHaveBeenCalledTimes(2);
  });

  it('answers a filter asked again after the jobs changed as it stands now', async () => {
    const word = 'Countedonce';
    const insert = (number: string) =>
      database.db.execute(
        sql`insert into jobs (friendly_number, status, conclusion, description)
            values (${number}, 'Received', 'Pending', ${`${word} job`})`,
      );
    await insert('R-1');
    expect(await listJobs(database.db, asked(word))).toMatchObject({ totalJobs: 1 });
    // As another server would, behind this one's back: nothing tells it.
    await insert('R-2');
    const again = await listJobs(database.db, asked(word));
    expect(again).toMatchObject({ totalJobs: 2 });
    expect(again.jobs.map((job) => job.friendlyNumber)).toEqual(['R-1', 'R-2']);
    // Known once more: one statement.
    statements.mockClear();
    expect(await listJobs(database.db, asked(word))).toEqual(again);
    expect(statements).toHaveBeenCalledTimes(1);

    await database.db.execute(sql`delete from jobs where friendly_number in ('R-1', 'R-2')`);
    expect(await listJobs(database.db, asked(word))).toMatchObject({ totalJobs: 0, jobs: [] });
  });
  // On PGlite each call's statements run in a turn of their own: never two at once.
  (kind === 'postgres' ? it : it.skip)('finds a page asked twice at once only once', async () => {
    // The page is held back until both have read the jobs' generation, so that the second
    // asks while the first is finding it.
    const pool = await withSearchSession(database.db, async (session) => session as pg.Pool);
    const send = (...args: unknown[]) =>
      (pg.Pool.prototype.query as (...a: unknown[]) => Promise<unknown>).apply(pool, args);
    let generationsRead = 0;
    let bothRead = () => {};
    const bothHaveRead = new Promise<void>((resolve) => (bothRead = resolve));
    statements.mockClear();
    statements.mockImplementation(async (...args: unknown[]) => {
      const name = (args[0] as { name?: string }).name ?? '';
      if (!name.startsWith('jobs_totals')) await bothHaveRead;
      const answer = await send(...args);
      if (name.startsWith('jobs_totals') && ++generationsRead === 2) bothRead();
      return answer;
    });
    try {
      const [first, second] = await Promise.all([
        listJobs(database.db, asked('asked at once')),
        listJobs(database.db, asked('asked at once')),
      ]);
      expect(second).toEqual(first);
      // Each the generation, and one page.
      expect(statements).toHaveBeenCalledTimes(3);
    } finally {
      statements.mockImplementation(send);
    }
  });
});
