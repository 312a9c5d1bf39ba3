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
 * The job list: narrow rows with the list fields only, and a stored lower-case search text
 * under a trigram index, so a substring filter is served by an index. Every sort has an
 * index ending in the unique friendly number, so pages are stable.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid().primaryKey().defaultRandom(),
    friendlyNumber: text().notNull().unique(),
    status: text().notNull(),
    conclusion: text().notNull(),
    description: text().notNull(),
    search: text()
      .notNull()
      .generatedAlwaysAs(
        (): ReturnType<typeof sql> =>
          sql`lower(${jobs.friendlyNumber} || ' ' || ${jobs.status} || ' ' || ${jobs.conclusion} || ' ' || ${jobs.description})`,
      ),
  },
  (table) => [
    index().on(table.status, table.friendlyNumber),
    index().on(table.conclusion, table.friendlyNumber),
    index().on(table.description, table.friendlyNumber),
    index('jobs_search_trgm_index').using('gin', sql`${table.search} gin_trgm_ops`),
  ],
);

/** Each job's samples, apart from the list rows: only ever read whole, one job at a time. */
export const jobDetails = pgTable('job_details', {
  jobId: uuid()
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  samples: jsonb().$type<JobSample[]>().notNull(),
});
