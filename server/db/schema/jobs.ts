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
 * The job list: narrow rows with the list fields only. Every sort has an index ending in
 * the unique friendly number (the search's triggers find a new job's neighbours in each
 * order through them); job numbers are searched through a trigram index. The rest of the
 * search (terms, sort keys, postings) is kept by the database itself: 0015_job_search.sql.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid().primaryKey().defaultRandom(),
    friendlyNumber: text().notNull().unique(),
    status: text().notNull(),
    conclusion: text().notNull(),
    description: text().notNull(),
  },
  (table) => [
    index().on(table.status, table.friendlyNumber),
    index().on(table.conclusion, table.friendlyNumber),
    index().on(table.description, table.friendlyNumber),
    index('jobs_friendly_number_trgm_index').using(
      'gin',
      sql`lower(${table.friendlyNumber}) gin_trgm_ops`,
    ),
  ],
);

/** Each job's samples, apart from the list rows: only ever read whole, one job at a time. */
export const jobDetails = pgTable('job_details', {
  jobId: uuid()
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  samples: jsonb().$type<JobSample[]>().notNull(),
});
