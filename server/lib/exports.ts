import { Readable } from 'node:stream';
import { constants as zlibConstants } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ExportFormat } from '@common/schemas/exports';
import { csvRecord } from './csv';
import { badRequest } from './errors';

/** A column an export may write: its name (the `columns` parameter's word), header and value. */
export interface ExportColumn<Row> {
  name: string;
  label: string;
  value: (row: Row) => string | number | boolean | null | undefined;
}

/**
 * The columns `names` asks for (comma-separated, in that order), or all of them.
 * @throws 400 naming each column the list does not have.
 */
function chosenColumns<Row>(
  columns: ExportColumn<Row>[],
  names: string | undefined,
): ExportColumn<Row>[] {
  if (names === undefined || names.trim() === '') return columns;
  const byName = new Map(columns.map((column) => [column.name, column]));
  const asked = names.split(',').map((name) => name.trim());
  const unknown = asked.filter((name) => !byName.has(name));
  if (unknown.length) {
    const message = `has no column ${unknown.join(', ')}`;
    throw badRequest(`querystring.columns ${message}`, [{ field: 'querystring.columns', message }]);
  }
  return [...new Set(asked)].map((name) => byName.get(name)!);
}

const asText = (value: string | number | boolean | null | undefined) =>
  value === null || value === undefined ? null : String(value);

/** What Excel needs to read a CSV file as UTF-8. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Sends the rows of `batches` as a download, a batch at a time as it comes (the caller reads
 * them in batches, so the server holds one whatever the export's size):
 * - CSV: RFC 4180 with a byte-order mark, the columns' labels as its header, every text
 *   defused against spreadsheet formulas (`csvField`);
 * - JSON: an array of objects keyed by the columns' names, values as the list has them.
 * The first bytes go before the first row is read. `options`: the format, and the columns
 * asked for (all the list's when absent; 400 for one it lacks).
 */
export function sendExport<Row>(
  reply: FastifyReply,
  {
    name,
    columns: all,
    batches,
  }: { name: string; columns: ExportColumn<Row>[]; batches: AsyncIterable<Row[]> },
  options: { format: ExportFormat; columns?: string },
) {
  const { format } = options;
  const columns = chosenColumns(all, options.columns);
  async function* csv() {
    yield BYTE_ORDER_MARK + csvRecord(columns.map((column) => column.label));
    for await (const batch of batches) {
      yield batch
        .map((row) => csvRecord(columns.map((column) => asText(column.value(row)))))
        .join('');
    }
  }
  async function* json() {
    yield '[';
    let separator = '\n';
    for await (const batch of batches) {
      const objects = batch.map((row) =>
        JSON.stringify(
          Object.fromEntries(columns.map((column) => [column.name, column.value(row) ?? null])),
        ),
      );
      yield separator + objects.join(',\n');
      separator = ',\n';
    }
    yield separator === '\n' ? ']\n' : '\n]\n';
  }
  return reply
    .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}.${format}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(format === 'csv' ? csv() : json()));
}

/** The OpenAPI description of an export's answer: a stream the schema only documents. */
export const exportResponse = (what: string) => ({
  description: `${what}, as CSV or JSON`,
  content: {
    'text/csv': { schema: z.unknown().describe('CSV text (UTF-8 with BOM), a header line') },
    'application/json': { schema: z.unknown().describe('A JSON array of objects') },
  },
});

/**
 * An export route's compression (its `compress` option): as every answer's, but each write
 * (a batch, or the header line) flushed at once, so the first bytes leave before the first
 * batch is read and a slow export shows progress, instead of waiting in the compressor.
 */
export const exportCompression = {
  threshold: 0,
  encodings: ['gzip', 'br'] as ('gzip' | 'br')[],
  zlibOptions: { level: 3, flush: zlibConstants.Z_SYNC_FLUSH },
  brotliOptions: {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 3 },
    flush: zlibConstants.BROTLI_OPERATION_FLUSH,
  },
};
