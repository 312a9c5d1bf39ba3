import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';

/** A result of a task: what was measured, its formatted value, and the verdict. */
export interface JobResult {
  analyte: string;
  formatted: string;
  conclusion: string;
}
export interface JobSample {
  friendlyNumber: string;
  tasks: { name: string; results: JobResult[] }[];
}

/**
 * The jobs an estimate may sample: those whose uuid_hash (an int4) is in the lowest quarter of
 * its range, held in jobs_sample_index with what a job is tested on.
 */
export const SAMPLED_HASHES_BELOW = -(2 ** 31) + 2 ** 30;

/**
 * The job list: narrow rows with the list fields only. Every sort has an index ending in
 * the unique friendly number. A filter's jobs are found through a trigram index of number
 * and description (`indexedText`, in lower case, stored so that the index's rechecks read
 * it rather than compute it), for short words through an index of its letters and pairs of
 * letters, and of status and conclusion (a handful of values each) through their sort
 * indexes, or by walking a sort order testing each job; estimates sample the jobs in the
 * order of a hash of their id, a quarter of them held whole in an index of their own. How
 * the search chooses: jobs.service.ts; the totals the triggers keep:
 * 0017_job_search_trigrams.sql.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid().primaryKey().defaultRandom(),
    friendlyNumber: text().notNull().unique(),
    status: text().notNull(),
    conclusion: text().notNull(),
    description: text().notNull(),
    indexedText: text()
      .notNull()
      .generatedAlwaysAs(sql`lower(friendly_number || ' ' || description)`),
  },
  (table) => [
    index().on(table.status, table.friendlyNumber),
    index().on(table.conclusion, table.friendlyNumber),
    index().on(table.description, table.friendlyNumber),
    index('jobs_indexed_text_trgm_index').using('gin', sql`${table.indexedText} gin_trgm_ops`),
    index('jobs_indexed_text_grams_index').using(
      'gin',
      sql`job_search_grams(${table.indexedText})`,
    ),
    index('jobs_description_words_index').using(
      'gin',
      sql`job_description_words(${table.description})`,
    ),
    // Also INCLUDEs (id, indexed_text, status, conclusion), which drizzle cannot say:
    // 0026_job_sample_index.sql.
    index('jobs_sample_index')
      .on(sql`uuid_hash(${table.id})`)
      .where(sql`uuid_hash(${table.id}) < ${sql.raw(String(SAMPLED_HASHES_BELOW))}`),
  ],
);

/** Each job's samples, apart from the list rows: only ever read whole, one job at a time. */
export const jobDetails = pgTable('job_details', {
  jobId: uuid()
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  samples: jsonb().$type<JobSample[]>().notNull(),
});
