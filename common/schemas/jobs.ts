import { z } from 'zod';
import {
  DEFAULT_JOB_PAGE_SIZE,
  JOB_FILTER_MAX_LENGTH,
  JOB_MAX_PAGE,
  JOB_PAGE_SIZES,
} from '../constants';
import { exportOptionsSchema } from './exports';
import { singleLineText } from './text';

export const JOB_SORT_COLUMNS = ['friendlyNumber', 'status', 'conclusion', 'description'] as const;

/** A number in a query string: digits only ('0x10', '1e3' or '' are not numbers here). */
const queryNumber = (message: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && !/^\d+$/.test(value) ? Number.NaN : value),
    z.coerce.number({ error: message }),
  );

/** `GET /api/LIMS/jobs`: every parameter optional, anything unknown refused by name. */
export const jobListQuerySchema = z.strictObject(
  {
    filter: singleLineText()
      .trim()
      .max(JOB_FILTER_MAX_LENGTH, `must be at most ${JOB_FILTER_MAX_LENGTH} characters`)
      .default(''),
    page: queryNumber('must be a whole number')
      .pipe(
        z
          .number()
          .max(JOB_MAX_PAGE, { error: `must be at most ${JOB_MAX_PAGE}`, abort: true })
          .int('must be a whole number')
          .min(1, 'must be at least 1'),
      )
      .default(1),
    perPage: queryNumber('must be 20, 50 or 100')
      .refine((n) => (JOB_PAGE_SIZES as readonly number[]).includes(n), 'must be 20, 50 or 100')
      .default(DEFAULT_JOB_PAGE_SIZE),
    sortColumn: z
      .enum(JOB_SORT_COLUMNS, { error: `must be one of ${JOB_SORT_COLUMNS.join(', ')}` })
      .default('friendlyNumber'),
    sortOrder: z.enum(['asc', 'desc'], { error: 'must be asc or desc' }).default('asc'),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has unknown parameters: ${issue.keys.join(', ')}`
        : undefined,
  },
);

/** `GET /api/LIMS/jobs/export`: the list's filter and sort, and the export's options. */
export const jobExportQuerySchema = jobListQuerySchema
  .omit({ page: true, perPage: true })
  .extend(exportOptionsSchema.shape);

/** A job's list fields (spec section 3, without samples). */
export const jobSummarySchema = z.object({
  _id: z.string(),
  friendlyNumber: z.string(),
  status: z.string(),
  conclusion: z.string(),
  description: z.string(),
});

export const jobListSchema = z.object({
  jobs: z.array(jobSummarySchema),
  totalJobs: z.number().int(),
  /** True when the total is an estimate (a broad filter over many jobs): within 5 %. */
  totalIsEstimate: z.boolean(),
  /** The page answered: the one asked for, or the last one when that was past the end. */
  page: z.number().int(),
});

const resultSchema = z.object({
  analyte: z.string(),
  formatted: z.string(),
  conclusion: z.string(),
});
export const jobSchema = jobSummarySchema.extend({
  samples: z.array(
    z.object({
      friendlyNumber: z.string(),
      tasks: z.array(z.object({ name: z.string(), results: z.array(resultSchema) })),
    }),
  ),
});

export type JobListQuery = z.infer<typeof jobListQuerySchema>;
export type JobSummary = z.infer<typeof jobSummarySchema>;
export type JobList = z.infer<typeof jobListSchema>;
export type Job = z.infer<typeof jobSchema>;
