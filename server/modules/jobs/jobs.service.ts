import { eq, sql } from 'drizzle-orm';
import { messages } from '@common/messages';
import type { Job, JobList, JobListQuery } from '@common/schemas/jobs';
import { type Db, type Session, namedQuery, perDatabase, withSession } from '../../db/client';
import { jobDetails, jobs } from '../../db/schema/jobs';
import { AppError, notFound } from '../../lib/errors';
import { Slots } from '../../lib/slots';
import { FilterTotals } from './filterTotals';
import { type GeneratedJob, generateJob } from './jobGenerator';

/*
 * The job list is searched where it lives, in PostgreSQL, with its own structures
 * (0017_job_search_trigrams.sql). A filter is split on whitespace into words; a job matches
 * when every word is a case-insensitive substring of its number, status, conclusion or
 * description (MUI's quick-filter rule): of `search`, those four in lower case, one space
 * apart. How a page is found follows how many jobs match, whatever the data:
 * - a common filter (`e`, `the`): the sort order's index is walked and each job tested; the
 *   first matches come first, so a page costs about (its end) / (the share that matches) rows;
 * - a rare one (`xylophone`, `J-00012`): the trigram index finds its jobs, which are sorted;
 *   about (the share that matches) × (all jobs) rows, and the exact total comes with them.
 * The share is measured on a sample of jobs in a random order (a hash of their id), and so
 * is the total of a filter too common to count cheaply: an estimate, flagged, its error
 * about 1/√(hits in the sample). Each server keeps the totals it found while the jobs stay
 * as they were (their generation), so a filter asked again costs its page alone.
 */

type SortColumn = JobListQuery['sortColumn'];
type SortOrder = JobListQuery['sortOrder'];

/** Totals are exact at least up to here; beyond, they may be estimates (flagged). */
export const EXACT_TOTAL_UP_TO = 10_000;
/** The first sample of a filter not seen before: enough to tell common from rare. */
const FIRST_SAMPLE = 2_000;
/** Hits an estimate rests on: its relative error is then about 1/√2000, 2.2 %. */
const HITS_FOR_ESTIMATE = 2_000;
/** Job-list reads at once on one server, of the database pool's 10 connections. */
const SEARCH_SLOTS = 6;
/** How long a job-list read waits for a slot before it is answered OVERLOADED. */
const SEARCH_WAIT_MS = 2_000;

/** Each sort's ORDER BY (ties by the unique number): one of the jobs' sort indexes serves it. */
const orderBy = (column: SortColumn, direction: SortOrder, table = 'j') =>
  column === 'friendlyNumber'
    ? `${table}.friendly_number ${direction}`
    : `${table}.${column} ${direction}, ${table}.friendly_number ${direction}`;

const JOB_JSON = `json_build_object('_id', j.id, 'friendlyNumber', j.friendly_number,
  'status', j.status, 'conclusion', j.conclusion, 'description', j.description)`;

/**
 * Whether job `j` holds every word of `$1`: each as a LIKE pattern, lower case by the
 * database's own rules, as `search` is (job_search_pattern, 0015).
 */
const HOLDS_EVERY = `j.search like all (array(select job_search_pattern(word) from unnest($1::text[]) as word))`;

/** The most words a statement hands the trigram index (the others are tested on its rows). */
const INDEXED_WORDS = 3;

/** The SQL of each statement, by name: built once. */
const statements = new Map<string, string>();
function statement(name: string, build: () => string) {
  let text = statements.get(name);
  if (text === undefined) statements.set(name, (text = build()));
  return { name, text };
}

/** A page of all jobs: `$1` offset, `$2` limit. */
const allStatement = (column: SortColumn, direction: SortOrder) =>
  statement(`jobs_all_${column}_${direction}`, () => {
    const order = orderBy(column, direction);
    return `
      select coalesce(json_agg(${JOB_JSON} order by ${order}), '[]') as jobs,
        (select jobs from job_totals)::float8 as total
      from (select * from jobs as j order by ${order} offset $1 limit $2) as j`;
  });

/**
 * A page of the jobs that hold every word, walking the sort order's index and testing each
 * job: `$1` the words, `$2` offset, `$3` limit. The walk stops at the page's last match.
 * `offset 0` fences the walk in: PostgreSQL's guess at how many jobs a pattern matches
 * would otherwise have it read and sort them all whenever it guesses few.
 */
const walkStatement = (column: SortColumn, direction: SortOrder) =>
  statement(`jobs_walk_${column}_${direction}`, () => {
    const order = orderBy(column, direction);
    return `
      select coalesce(json_agg(${JOB_JSON} order by ${order}), '[]') as jobs
      from (
        select * from (select * from jobs as j order by ${order} offset 0) as j
        where ${HOLDS_EVERY} order by ${order} offset $2 limit $3
      ) as j`;
  });

/** How many jobs hold every word (`$1`), through the trigram index (`$2`…) when it can serve. */
const countStatement = (indexed: number) =>
  statement(`jobs_count_matches_${indexed}`, () => {
    const conditions = Array.from(
      { length: indexed },
      (_, i) => `j.search like job_search_pattern($${i + 2})`,
    );
    return `select count(*)::float8 as total from jobs as j
      where ${[...conditions, HOLDS_EVERY].join(' and ')}`;
  });

/**
 * Every job that holds every word, found by the trigram index (`$4`…: the longest words,
 * which it can serve; `$1` all of them), counted, and a page of them sorted:
 * `$2` offset, `$3` limit. Materialized, so the planner cannot walk a sort index instead.
 */
const matchesStatement = (column: SortColumn, direction: SortOrder, indexed: number) =>
  statement(`jobs_matches_${column}_${direction}_${indexed}`, () => {
    const order = orderBy(column, direction);
    const conditions = Array.from(
      { length: indexed },
      (_, i) => `j.search like job_search_pattern($${i + 4})`,
    );
    return `
      with matches as materialized (
        select * from jobs as j where ${[...conditions, HOLDS_EVERY].join(' and ')}
      )
      select
        (select coalesce(json_agg(${JOB_JSON} order by ${order}), '[]')
         from (select * from matches as j order by ${order} offset $2 limit $3) as j) as jobs,
        (select count(*) from matches)::float8 as total`;
  });

/**
 * The sample: the jobs whose id hashes below `$2` (a range of jobs_sample_order_index, read
 * as a bitmap, so in the table's order), a share of all jobs as large as $2's of the hashes'
 * range, drawn at random whatever the data. How many hold every word of `$1` (`hits`),
 * and how many hold each (`wordHits`, in order).
 */
const SAMPLE = `
  with j as materialized (select j.search from jobs as j where uuid_hash(j.id) < $2::bigint)
  select count(*) filter (where ${HOLDS_EVERY})::float8 as hits, count(*)::float8 as rows,
    array(
      select (select count(*) from j where j.search like job_search_pattern(word))::float8
      from unnest($1::text[]) with ordinality as w(word, n) order by n
    ) as "wordHits"
  from j`;

/**
 * Whether the trigram index can narrow a word down: it needs three letters or digits in a
 * row (a shorter word, or punctuation alone, yields no trigram, and every job would be read).
 */
const indexable = (word: string) => /[\p{L}\p{N}]{3}/u.test(word);

/** Each database's filter totals, and its job-list slots. */
const totalsOf = perDatabase(() => new FilterTotals());
const slotsOf = perDatabase(
  () =>
    new Slots(
      SEARCH_SLOTS,
      SEARCH_WAIT_MS,
      () =>
        new AppError(503, 'OVERLOADED', messages.server.overloaded, {
          headers: { 'retry-after': '1' },
        }),
    ),
);

/**
 * A page of jobs (list fields only) matching the filter, in a stable order (ties broken
 * by the unique friendly number), with the total. Totals are exact up to
 * EXACT_TOTAL_UP_TO matches, and beyond it whenever counting costs no more than sampling;
 * otherwise estimated from a sample and flagged. A page past the last answers the last
 * page, and says so in `page`. At most SEARCH_SLOTS lists are read at once on a server;
 * the others wait for a slot, up to SEARCH_WAIT_MS, then are answered OVERLOADED.
 */
export async function listJobs(db: Db, query: JobListQuery): Promise<JobList> {
  const words = [...new Set(query.filter.split(/\s+/u).filter(Boolean))];
  return slotsOf(db).run(() =>
    withSession(db, (session) =>
      words.length ? listMatching(session, query, words, totalsOf(db)) : listAll(session, query),
    ),
  );
}

async function listAll(db: Session, query: JobListQuery): Promise<JobList> {
  const { name, text } = allStatement(query.sortColumn, query.sortOrder);
  const read = async (page: number) =>
    (
      await namedQuery<{ jobs: JobList['jobs']; total: number }>(db, name, text, [
        (page - 1) * query.perPage,
        query.perPage,
      ])
    )[0]!;
  let page = query.page;
  let answer = await read(page);
  if (!answer.jobs.length && page > 1 && answer.total) {
    page = lastPage(answer.total, query.perPage);
    answer = await read(page);
  }
  return { jobs: answer.jobs, totalJobs: answer.total, page, totalIsEstimate: false };
}

const lastPage = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage));

const nothing = (): JobList => ({ jobs: [], totalJobs: 0, page: 1, totalIsEstimate: false });

/**
 * A page of the jobs that hold every word, the cheaper way for how many match: known from
 * this server's kept total while the jobs are of the generation it was found at, else
 * sampled. A total not kept is counted when that costs no more rows than a sample for an
 * estimate would (always when the trigram index finds the page: it reads every match), and
 * estimated otherwise.
 */
async function listMatching(
  db: Session,
  query: JobListQuery,
  words: string[],
  totals: FilterTotals,
): Promise<JobList> {
  const filter: Filter = {
    words,
    // The longest words narrow the trigram index's candidates the most.
    indexed: words
      .filter(indexable)
      .sort((a, b) => b.length - a.length)
      .slice(0, INDEXED_WORDS),
  };
  const key = words.join('\u0000');
  const { jobs, generation } = await jobTotals(db);
  if (jobs === 0) return nothing();
  let total = totals.get(key, generation);
  let sampled: Sampled | undefined;
  let indexRows: number;
  if (total) indexRows = total.indexRows;
  else {
    sampled = await sample(db, filter.words, FIRST_SAMPLE, jobs);
    // What the trigram index reads: the jobs of each word it is given (each word's own
    // trigrams' lists, however few jobs hold all the words).
    indexRows = filter.indexed.length
      ? filter.indexed.reduce(
          (rows, word) =>
            rows + (Math.max(sampled!.wordHits[words.indexOf(word)]!, 0.5) / sampled!.rows) * jobs,
          0,
        )
      : jobs;
    // A sample of every job is the exact total.
    if (FIRST_SAMPLE >= jobs)
      total = totals.keep(key, { count: sampled.hits, estimate: false, generation, indexRows });
    if (total?.count === 0) return nothing();
  }
  // The share of the jobs that match (half a hit when a sample had none).
  const share = total ? total.count / jobs : Math.max(sampled!.hits, 0.5) / sampled!.rows;
  // What each way costs, in rows read through an index: the walk about (the page's end) /
  // share; all the matches through the trigram index indexRows, or without a word it can
  // serve, a plain scan of every job, which reads a row about three times faster.
  const walkCost = (query.page * query.perPage) / share;
  const matchesCost = filter.indexed.length ? indexRows : jobs / 3;
  // An estimate reads HITS_FOR_ESTIMATE / share rows in the sample order.
  const estimateCost = HITS_FOR_ESTIMATE / share;
  if (matchesCost <= walkCost) {
    const listed = await readMatches(db, query, filter);
    totals.keep(key, { count: listed.totalJobs, estimate: false, generation, indexRows });
    return listed;
  }
  const page = await walk(db, query, filter.words);
  // Past the last page: all the matches, read, say which page is the last.
  if (!page.length && query.page > 1) return readMatches(db, query, filter);
  if (!total) {
    const counted = share * jobs <= 1.5 * EXACT_TOTAL_UP_TO || matchesCost <= estimateCost;
    const found = counted
      ? { count: await count(db, filter), estimate: false }
      : await estimate(db, filter.words, jobs, sampled!, estimateCost);
    // An estimate under the line where totals must be exact is counted after all.
    if (found.estimate && found.count <= EXACT_TOTAL_UP_TO) found.count = await count(db, filter);
    total = totals.keep(key, {
      count: found.count,
      estimate: found.estimate && found.count > EXACT_TOTAL_UP_TO,
      generation,
      indexRows,
    });
  }
  return { jobs: page, totalJobs: total.count, page: query.page, totalIsEstimate: total.estimate };
}

/** A filter's words, and those the trigram index is given. */
type Filter = { words: string[]; indexed: string[] };

/** What a sample said of a filter: hits among rows. */
type Sampled = { hits: number; rows: number; wordHits: number[] };

/** The jobs, counted by the triggers, and their generation (0017). */
const jobTotals = async (db: Session) =>
  (
    await namedQuery<{ jobs: number; generation: number }>(
      db,
      'jobs_totals',
      'select jobs::float8 as jobs, generation::float8 as generation from job_totals',
      [],
    )
  )[0]!;

/** A sample of about `rows` of the `jobs`: every job when rows reaches it. */
const sample = async (db: Session, words: string[], rows: number, jobs: number) => {
  // uuid_hash is an int4: the hashes below this bound are a `rows / jobs` share of its range.
  const bound = rows >= jobs ? 2 ** 31 : Math.floor(-(2 ** 31) + (rows / jobs) * 2 ** 32);
  return (await namedQuery<Sampled>(db, 'jobs_sample', SAMPLE, [words, bound]))[0]!;
};

const walk = async (db: Session, query: JobListQuery, words: string[]) => {
  const { name, text } = walkStatement(query.sortColumn, query.sortOrder);
  const [answer] = await namedQuery<{ jobs: JobList['jobs'] }>(db, name, text, [
    words,
    (query.page - 1) * query.perPage,
    query.perPage,
  ]);
  return answer!.jobs;
};

const count = async (db: Session, filter: Filter) => {
  const { name, text } = countStatement(filter.indexed.length);
  const [answer] = await namedQuery<{ total: number }>(db, name, text, [
    filter.words,
    ...filter.indexed,
  ]);
  return answer!.total;
};

/** The page from all the matches, with their exact total; a page past the last answers the last. */
async function readMatches(db: Session, query: JobListQuery, filter: Filter): Promise<JobList> {
  const { name, text } = matchesStatement(query.sortColumn, query.sortOrder, filter.indexed.length);
  const read = async (page: number) =>
    (
      await namedQuery<{ jobs: JobList['jobs']; total: number }>(db, name, text, [
        filter.words,
        (page - 1) * query.perPage,
        query.perPage,
        ...filter.indexed,
      ])
    )[0]!;
  let page = query.page;
  let answer = await read(page);
  if (!answer.jobs.length && page > 1) {
    page = lastPage(answer.total, query.perPage);
    if (answer.total) answer = await read(page);
  }
  return { jobs: answer.jobs, totalJobs: answer.total, page, totalIsEstimate: false };
}

/**
 * The total of a filter too common to count cheaply, from a sample of about
 * HITS_FOR_ESTIMATE hits (sized by the first sample's share): an estimate, unless the
 * sample took in every job.
 */
async function estimate(
  db: Session,
  words: string[],
  jobs: number,
  first: Sampled,
  rows: number,
): Promise<{ count: number; estimate: boolean }> {
  if (first.hits >= HITS_FOR_ESTIMATE)
    return { count: Math.round((first.hits / first.rows) * jobs), estimate: true };
  const wanted = Math.ceil(rows * 1.1);
  const sampled = await sample(db, words, wanted, jobs);
  return {
    count: Math.round((sampled.hits / Math.max(sampled.rows, 1)) * jobs),
    estimate: wanted < jobs,
  };
}

const jobQuery = perDatabase((db) =>
  db
    .select()
    .from(jobs)
    .leftJoin(jobDetails, eq(jobDetails.jobId, jobs.id))
    .where(eq(jobs.id, sql.placeholder('id')))
    .prepare('job'),
);

/** One job with its samples. @throws 404. */
export async function getJob(db: Db, id: string): Promise<Job> {
  const [row] = await jobQuery(db).execute({ id });
  if (!row) throw notFound('Job');
  const { id: _id, friendlyNumber, status, conclusion, description } = row.jobs;
  return {
    _id,
    friendlyNumber,
    status,
    conclusion,
    description,
    samples: row.job_details?.samples ?? [],
  };
}

/** Whether any job is stored: one index probe, whatever the job count (the seed asks it). */
export async function hasJobs(db: Pick<Db, 'select'>): Promise<boolean> {
  const [row] = await db.select({ id: jobs.id }).from(jobs).limit(1);
  return row !== undefined;
}

/**
 * The highest job position loaded so far (0 when there are none), read from the generated
 * numbers (`J-` and digits). Compared as numbers: past 9,999,999 a number has one digit
 * more, and as text `J-10000000` sorts before `J-9999999`. A scan: loaders call it once.
 */
export async function lastJobNumber(db: Pick<Db, 'select'>): Promise<number> {
  const [row] = await db
    .select({
      max: sql<string | null>`max(substr(${jobs.friendlyNumber}, 3)::bigint)`,
    })
    .from(jobs)
    .where(sql`${jobs.friendlyNumber} ~ '^J-[0-9]{1,15}$'`);
  return Number(row?.max ?? 0);
}

/**
 * Inserts generated jobs, list rows and details, one statement each: the batch travels as
 * one JSON parameter that jsonb_to_recordset spreads into rows, so thousands of jobs cost
 * two round trips, the same on PGlite and PostgreSQL. The search's triggers take them in.
 */
export async function insertJobs(db: Pick<Db, 'execute'>, batch: GeneratedJob[]): Promise<void> {
  const rows = batch.map((job) => ({ id: crypto.randomUUID(), ...job }));
  const list = JSON.stringify(
    rows.map(({ id, friendlyNumber, status, conclusion, description }) => ({
      id,
      friendly_number: friendlyNumber,
      status,
      conclusion,
      description,
    })),
  );
  await db.execute(sql`
    insert into jobs (id, friendly_number, status, conclusion, description)
    select id, friendly_number, status, conclusion, description
    from jsonb_to_recordset(${list}::jsonb)
      as j(id uuid, friendly_number text, status text, conclusion text, description text)`);
  const details = JSON.stringify(rows.map(({ id, samples }) => ({ job_id: id, samples })));
  await db.execute(sql`
    insert into job_details (job_id, samples)
    select job_id, samples from jsonb_to_recordset(${details}::jsonb) as d(job_id uuid, samples jsonb)`);
}

/**
 * Generates and inserts jobs `from`..`to` (1-based positions) in batches, reporting
 * progress, in one transaction: other sessions see the jobs when it commits. `generate`
 * makes the job at a position (the generator's, or the benchmark's prose jobs).
 */
export async function loadJobs(
  db: Pick<Db, 'transaction'>,
  from: number,
  to: number,
  onProgress: (done: number) => void = () => {},
  {
    batchSize = 2000,
    generate = generateJob,
  }: { batchSize?: number; generate?: typeof generateJob } = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    for (let start = from; start <= to; start += batchSize) {
      const end = Math.min(to, start + batchSize - 1);
      const batch = Array.from({ length: end - start + 1 }, (_, i) => generate(start + i));
      await insertJobs(tx, batch);
      onProgress(end - from + 1);
    }
    await tx.execute(sql`analyze jobs`);
  });
}

/**
 * After a large load, outside any transaction: VACUUM moves the trigram index's pending
 * entries (kept apart to make inserts cheap, and read by every search until moved) into
 * the index, and marks the pages all-visible.
 */
export async function settleJobSearch(db: Pick<Db, 'execute'>): Promise<void> {
  await db.execute(sql`vacuum analyze jobs`);
}
