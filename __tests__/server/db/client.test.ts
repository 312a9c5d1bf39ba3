import { sql } from 'drizzle-orm';
import { type Database, namedStatement } from '@server/db/client';
import { createEntity } from '@server/modules/entities/entities.service';
import { listJobs, loadJobs } from '@server/modules/jobs/jobs.service';
import { createRecord, deleteRecord } from '@server/modules/records/records.service';
import { generateJob } from '@server/modules/jobs/jobGenerator';
import { openTestDatabase, openTestPglite, testDbKinds } from '../helpers/testDatabase';

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

  it("runs a record's create and delete in one turn each, before statements queued after them", async () => {
    const actor = { id: null, name: 'test', ip: null, userAgent: null };
    await createEntity(
      database.db,
      { name: 'Turns', description: '', category: 'Generic', fields: [{ name: 'a', label: 'A' }] },
      actor,
    );
    const order: string[] = [];
    const queuedAfter = () =>
      database.db.execute(sql`select 1`).then(() => order.push('queued after'));
    const created = createRecord(database.db, 'Turns', { fields: { a: 'x' } }, actor);
    await Promise.all([created.then(() => order.push('created')), queuedAfter()]);
    const { _id } = await created;
    const deleted = deleteRecord(database.db, 'Turns', _id, actor);
    await Promise.all([deleted.then(() => order.push('deleted')), queuedAfter()]);
    expect(order).toEqual(['created', 'queued after', 'deleted', 'queued after']);
  });
});

describe.each(testDbKinds)('named statements on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  const countRoles = (db: Parameters<typeof namedStatement>[0], name: string) =>
    namedStatement<{ n: number }>(
      db,
      'test_count_roles',
      'select count(*)::int as n from roles where name = $1',
      [name],
    ).then(([row]) => row!.n);

  it('run in the transaction they are given: they see its writes and go with its rollback', async () => {
    const rolledBack = database.db.transaction(async (tx) => {
      await namedStatement(tx, 'test_add_role', 'insert into roles (name) values ($1)', ['Named']);
      expect(await countRoles(tx, 'Named')).toBe(1);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await countRoles(database.db, 'Named')).toBe(0);
  });
});
