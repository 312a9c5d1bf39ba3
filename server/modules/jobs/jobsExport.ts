import type { JobListQuery, JobSummary } from '@common/schemas/jobs';
import { type Db, withSearchSession } from '../../db/client';
import type { ExportColumn } from '../../lib/exports';
import { type OrderKey, type Statement, batchStatement, inBatches, runOn } from '../../lib/keyset';

type JobExportRow = JobSummary & { cursor: (string | null)[] };

/** What a job export can write: the list's columns. */
const JOB_COLUMNS: ExportColumn<JobExportRow>[] = [
  { name: '_id', label: 'ID', value: (job) => job._id },
  { name: 'friendlyNumber', label: 'Job', value: (job) => job.friendlyNumber },
  { name: 'status', label: 'Status', value: (job) => job.status },
  { name: 'conclusion', label: 'Conclusion', value: (job) => job.conclusion },
  { name: 'description', label: 'Description', value: (job) => job.description },
];

const COLUMN_SQL = {
  friendlyNumber: 'r.friendly_number',
  status: 'r.status',
  conclusion: 'r.conclusion',
  description: 'r.description',
} as const;

/**
 * The jobs an export writes: the list's filter (its quick-search rule) in its order, read in
 * keyset batches from the sort order's index, each batch after the last one's keys, so the
 * server holds one batch however many jobs there are (ten million included) and a common
 * word's first rows come at once. Read on the search connections, as filtered lists are.
 */
export function exportJobs(
  db: Db,
  { filter, sortColumn, sortOrder }: Pick<JobListQuery, 'filter' | 'sortColumn' | 'sortOrder'>,
) {
  const words = [...new Set(filter.split(/\s+/u).filter(Boolean))];
  const descending = sortOrder === 'desc';
  const number: OrderKey = { sql: 'r.friendly_number', type: 'text', descending, nullable: false };
  const keys: OrderKey[] =
    sortColumn === 'friendlyNumber'
      ? [number]
      : [{ sql: COLUMN_SQL[sortColumn], type: 'text', descending, nullable: false }, number];
  const run = (statement: Statement) =>
    withSearchSession(db, (session) => runOn<JobExportRow>(session)(statement));
  const batches = inBatches(run, (last, limit) =>
    batchStatement({
      source: `select j.id::text as "_id", j.friendly_number as "friendlyNumber", j.status,
          j.conclusion, j.description, j.friendly_number, j.indexed_text
        from jobs j`,
      // As the list tests a job (jobs.service.ts): each word as a LIKE pattern in its number,
      // description, status and conclusion, lower case by the database's rules.
      where: (parameter) =>
        words.length
          ? [
              `(r.indexed_text || ' ' || lower(r.status) || ' ' || lower(r.conclusion)) like all
               (array(select job_search_pattern(word) from unnest(${parameter(words, '::text[]')}) as word))`,
            ]
          : [],
      keys,
      last,
      limit,
    }),
  );
  return { name: 'jobs', columns: JOB_COLUMNS, batches };
}
