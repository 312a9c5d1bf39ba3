import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { JOB_SORT_COLUMNS, type Job, type JobList, type JobListQuery } from '@common/schemas/jobs';
import { type Database, type Db, queryRows, withSearchSession } from '@server/db/client';
import { SAMPLED_HASHES_BELOW } from '@server/db/schema/jobs';
import { JOB_CONCLUSIONS, JOB_STATUSES, generateJob } from '@server/modules/jobs/jobGenerator';
import {
  EXACT_TOTAL_UP_TO,
  insertJobs,
  lastJobNumber,
  listJobs,
  loadJobs,
} from '@server/modules/jobs/jobs.service';
import { bearer, login } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { openTestDatabase, testDbKinds } from '../../helpers/testDatabase';
import { generateProseJob } from '../../../../bench/proseJobs';

const SEEDED = 1200;

describe('the job generator', () => {
  it('makes the same job for the same position, every time', () => {
    expect(generateJob(42)).toEqual(generateJob(42));
    expect(generateJob(42)).not.toEqual(generateJob(43));
  });

  it('makes realistic jobs within the documented bounds', () => {
    for (let n = 1; n <= 500; n++) {
      const job = generateJob(n);
      expect(job.friendlyNumber).toBe(`J-${String(n).padStart(7, '0')}`);
      expect(JOB_STATUSES).toContain(job.status);
      expect(JOB_CONCLUSIONS).toContain(job.conclusion);
      expect(job.description.length).toBeGreaterThanOrEqual(40);
      expect(job.description.length).toBeLessThanOrEqual(120);
      expect(job.samples.length).toBeGreaterThanOrEqual(1);
      expect(job.samples.length).toBeLessThanOrEqual(5);
      for (const sample of job.samples) {
        expect(sample.tasks.length).toBeGreaterThanOrEqual(1);
        expect(sample.tasks.length).toBeLessThanOrEqual(4);
        for (const task of sample.tasks) {
          expect(task.results.length).toBeGreaterThanOrEqual(1);
          expect(task.results.length).toBeLessThanOrEqual(5);
          for (const result of task.results) {
            expect(result.formatted).toMatch(/^\d+\.\d\d/);
            expect(['Pass', 'Fail']).toContain(result.conclusion);
          }
        }
      }
    }
  });
});

describe.each(testDbKinds)('laboratory jobs on %s', (kind) => {
  let t: TestApp;
  let viewer: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind, { SEED_JOBS: String(SEEDED) });
    viewer = bearer((await login(t.app, 'viewer')).jwt);
  }, 60_000);
  afterAll(() => t.close());

  const list = async (query = ''): Promise<JobList> => {
    const res = await t.app.inject({ url: `/api/LIMS/jobs${query}`, headers: viewer });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('answers page 1 of 50 by friendly number, list fields only, with the total', async () => {
    const { jobs, totalJobs, totalIsEstimate } = await list();
    expect(jobs).toHaveLength(50);
    expect(jobs[0]).toEqual({
      _id: expect.any(String),
      friendlyNumber: 'J-0000001',
      status: generateJob(1).status,
      conclusion: generateJob(1).conclusion,
      description: generateJob(1).description,
    });
    expect(jobs.map((j) => j.friendlyNumber)).toEqual(
      Array.from({ length: 50 }, (_, i) => `J-${String(i + 1).padStart(7, '0')}`),
    );
    expect(totalIsEstimate).toBe(false);
    expect(totalJobs).toBe(SEEDED);
  });

  it.each([
    ['?perPage=30', 'querystring.perPage'],
    ['?page=0', 'querystring.page'],
    ['?sortColumn=samples', 'querystring.sortColumn'],
    ['?sortOrder=up', 'querystring.sortOrder'],
    ['?page=x', 'querystring.page'],
    ['?page=0x10', 'querystring.page'],
    ['?page=1e3', 'querystring.page'],
    ['?page=9999999999999999999999', 'querystring.page'],
    ['?perPage=0x14', 'querystring.perPage'],
    [`?filter=${'x'.repeat(201)}`, 'querystring.filter'],
  ])('answers 400 for %s, naming the parameter', async (query, field) => {
    const res = await t.app.inject({ url: `/api/LIMS/jobs${query}`, headers: viewer });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('answers 400 for a parameter it does not know, naming it', async () => {
    const res = await t.app.inject({ url: '/api/LIMS/jobs?sortcolumn=status', headers: viewer });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/unknown parameters: sortcolumn/);
  });

  it('takes the filter without the spaces around it', async () => {
    expect((await list('?filter=%20%20J-0000012%20')).jobs.map((j) => j.friendlyNumber)).toEqual([
      'J-0000012',
    ]);
  });

  it('filters by a case-insensitive substring of any list field, counting exactly when few match', async () => {
    const word = generateJob(7).description.split(' ')[1]!;
    const { jobs, totalJobs, totalIsEstimate } = await list(
      `?filter=${word.toUpperCase()}&perPage=100`,
    );
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(
        `${job.friendlyNumber} ${job.status} ${job.conclusion} ${job.description}`.toLowerCase(),
      ).toContain(word.toLowerCase());
    }
    expect(totalIsEstimate).toBe(false);
    expect(totalJobs).toBe(jobs.length);

    expect((await list('?filter=J-0000012')).jobs.map((j) => j.friendlyNumber)).toEqual([
      'J-0000012',
    ]);
  });

  it('treats quotes and LIKE wildcards in the filter as plain text', async () => {
    expect(await list(`?filter=${encodeURIComponent("x' or '1'='1")}`)).toEqual({
      jobs: [],
      totalJobs: 0,
      totalIsEstimate: false,
      page: 1,
    });
    expect((await list('?filter=%25')).totalJobs).toBe(0);
    expect((await list('?filter=_')).totalJobs).toBe(0);
  });

  it.each(['status', 'conclusion', 'description', 'friendlyNumber'] as const)(
    'sorts by %s both ways, pages without duplicates or gaps',
    async (column) => {
      const all: JobList['jobs'] = [];
      for (let page = 1; page <= Math.ceil(SEEDED / 100); page++) {
        all.push(
          ...(await list(`?sortColumn=${column}&sortOrder=desc&perPage=100&page=${page}`)).jobs,
        );
      }
      expect(all).toHaveLength(SEEDED);
      expect(new Set(all.map((j) => j._id)).size).toBe(SEEDED);
      const keys = all.map((j) => [j[column], j.friendlyNumber] as const);
      for (let i = 1; i < keys.length; i++) {
        const [a, b] = [keys[i - 1]!, keys[i]!];
        expect(a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])).toBe(true);
      }
      const ascending = await list(`?sortColumn=${column}&sortOrder=asc&perPage=20`);
      expect(ascending.jobs[0]![column] <= ascending.jobs[19]![column]).toBe(true);
    },
  );

  it('answers one job with its samples, and 404 for an unknown one', async () => {
    const [first] = (await list('?perPage=20')).jobs;
    const res = await t.app.inject({ url: `/api/LIMS/jobs/${first!._id}`, headers: viewer });
    const job: Job = res.json();
    expect(job).toEqual({ ...first, samples: generateJob(1).samples });
    expect(
      (await t.app.inject({ url: `/api/LIMS/jobs/${randomUUID()}`, headers: viewer })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/api/LIMS/jobs/nope', headers: viewer })).statusCode).toBe(
      400,
    );
  });

  it('answers 401 without a token', async () => {
    expect((await t.app.inject({ url: '/api/LIMS/jobs' })).statusCode).toBe(401);
  });

  it('answers a page past the last with the last page, and says which', async () => {
    const answer = await list('?filter=completed&perPage=100&page=999');
    const last = Math.ceil(answer.totalJobs / 100);
    expect(answer.page).toBe(last);
    const scanned = await scanJobs(t.database.db, {
      ...query('completed'),
      perPage: 100,
      page: last,
    });
    expect(answer.jobs).toEqual(scanned.jobs);
    const all = await list('?page=999');
    expect(all.page).toBe(Math.ceil(SEEDED / 50));
    expect(all.jobs.at(-1)!.friendlyNumber).toBe(`J-${String(SEEDED).padStart(7, '0')}`);
  });

  it('answers every filter, sort and page as a plain scan of the jobs does, totals exact', async () => {
    const db = t.database.db;
    // Text the generator never writes, put in by plain SQL: accents, ß, the Turkish dotted
    // and dotless i, and LIKE's own metacharacters.
    const odd = [
      ['X-É01', 'Reçu', 'Échec', 'Étude de la Straße à İzmir'],
      ['X-É02', 'Completed', 'Pass', 'ıstanbul 50% a_b back\\slash'],
      ['X-É03', 'ÉTÉ', 'Pass', 'STRASSE ISTANBUL 50 percent ab'],
    ];
    for (const [friendlyNumber, status, conclusion, description] of odd)
      await db.execute(
        sql`insert into jobs (friendly_number, status, conclusion, description)
            values (${friendlyNumber}, ${status}, ${conclusion}, ${description})`,
      );
    const job = generateJob(11);
    const word = job.description.split(' ')[2]!;
    const filters = [
      '',
      word,
      word.slice(1, -1).toUpperCase(),
      word.slice(0, 2),
      'e',
      '0',
      'j-',
      job.friendlyNumber.toLowerCase(),
      '000011',
      'J-00001',
      ...JOB_STATUSES,
      ...JOB_CONCLUSIONS.map((c) => c.slice(1)),
      // Several words: each may be anywhere, in any field.
      'completed pass',
      'pass completed',
      `${job.conclusion} ${job.description.split(' ')[0]}`,
      `${job.status.slice(-3)} ${job.conclusion.slice(0, 2)}`,
      job.description.split(' ').slice(1, 3).join(' ').toLowerCase(),
      `${word} ${word.toUpperCase()} e`,
      'e a o',
      // More words naming statuses or conclusions than are tested one by one.
      'e a o i s',
      'completed zzzz',
      // Beyond ASCII, and LIKE's metacharacters as plain text.
      'é',
      'ÉTUDE',
      'straße',
      'STRASSE',
      'ß',
      'İzmir',
      'izmir',
      'ı',
      'ISTANBUL',
      'x-é',
      '%',
      '50%',
      '_',
      'a_b',
      '\\',
      "o'",
      'zzzz',
    ];
    await expectAsAScan(db, filters, 100, [
      ['asc', 1],
      ['desc', 2],
      ['asc', 5],
    ]);
    await db.execute(sql`delete from jobs where friendly_number like 'X-%'`);
  }, 120_000);

  it('sees jobs inserted, changed and deleted by plain SQL on the next request', async () => {
    const db = t.database.db;
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          values ('J-0000000', 'Archived', 'Pass', 'Insertedbyhand first'),
                 ('J-9999999', 'Completed', 'Fail', 'Insertedbyhand last')`,
    );
    expect((await list('?filter=insertedbyhand')).jobs.map((j) => j.friendlyNumber)).toEqual([
      'J-0000000',
      'J-9999999',
    ]);
    expect((await list()).totalJobs).toBe(SEEDED + 2);
    expect((await list('?sortColumn=status')).jobs[0]!.friendlyNumber).toBe('J-0000000');
    // A number's start is searched apart from the terms: renumbering moves it there too.
    expect((await list('?filter=j-99999')).jobs.map((j) => j.friendlyNumber)).toEqual([
      'J-9999999',
    ]);
    await db.execute(
      sql`update jobs set friendly_number = 'J-8888888' where friendly_number = 'J-9999999'`,
    );
    expect((await list('?filter=J-99999')).totalJobs).toBe(0);
    expect((await list('?filter=J-88888')).jobs.map((j) => j.friendlyNumber)).toEqual([
      'J-8888888',
    ]);

    await db.execute(
      sql`update jobs set description = 'Aaaachangedbyhand' where friendly_number = 'J-0000002'`,
    );
    expect((await list('?filter=changedbyhand')).jobs.map((j) => j.friendlyNumber)).toEqual([
      'J-0000002',
    ]);
    expect((await list('?sortColumn=description')).jobs[0]!.friendlyNumber).toBe('J-0000002');
    await db.execute(
      sql`update jobs set description = ${generateJob(2).description} where friendly_number = 'J-0000002'`,
    );
    expect((await list('?filter=changedbyhand')).totalJobs).toBe(0);

    // Many rows at once: each takes its new place among the others.
    await db.execute(
      sql`update jobs set status = 'Archived' where friendly_number like 'J-00001%'`,
    );
    for (const sortOrder of ['asc', 'desc'] as const) {
      const asked = {
        ...query('archived'),
        sortColumn: 'status',
        sortOrder,
        perPage: 100,
      } as const;
      expect(await listJobs(db, asked)).toMatchObject({ totalJobs: 101 });
      expect((await listJobs(db, asked)).jobs).toEqual((await scanJobs(db, asked)).jobs);
      const around = { ...query(''), sortColumn: 'status', sortOrder, page: 3 } as const;
      expect((await listJobs(db, around)).jobs).toEqual((await scanJobs(db, around)).jobs);
    }
    await db.execute(
      sql`update jobs set status = g.status from (values ${sql.join(
        Array.from({ length: 100 }, (_, i) => {
          const n = 100 + i;
          return sql`(${`J-${String(n).padStart(7, '0')}`}, ${generateJob(n).status})`;
        }),
        sql`, `,
      )}) as g(number, status) where friendly_number = g.number`,
    );

    await db.execute(sql`delete from jobs where friendly_number in ('J-0000000', 'J-8888888')`);
    expect((await list('?filter=insertedbyhand')).totalJobs).toBe(0);
    expect(await list('?filter=archived')).toMatchObject({ totalJobs: 0, jobs: [] });
    expect((await list()).totalJobs).toBe(SEEDED);
  });

  it('keeps the order when new jobs crowd into one gap between two neighbours', async () => {
    const db = t.database.db;
    // Each lands just after J-0000001 and before the previous one: the gap between their
    // keys halves each time until none is left, and the search is spaced out again.
    for (let zeros = 40; zeros >= 1; zeros--)
      await db.execute(
        sql`insert into jobs (friendly_number, status, conclusion, description)
            values (${`J-0000001${'0'.repeat(zeros)}`}, 'Completed', 'Pass', ${`Crowded ${zeros}`})`,
      );
    for (const sortColumn of JOB_SORT_COLUMNS) {
      const asked = { ...query(''), sortColumn, perPage: 100 } as const;
      expect((await listJobs(db, asked)).jobs).toEqual((await scanJobs(db, asked)).jobs);
    }
    expect((await list('?filter=crowded')).totalJobs).toBe(40);
    await db.execute(sql`delete from jobs where description like 'Crowded %'`);
  });

  it('inserts in bulk, continues numbering where the last load stopped, and the list follows', async () => {
    const indexesBefore = await searchIndexes(t.database.db);
    await loadJobs(t.database.db, SEEDED + 1, SEEDED + 3, undefined, { rebuildSearch: true });
    // A load of a few jobs more adds to the search's indexes; it does not build them again.
    expect(await searchIndexes(t.database.db)).toEqual(indexesBefore);
    const last = await list('?sortOrder=desc&perPage=20');
    expect(last.jobs[0]!.friendlyNumber).toBe(`J-${String(SEEDED + 3).padStart(7, '0')}`);
    expect(last.totalJobs).toBe(SEEDED + 3);
    const word = generateJob(SEEDED + 2).description.split(' ')[0]!;
    const asked = { ...query(word), sortColumn: 'description', perPage: 100 } as const;
    expect((await listJobs(t.database.db, asked)).jobs).toEqual(
      (await scanJobs(t.database.db, asked)).jobs,
    );
    await expect(insertJobs(t.database.db, [generateJob(1)])).rejects.toThrow();
  });

  it('continues after the highest generated number, compared as a number past seven digits', async () => {
    const db = t.database.db;
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          values ('J-10000000', 'Received', 'Pending', 'eight digits'),
                 ('X-99999999', 'Received', 'Pending', 'not generated')`,
    );
    expect(await lastJobNumber(db)).toBe(10_000_000);
    await db.execute(sql`delete from jobs where friendly_number in ('J-10000000', 'X-99999999')`);
    expect(await lastJobNumber(db)).toBe(SEEDED + 3);
  });

  it('empties with the table', async () => {
    await t.database.db.execute(sql`truncate jobs, job_details`);
    expect(await list('?filter=completed')).toMatchObject({ jobs: [], totalJobs: 0 });
    expect(await list()).toMatchObject({ jobs: [], totalJobs: 0, page: 1 });
    const [left] = await queryRows<{ words: number; characters: number }>(
      t.database.db,
      sql`select (select count(*) from job_words)::float8 as words,
        (select count(*) from job_number_characters)::float8 as characters`,
    );
    expect(left).toEqual({ words: 0, characters: 0 });
  });

  it('samples the quarter of the hashes the sample index holds, with what a job is tested on', async () => {
    const [index] = await queryRows<{ definition: string }>(
      t.database.db,
      sql`select indexdef as definition from pg_indexes where indexname = 'jobs_sample_index'`,
    );
    expect(index!.definition).toContain(
      `INCLUDE (id, indexed_text, status, conclusion) WHERE (uuid_hash(id) < '${SAMPLED_HASHES_BELOW}'::integer)`,
    );
  });

  it('builds the search indexes again after a load told to that at least doubles the jobs, as they were', async () => {
    const db = t.database.db;
    const before = await searchIndexes(db);
    // Not told to (a database others read): the indexes stay, whatever the load.
    await loadJobs(db, 1, 30);
    expect(await searchIndexes(db)).toEqual(before);
    await loadJobs(db, 31, 60, undefined, { rebuildSearch: true });
    const after = await searchIndexes(db);
    expect(after.map(({ name, definition }) => ({ name, definition }))).toEqual(
      before.map(({ name, definition }) => ({ name, definition })),
    );
    after.forEach(({ oid }, i) => expect(oid).not.toBe(before[i]!.oid));
    const word = generateJob(7).description.split(' ')[1]!.slice(1, 4);
    for (const filter of [word, 'zq', generateJob(9).friendlyNumber.slice(0, 8)]) {
      const asked = { ...query(filter), perPage: 100 } as const;
      const { jobs, total } = await scanJobs(db, asked);
      expect(await listJobs(db, asked)).toMatchObject({ jobs, totalJobs: total });
    }
  });
});

/** The search's indexes: each one's name, definition and oid (new when built again). */
const searchIndexes = (db: Db) =>
  queryRows<{ name: string; definition: string; oid: number }>(
    db,
    sql`select indexname as name, indexdef as definition, indexname::regclass::oid::int8::float8 as oid
      from pg_indexes where indexname in ('jobs_indexed_text_grams_index',
        'jobs_indexed_text_trgm_index', 'jobs_sample_index', 'jobs_description_words_index')
      order by indexname`,
  );

/** Every other job described in prose, so one load holds both kinds of descriptions. */
const generateMixedJob = (n: number) => (n % 2 ? generateProseJob(n) : generateJob(n));

describe.each(testDbKinds)('more jobs than are counted exactly, on %s, half in prose', (kind) => {
  const MANY = 80_000;
  let t: { database: Database };
  // The server's sample of the jobs is a window of their hashes placed at random: placed the
  // same way every run here, so that the plans these tests expect do not change with it (a
  // placement now and then took a word common in the jobs for a rare one).
  let placement: jest.SpiedFunction<typeof Math.random>;
  beforeAll(async () => {
    t = { database: await openTestDatabase(kind) };
    await loadJobs(t.database.db, 1, MANY, undefined, { generate: generateMixedJob });
    placement = jest.spyOn(Math, 'random').mockReturnValue(0.5);
  }, 120_000);
  afterAll(() => {
    placement.mockRestore();
    return t.database.close();
  });

  it.each(['e', 'a e'])(
    'estimates %j within 5 %, flagged, and its last page is reachable and not empty',
    async (filter) => {
      const db = t.database.db;
      const asked = { ...query(filter), sortColumn: 'description', sortOrder: 'desc' } as const;
      const first = await listJobs(db, asked);
      const truth = (await scanJobs(db, asked)).total;
      expect(truth).toBeGreaterThan(2 * EXACT_TOTAL_UP_TO);
      expect(first.totalIsEstimate).toBe(true);
      expect(Math.abs(first.totalJobs - truth) / truth).toBeLessThan(0.05);
      expect(first.jobs).toEqual((await scanJobs(db, asked)).jobs);

      const lastPage = Math.ceil(first.totalJobs / asked.perPage);
      const end = await listJobs(db, { ...asked, page: lastPage });
      expect(end.jobs.length).toBeGreaterThan(0);
      expect(end.jobs).toEqual((await scanJobs(db, { ...asked, page: end.page })).jobs);
      // Every page of the filter then says the same total (counted, when the last page read
      // all the matches), the first page too, kept by the server as it is.
      expect(await listJobs(db, asked)).toMatchObject({
        totalJobs: end.totalJobs,
        totalIsEstimate: end.totalIsEstimate,
      });
      const pastTheEnd = await listJobs(db, { ...asked, page: 1_000_000 });
      expect(await listJobs(db, asked)).toMatchObject({
        totalJobs: pastTheEnd.totalJobs,
        totalIsEstimate: pastTheEnd.totalIsEstimate,
      });
      expect(pastTheEnd).toMatchObject({ totalJobs: truth, totalIsEstimate: false });
    },
    60_000,
  );

  it('finds the matches bunched far along the sort order, and the rest, as a plain scan does', async () => {
    // Sorted by conclusion, every `pass` comes after the Fail, Inconclusive and Out of
    // specification jobs: the Pass group is walked, the other matches found through the
    // indexes. And a word of each kind of description: the indexes alone.
    const db = t.database.db;
    const words = [8, 7].map((n) =>
      generateMixedJob(n)
        .description.split(' ')
        .find((w) => w.length > 4)!,
    );
    const filters = ['pass', 'on hold', 'pending e', 'out of', ...words];
    const session = await withSearchSession(db, async (searches) => searches);
    const sent = jest.spyOn(session, 'query');
    // A page in each direction, both past the first (page 1 is where a walk is surest), and
    // one past the groups' last match: the walk runs out of groups, and the last page is found.
    await expectAsAScan(db, filters, 50, [
      ['asc', 7],
      ['desc', 3],
      ['asc', 400],
    ]);
    const texts = sent.mock.calls.map(([query]) =>
      typeof query === 'string' ? query : (query as { text: string }).text,
    );
    sent.mockRestore();
    expect(texts.filter((text) => text.includes('walked as materialized')).length).toBeGreaterThan(
      1,
    );
  }, 60_000);

  it('looks a word up as the words of descriptions that hold it, kept as plain SQL writes them', async () => {
    const db = t.database.db;
    const session = await withSearchSession(db, async (searches) => searches);
    const sent = jest.spyOn(session, 'query');
    const numbers = async (filter: string) =>
      (await listJobs(db, query(filter))).jobs.map((job) => job.friendlyNumber);
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          values ('J-0000000', 'Archived', 'Pass', 'Zqwvnewword, inserted by hand')`,
    );
    // A word no description had before: in the dictionary with its job.
    expect(await numbers('qwvnewwor')).toEqual(['J-0000000']);
    const texts = sent.mock.calls.map(([query]) =>
      typeof query === 'string' ? query : (query as { text: string }).text,
    );
    sent.mockRestore();
    expect(texts.some((text) => text.includes('job_description_words(j.description) &&'))).toBe(
      true,
    );
    await db.execute(
      sql`update jobs set description = 'Zqwvchanged by hand' where friendly_number = 'J-0000000'`,
    );
    expect(await numbers('qwvchang')).toEqual(['J-0000000']);
    expect(await numbers('qwvnewwor')).toEqual([]);
    // An update that leaves description and number as they were splits no description: a
    // word taken out of the dictionary by hand stays out, until the description changes.
    const inDictionary = async (word: string) =>
      (await queryRows(db, sql`select from job_words where word = ${word}`)).length > 0;
    await db.execute(sql`delete from job_words where word = 'zqwvchanged'`);
    await db.execute(
      sql`update jobs set status = 'On hold', description = description
          where friendly_number = 'J-0000000'`,
    );
    expect(await inDictionary('zqwvchanged')).toBe(false);
    await db.execute(
      sql`update jobs set description = 'Zqwvchanged by hand again'
          where friendly_number = 'J-0000000'`,
    );
    expect(await inDictionary('zqwvchanged')).toBe(true);
    // A number with letters: its words may be in numbers, and are looked for there too.
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          values ('ZQWV-7', 'Archived', 'Pass', 'inserted by hand')`,
    );
    expect(await numbers('zqwv')).toEqual(['J-0000000', 'ZQWV-7']);
    // A word too long to index whole (a pasted key, say) is written, and found to its end.
    const long = `qwvlong${'k'.repeat(3000)}qwvend`;
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          values ('J-0000001a', 'Archived', 'Pass', ${`key ${long}`})`,
    );
    expect(await numbers('qwvend')).toEqual(['J-0000001a']);
    expect(await numbers('qwvlong')).toEqual(['J-0000001a']);
    for (const filter of ['zqwv', 'qwvchang', 'qwvnewwor', 'zqwv-7 hand', 'qwvend', 'kqwv']) {
      const asked = { ...query(filter), perPage: 100 } as const;
      const { jobs, total } = await scanJobs(db, asked);
      expect(await listJobs(db, asked)).toMatchObject({ jobs, totalJobs: total });
    }
    await db.execute(
      sql`delete from jobs where friendly_number in ('J-0000000', 'ZQWV-7', 'J-0000001a')`,
    );
    expect(await numbers('zqwv')).toEqual([]);
  });

  it('finds rare words too short for trigrams through their letters, as a plain scan does', async () => {
    // A few jobs among 80,000 hold each: found through the index of letters and pairs.
    const db = t.database.db;
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          select 'X-' || n, 'Received', 'Pending', 'Rare ézq fragments, 7%' || n
          from generate_series(1, 60) as n`,
    );
    await expectAsAScan(db, ['ZQ', '7%', 'zq e'], 50, [['desc', 2]]);
    await db.execute(sql`delete from jobs where friendly_number like 'X-%'`);
  }, 60_000);

  it('looks words each common but rare together up through their letters, as a plain scan does', async () => {
    // `qx` and `vw` are each in 2,000 jobs, too many to look either up alone, and together in
    // 20: the grams index intersects their lists rather than every job being tested.
    const db = t.database.db;
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          select 'Y-' || n, 'Received', 'Pending',
            case when n <= 2000 then 'Odd qx mark' when n <= 4000 then 'Odd vw mark'
              else 'Both qx and vw' end
          from generate_series(1, 4020) as n`,
    );
    const session = await withSearchSession(db, async (searches) => searches);
    const statementsFor = async (filter: string) => {
      const sent = jest.spyOn(session, 'query');
      await expectAsAScan(db, [filter], 50, [['asc', 1]]);
      const texts = sent.mock.calls.map(([query]) =>
        typeof query === 'string' ? query : (query as { text: string }).text,
      );
      sent.mockRestore();
      return texts.join('\n');
    };
    expect(await statementsFor('vw qx')).toContain('job_search_grams(');
    // Beside a trigram word that finds few more, not: every job the two indexes find would be
    // rechecked on the letters and pairs, computed again (job_search_grams).
    expect(await statementsFor('odd vw')).not.toContain('job_search_grams(');
    // Nor a word that also names a conclusion (`sp`: Out of specification), however rare in
    // the descriptions: its condition holds that conclusion's jobs too, and is tested on each
    // job, computing its letters and pairs. `qx` (in 12,000 jobs now) is looked up instead.
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          select 'Y-more-' || n, 'Received', 'Pending', 'More qx'
          from generate_series(1, 10000) as n`,
    );
    const both = await statementsFor('sp qx');
    expect(both).toContain('job_search_grams(');
    expect(both).not.toMatch(/job_search_word_grams\(\$\d+\) or j\.status/);
    await db.execute(sql`delete from jobs where friendly_number like 'Y-%'`);
  }, 60_000);

  it('tells filters new to it common from rare by a sample it keeps, taken again when the jobs grow or shrink by a tenth', async () => {
    const db = t.database.db;
    const session = await withSearchSession(db, async (searches) => searches);
    const sent = jest.spyOn(session, 'query');
    const samplesTaken = () =>
      sent.mock.calls.filter(([query]) =>
        (typeof query === 'string' ? query : (query as { text: string }).text).includes(
          'j.indexed_text as text',
        ),
      ).length;
    const asked = async (...filters: string[]) => {
      for (const filter of filters) await expectAsAScan(db, [filter], 50, [['desc', 2]]);
    };
    // 30,000 jobs more: more than a tenth of whatever the sample kept was taken at.
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          select 'Y-' || n, 'Received', 'Pending', 'Grown by a tenth'
          from generate_series(1, 30000) as n`,
    );
    await asked('ra');
    expect(samplesTaken()).toBe(1);
    await asked('ur', 'es');
    expect(samplesTaken()).toBe(1);
    await db.execute(sql`delete from jobs where friendly_number like 'Y-%'`);
    await asked('ot', 'ia');
    expect(samplesTaken()).toBe(2);
    sent.mockRestore();
  }, 90_000);

  it('counts a status exactly when its total is near the line (a sixth of 80,000 jobs)', async () => {
    const asked = query('completed');
    const answer = await listJobs(t.database.db, asked);
    expect(answer).toMatchObject({
      totalJobs: (await scanJobs(t.database.db, asked)).total,
      totalIsEstimate: false,
    });
  });

  it('finds the page another way when the matches of the groups it walks lie past its budget', async () => {
    // 20,000 Pass jobs that say `qqmarker`, numbered after every other Pass job: sorted by
    // conclusion, the Pass group is walked, dense in matches by the sample, but ascending
    // its first ~16,000 jobs hold none, past the walk's budget.
    // And 100 Pending jobs that match by their description, found through the indexes:
    // ascending they come after every Pass job, and must not fill the page in their place.
    const db = t.database.db;
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          select 'Y-' || lpad(n::text, 5, '0'), 'Received', 'Pass', 'Late qqmarker ' || n
          from generate_series(1, 20000) as n
          union all
          select 'Y-P' || n, 'Received', 'Pending', 'Passed on to qqmarker ' || n
          from generate_series(1, 100) as n`,
    );
    const session = await withSearchSession(db, async (searches) => searches);
    const statementsFor = async (sortOrder: 'asc' | 'desc') => {
      const sent = jest.spyOn(session, 'query');
      const asked = { ...query('pass qqmarker'), sortColumn: 'conclusion', sortOrder } as const;
      expect(await listJobs(db, asked)).toMatchObject({ jobs: (await scanJobs(db, asked)).jobs });
      const kinds = sent.mock.calls.map(([query]) => {
        const text = typeof query === 'string' ? query : (query as { text: string }).text;
        if (text.includes('walked as materialized')) return 'groups walked';
        if (text.includes('with matches as materialized')) return 'all the matches';
        if (text.includes('count(*) filter')) return 'an estimate';
        return undefined;
      });
      sent.mockRestore();
      return kinds.filter(Boolean);
    };
    expect(await statementsFor('asc')).toEqual(['groups walked', 'all the matches']);
    // Descending, the Pending matches come first, then the Pass group's: found either way.
    await statementsFor('desc');
    await db.execute(sql`delete from jobs where friendly_number like 'Y-%'`);
  }, 60_000);
});

describe.each(testDbKinds)('the search on real prose, on %s', (kind) => {
  const PROSE_JOBS = 1500;
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await loadJobs(database.db, 1, PROSE_JOBS, undefined, { generate: generateProseJob });
  }, 60_000);
  afterAll(() => database.close());

  it('answers every kind of filter a person types as a plain scan does, totals exact', async () => {
    const db = database.db;
    await db.execute(
      sql`insert into jobs (friendly_number, status, conclusion, description)
          values ('X-1', 'Reçu', 'Échec', 'Naïve café in Zürich, 100% «quoted» a_b back\\slash')`,
    );
    const words = generateProseJob(11).description.split(' ');
    const [word] = words.filter((w) => /^[a-z]{5,}$/i.test(w));
    const filters = [
      // One and two letters, a fragment inside a word, whole words.
      'e',
      't',
      'q',
      'th',
      'he',
      'ZQ',
      word!.slice(1, -1),
      word!.toUpperCase(),
      'the',
      'tion',
      // Two and three words, common and not.
      'the of',
      'said that',
      words.slice(0, 3).join(' '),
      `${word} e t`,
      // Words that name a status and a conclusion, and more such words than are tested one by one.
      'in progress pass',
      'o e a i n s',
      // Everything (every number holds "j-"), nothing.
      'j-',
      'qqqqzzzz',
      // Beyond ASCII, punctuation, and LIKE's metacharacters as plain text.
      'café',
      'zürich',
      'ï',
      '«quoted»',
      "'s",
      ',',
      '%',
      '100%',
      '_',
      'a_b',
      '\\',
    ];
    await expectAsAScan(db, filters, 50, [
      ['asc', 1],
      ['desc', 3],
      ['desc', 20],
    ]);
    await db.execute(sql`delete from jobs where friendly_number = 'X-1'`);
  }, 120_000);
});

/**
 * Each filter in every sort column, in each (direction, page), answered as a plain scan
 * answers it: the same jobs, the exact total (or an estimate as the contract allows), and
 * the last page for a page past it.
 */
async function expectAsAScan(
  db: Db,
  filters: string[],
  perPage: JobListQuery['perPage'],
  pages: (readonly ['asc' | 'desc', number])[],
) {
  for (const filter of filters) {
    for (const sortColumn of JOB_SORT_COLUMNS) {
      for (const [sortOrder, page] of pages) {
        const asked = { ...query(filter), page, perPage, sortColumn, sortOrder } as const;
        const answer = await listJobs(db, asked);
        const scanned = await scanJobs(db, { ...asked, page: answer.page });
        expect({ asked, jobs: answer.jobs }).toEqual({ asked, jobs: scanned.jobs });
        // Exact, or a flagged estimate within 5 % of a total past the line.
        const { totalJobs, totalIsEstimate } = answer;
        expect({ asked, total: totalIsEstimate ? 'estimated' : totalJobs }).toEqual({
          asked,
          total:
            totalIsEstimate &&
            scanned.total > EXACT_TOTAL_UP_TO &&
            Math.abs(totalJobs - scanned.total) < 0.05 * scanned.total
              ? 'estimated'
              : scanned.total,
        });
        expect({ asked, page: answer.page }).toEqual({
          asked,
          page:
            scanned.total <= (page - 1) * perPage
              ? Math.max(1, Math.ceil(scanned.total / perPage))
              : page,
        });
      }
    }
  }
}

/** The first page of 50 by number for a filter. */
const query = (filter: string): JobListQuery => ({
  filter,
  page: 1,
  perPage: 50,
  sortColumn: 'friendlyNumber',
  sortOrder: 'asc',
});

/**
 * The job list by a plain scan, the rule written as directly as SQL allows: every word of
 * the filter (split on whitespace) ILIKE one of the four list fields, in the column's order
 * with ties by number. What the search must answer, however it gets there.
 */
async function scanJobs(db: Db, asked: JobListQuery) {
  const holds = asked.filter
    .split(/\s+/u)
    .filter(Boolean)
    .map((word) => {
      const pattern = `%${word.replace(/[\\%_]/g, '\\$&')}%`;
      return sql`(friendly_number ilike ${pattern} or status ilike ${pattern}
        or conclusion ilike ${pattern} or description ilike ${pattern})`;
    });
  const where = holds.length ? sql`where ${sql.join(holds, sql` and `)}` : sql``;
  const direction = sql.raw(asked.sortOrder);
  const column = sql.identifier(asked.sortColumn.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  // One statement: the total rides on each row, and is counted again only past the last page.
  const rows = await queryRows<JobList['jobs'][number] & { total: number }>(
    db,
    sql`select id as "_id", friendly_number as "friendlyNumber", status, conclusion, description,
          count(*) over ()::int as total
        from jobs ${where}
        order by ${column} ${direction}, friendly_number ${direction}
        offset ${(asked.page - 1) * asked.perPage} limit ${asked.perPage}`,
  );
  const jobs = rows.map(({ total: _, ...job }) => job);
  const total =
    rows[0]?.total ??
    (
      (await queryRows<{ total: number }>(
        db,
        sql`select count(*)::int as total from jobs ${where}`,
      )) as [{ total: number }]
    )[0].total;
  return { jobs, total };
}
