import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Job, JobList, JobListQuery } from '@common/schemas/jobs';
import { type Db, preparedQuery, queryRows } from '../../db/client';
import { jobDetails, jobs } from '../../db/schema/jobs';
import { notFound } from '../../lib/errors';
import { type GeneratedJob, generateJob } from './jobGenerator';
import type { JobSearchIndex } from './jobSearchIndex';

/** Counted exactly up to here; beyond, the total is an estimate (an exact count of a broad filter costs ~0.6 s at 1M jobs). */
export const EXACT_COUNT_CAP = 1000;

const columns = {
  friendlyNumber: jobs.friendlyNumber,
  status: jobs.status,
  conclusion: jobs.conclusion,
  description: jobs.description,
};

/** The filter as a LIKE pattern over the lower-case search text; % and _ are matched literally. */
const likePattern = (filter: string) => `%${filter.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** How many jobs match: exact up to the cap, else the planner's estimate (flagged). */
async function countJobs(db: Db, where: ReturnType<typeof sql> | undefined) {
  const filtered = where ? sql`where ${where}` : sql``;
  const [capped] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${jobs} ${filtered} limit ${EXACT_COUNT_CAP + 1}) as capped`,
  );
  const exact = capped!.n;
  if (exact <= EXACT_COUNT_CAP) return { totalJobs: exact, totalIsEstimate: false };
  const [plan] = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    db,
    sql`explain (format json) select 1 from ${jobs} ${filtered}`,
  );
  const estimate = Math.round(plan!['QUERY PLAN'][0].Plan['Plan Rows']);
  return { totalJobs: Math.max(estimate, EXACT_COUNT_CAP + 1), totalIsEstimate: true };
}

/**
 * A page of jobs (list fields only), filtered by a case-insensitive substring of the
 * number, status, conclusion or description, in a stable order (ties broken by the unique
 * friendly number). The search index answers when it can, with an exact total; otherwise
 * the database does.
 */
export async function listJobs(
  db: Db,
  query: JobListQuery,
  index?: JobSearchIndex,
): Promise<JobList> {
  const offset = (query.page - 1) * query.perPage;
  const found = index?.page(query.filter, query.sortColumn, query.sortOrder, offset, query.perPage);
  if (!index || !found) return listJobsFromDatabase(db, query);
  return { jobs: index.summaries(found.slots), totalJobs: found.total, totalIsEstimate: false };
}

/**
 * The same page straight from the database: the filter is served by the trigram index on
 * the stored lower-case search text, the sort by the column's index.
 */
export async function listJobsFromDatabase(db: Db, query: JobListQuery): Promise<JobList> {
  const where = query.filter ? sql`${jobs.search} like ${likePattern(query.filter)}` : undefined;
  const order = query.sortOrder === 'asc' ? asc : desc;
  const sortColumn = columns[query.sortColumn];
  const rows = await db
    .select({
      _id: jobs.id,
      friendlyNumber: jobs.friendlyNumber,
      status: jobs.status,
      conclusion: jobs.conclusion,
      description: jobs.description,
    })
    .from(jobs)
    .where(where)
    .orderBy(
      ...(sortColumn === jobs.friendlyNumber
        ? [order(jobs.friendlyNumber)]
        : [order(sortColumn), order(jobs.friendlyNumber)]),
    )
    .limit(query.perPage)
    .offset((query.page - 1) * query.perPage);
  const { totalJobs, totalIsEstimate } = await countJobs(db, where);
  return { jobs: rows, totalJobs, totalIsEstimate };
}

const jobQuery = preparedQuery((db) =>
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

/** The highest job position loaded so far (0 when there are none). */
export async function lastJobNumber(db: Pick<Db, 'select'>): Promise<number> {
  const [row] = await db
    .select({ max: sql<string | null>`max(${jobs.friendlyNumber})` })
    .from(jobs);
  return row?.max ? Number(row.max.slice(2)) : 0;
}

/**
 * Inserts generated jobs, list rows and details, one statement each: the batch travels as
 * one JSON parameter that jsonb_to_recordset spreads into rows, so thousands of jobs cost
 * two round trips, the same on PGlite and PostgreSQL.
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

/** Generates and inserts jobs `from`..`to` (1-based positions) in batches, reporting progress. */
export async function loadJobs(
  db: Pick<Db, 'execute'>,
  from: number,
  to: number,
  onProgress: (done: number) => void = () => {},
  batchSize = 2000,
): Promise<void> {
  for (let start = from; start <= to; start += batchSize) {
    const end = Math.min(to, start + batchSize - 1);
    const batch = Array.from({ length: end - start + 1 }, (_, i) => generateJob(start + i));
    await insertJobs(db, batch);
    onProgress(end - from + 1);
  }
  // Fresh statistics: the total shown beyond the exact-count cap is the planner's estimate.
  await db.execute(sql`analyze jobs`);
}
