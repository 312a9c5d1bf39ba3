import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { JOB_SORT_COLUMNS, type Job, type JobList } from '@common/schemas/jobs';
import { JOB_CONCLUSIONS, JOB_STATUSES, generateJob } from '@server/modules/jobs/jobGenerator';
import { JobSearchIndex } from '@server/modules/jobs/jobSearchIndex';
import {
  EXACT_COUNT_CAP,
  insertJobs,
  listJobs,
  listJobsFromDatabase,
  loadJobs,
} from '@server/modules/jobs/jobs.service';
import { bearer, login } from '../../helpers/auth';
import { eventually } from '../../helpers/eventually';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

const SEEDED = 1200;
const defaults = {
  filter: '',
  page: 1,
  perPage: 50,
  sortColumn: 'friendlyNumber',
  sortOrder: 'asc',
} as const;

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
    // The search index counts exactly, however many match.
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

  it('counts a broad filter straight from the database only up to the cap, then estimates', async () => {
    const exact = await listJobsFromDatabase(t.database.db, {
      ...defaults,
      filter: generateJob(3).friendlyNumber,
    });
    expect(exact).toMatchObject({ totalJobs: 1, totalIsEstimate: false });
    const broad = await listJobsFromDatabase(t.database.db, defaults);
    expect(broad.totalIsEstimate).toBe(true);
    expect(broad.totalJobs).toBeGreaterThan(EXACT_COUNT_CAP);
    // Loading refreshes the statistics, so the estimate is close to the truth.
    expect(Math.abs(broad.totalJobs - SEEDED) / SEEDED).toBeLessThan(0.1);
  });

  it('answers every filter, sort and page from its index exactly as the database does', async () => {
    const index = await JobSearchIndex.build(t.database.db);
    // Whole field values with spaces are answered by the index; text across fields is not.
    expect(index.match('In progress')).toBeDefined();
    expect(index.match('completed pass')).toBeUndefined();
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
      // Spaces: whole field values, a phrase of the description, across two fields.
      'in progress',
      job.description.split(' ').slice(1, 3).join(' ').toLowerCase(),
      `${job.conclusion} ${job.description.split(' ')[0]}`,
      `${job.status.slice(-3)} ${job.conclusion.slice(0, 2)}`,
      ' ',
      `${word} `,
      "o'",
      'zzzz',
      '%',
    ];
    for (const filter of filters) {
      for (const sortColumn of JOB_SORT_COLUMNS) {
        for (const [sortOrder, page] of [
          ['asc', 1],
          ['desc', 2],
          ['asc', 7],
        ] as const) {
          const query = { filter, page, perPage: 100, sortColumn, sortOrder } as const;
          const fromDatabase = await listJobsFromDatabase(t.database.db, query);
          const fromIndex = await listJobs(t.database.db, query, index);
          expect({ query, jobs: fromIndex.jobs }).toEqual({ query, jobs: fromDatabase.jobs });
          if (!fromDatabase.totalIsEstimate)
            expect(fromIndex.totalJobs).toBe(fromDatabase.totalJobs);
        }
      }
    }
  });

  it('inserts in bulk, continues numbering where the last load stopped, and the list follows', async () => {
    await loadJobs(t.database.db, SEEDED + 1, SEEDED + 3);
    const newest = `J-${String(SEEDED + 3).padStart(7, '0')}`;
    // The server rebuilds its index on the NOTIFY of the trigger on jobs.
    await eventually(async () => {
      const last = await list('?sortOrder=desc&perPage=20');
      expect(last.jobs[0]!.friendlyNumber).toBe(newest);
      expect(last.totalJobs).toBe(SEEDED + 3);
    });
    await expect(insertJobs(t.database.db, [generateJob(1)])).rejects.toThrow();
  });

  // One word, so the index answers (a filter with spaces may go to the database).
  it('follows a change made by plain SQL', async () => {
    await t.database.db.execute(
      sql`update jobs set description = 'Changedbyhand' where friendly_number = 'J-0000002'`,
    );
    await eventually(async () =>
      expect((await list('?filter=changedbyhand')).jobs.map((j) => j.friendlyNumber)).toEqual([
        'J-0000002',
      ]),
    );
    await t.database.db.execute(
      sql`update jobs set description = ${generateJob(2).description} where friendly_number = 'J-0000002'`,
    );
    await eventually(async () => expect((await list('?filter=changedbyhand')).totalJobs).toBe(0));
  });

  it('answers from the database, not a stale index, when a rebuild fails', async () => {
    // While the table has another name, the change's rebuild fails (and so does the database).
    await t.database.db.execute(sql`alter table jobs rename to jobs_away`);
    await t.database.db.execute(
      sql`update jobs_away set description = 'Changedwhileaway' where friendly_number = 'J-0000003'`,
    );
    await eventually(async () =>
      expect((await t.app.inject({ url: '/api/LIMS/jobs', headers: viewer })).statusCode).toBe(500),
    );
    // Back under its name, with no notice: only the database knows of the change.
    await t.database.db.execute(sql`alter table jobs_away rename to jobs`);
    expect((await list('?filter=changedwhileaway')).jobs.map((j) => j.friendlyNumber)).toEqual([
      'J-0000003',
    ]);
    await t.database.db.execute(
      sql`update jobs set description = ${generateJob(3).description} where friendly_number = 'J-0000003'`,
    );
    await eventually(async () =>
      expect((await list('?filter=changedwhileaway')).totalJobs).toBe(0),
    );
  });
});
