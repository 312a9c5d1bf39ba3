import { z } from 'zod';
import { apiErrorSchema } from './apiError';
import { singleLineText } from './text';

/** The largest CSV file an import takes. */
export const IMPORT_MAX_BYTES = 512 * 1024 * 1024;

/** The most problems a report lists (they are all counted). */
export const IMPORT_PROBLEMS_MAX = 1000;

/** How an import treats rows that are refused: nothing is written (`all`), or the rest is. */
export const IMPORT_MODES = ['all', 'valid'] as const;

/**
 * `POST /api/entity-records/:entityName/import`, the CSV file as the body (`text/csv`):
 * `dryRun` checks every row and writes nothing; `mode` says what a refused row does;
 * `columns` maps the file's columns, in order, to fields (`_id` for a record's id, empty to
 * skip one), else they are matched to fields by name or label.
 */
export const importQuerySchema = z.object({
  dryRun: z.stringbool({ error: 'must be true or false' }).default(true),
  mode: z.enum(IMPORT_MODES, { error: 'must be all or valid' }).default('all'),
  columns: singleLineText().max(10_000, 'must be at most 10,000 characters').optional(),
});

/** A row the import refused: its line in the file, the field (or column) and why. */
export const importProblemSchema = z.object({
  line: z.number().int(),
  field: z.string(),
  message: z.string(),
});

/**
 * What an import did (or, dry, would do): rows read, records added and changed, rows
 * refused, and whether it was written (`committed`).
 */
export const importReportSchema = z.object({
  dryRun: z.boolean(),
  mode: z.enum(IMPORT_MODES),
  columns: z.array(z.string()),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  refused: z.number().int(),
  committed: z.boolean(),
  problems: z.array(importProblemSchema),
  problemsTruncated: z.boolean(),
});

/**
 * One line of an import's answer (newline-delimited JSON): progress as the rows are
 * checked, then the report, or an error that stopped it (nothing written).
 */
export const importLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), rows: z.number().int() }),
  z.object({ type: z.literal('report'), report: importReportSchema }),
  z.object({
    type: z.literal('error'),
    error: apiErrorSchema,
  }),
]);

export type ImportMode = (typeof IMPORT_MODES)[number];
export type ImportQuery = z.infer<typeof importQuerySchema>;
export type ImportProblem = z.infer<typeof importProblemSchema>;
export type ImportReport = z.infer<typeof importReportSchema>;
export type ImportLine = z.infer<typeof importLineSchema>;
