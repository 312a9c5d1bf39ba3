import type { FastifyInstance } from 'fastify';
import type { ImportLine, ImportReport } from '@common/schemas/imports';

/** POSTs `csv` to the import route `url` (with `query`: dryRun, mode, columns). */
export const postCsv = (
  app: FastifyInstance,
  url: string,
  csv: string,
  headers: Record<string, string>,
  query: Record<string, string> = {},
) =>
  app.inject({
    method: 'POST',
    url,
    query,
    headers: { ...headers, 'content-type': 'text/csv' },
    payload: csv,
  });

/** An import's answer, line by line (newline-delimited JSON). */
export const importLines = (body: string): ImportLine[] =>
  body
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text) as ImportLine);

/** An import's report: the last line of its answer. */
export function importReport(body: string): ImportReport {
  const last = importLines(body).at(-1)!;
  if (last.type !== 'report') throw new Error(`no report: ${body}`);
  return last.report;
}
