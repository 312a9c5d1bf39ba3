import { sql } from 'drizzle-orm';
import type { Database } from '@server/db/client';
import { listJobs, loadJobs } from '@server/modules/jobs/jobs.service';
import { generateJob } from '@server/modules/jobs/jobGenerator';
import { openTestPglite } from '../helpers/testDatabase';

describe('the embedded database under many statements at once', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestPglite();
    await loadJobs(database.db, 1, 50);
  });
  afterAll(() => database.close());

  it('lets the event loop turn between them, so sockets are served while they queue', async () => {
    let finished = 0;
    const statements = Array.from({ length: 50 }, () =>
      database.db.execute(sql`select 1`).then(() => finished++),
    );
    // PGlite alone ran all fifty back to back before the event loop's next round.
    await new Promise((resolve) => setImmediate(resolve));
    const finishedAfterOneRound = finished;
    await Promise.all(statements);
    expect(finished).toBe(50);
    expect(finishedAfterOneRound).toBeLessThan(5);
  });

  it('still runs a transaction whole, and the statements queued behind it after it', async () => {
    const order: string[] = [];
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      order.push('transaction, first statement');
      await tx.execute(sql`select 2`);
      order.push('transaction, second statement');
    });
    const after = database.db.execute(sql`select 3`).then(() => order.push('queued after'));
    await Promise.all([transaction, after]);
    expect(order).toEqual([
      'transaction, first statement',
      'transaction, second statement',
      'queued after',
    ]);
  });

  it('runs the statements of a filtered job page in one turn, before those queued after it', async () => {
    const order: string[] = [];
    const words = generateJob(3).description.split(' ').slice(0, 2).join(' ');
    const page = listJobs(database.db, {
      filter: `${words} J-0`,
      page: 1,
      perPage: 20,
      sortColumn: 'status',
      sortOrder: 'desc',
    }).then((answer) => order.push(`job page of ${answer.jobs.length}`));
    const after = database.db.execute(sql`select 1`).then(() => order.push('queued after'));
    await Promise.all([page, after]);
    expect(order).toEqual(['job page of 1', 'queued after']);
  });
});
