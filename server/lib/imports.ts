import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { z } from 'zod';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '@common/messages';
import {
  IMPORT_MAX_BYTES,
  IMPORT_PROBLEMS_MAX,
  type ImportLine,
  type ImportProblem,
  type ImportQuery,
  type ImportReport,
} from '@common/schemas/imports';
import type { Db, Tx } from '../db/client';
import { apiErrorSchema } from '@common/schemas/apiError';
import { toApiError } from '../plugins/errors';
import { AppError, badRequest, forbidden } from './errors';

/** An import route's answers, as the OpenAPI document describes them. */
export const importResponses = {
  200: z
    .string()
    .describe(
      'Newline-delimited JSON: {type: progress, rows} per batch, then {type: report} or {type: error}',
    ),
  ...Object.fromEntries([400, 403, 404, 409, 413, 415].map((status) => [status, apiErrorSchema])),
};

/** How many rows each step of an import reads, checks and writes together. */
export const IMPORT_BATCH = 1000;

/** The column that names an item by its id (an upsert: a known id changes its item). */
export const ID_COLUMN = '_id';

/** A row of the file as an import reads it: its line, and its cells. */
export interface CsvRow {
  line: number;
  cells: string[];
}

/** Told of each refused row: its line, the field (or column) and why. */
export type Refuse = (problem: ImportProblem) => void;

/** What one kind of item's import does with the file, within the import's transaction. */
export interface Importer {
  /** The file's columns as fields (ID_COLUMN, a field's name, or '' to skip each). */
  columns: string[];
  /**
   * Checks a batch of rows, refusing those at fault, and writes the others when `write`
   * (an all-or-nothing import already refused only checks); answers what it wrote.
   */
  batch(
    rows: CsvRow[],
    refuse: Refuse,
    write: boolean,
  ): Promise<{ created: number; updated: number }>;
  /** The import's one audit event, once it is to be kept. */
  audit(report: ImportReport): Promise<void>;
}

/** 400 MALFORMED_REQUEST: the file itself cannot be imported (not CSV, empty). */
const unreadable = (message: string) => new AppError(400, 'MALFORMED_REQUEST', message);

/** Thrown to undo an import's transaction (a dry run, or an all-or-nothing one refused). */
class Undone extends Error {}

const normalised = (text: string) => text.trim().toLowerCase();

/**
 * What each column of the file holds: `columns` as the client mapped them (a field's name,
 * `_id`, or empty to skip), else the headers matched to fields by name or label.
 * @throws 400 for a mapping that names no field, an unknown one, or one twice.
 */
export function mapColumns(
  fields: readonly { name: string; label: string }[],
  headers: string[],
  columns: string | undefined,
  what: string,
): string[] {
  const names = new Set([ID_COLUMN, ...fields.map((field) => field.name)]);
  const mapped =
    columns !== undefined
      ? columns.split(',').map((name) => name.trim())
      : headers.map((header) => {
          const wanted = normalised(header);
          // A column with no heading is no field's, whatever has no label.
          if (wanted === '') return '';
          const field = fields.find(
            (f) => normalised(f.name) === wanted || (f.label && normalised(f.label) === wanted),
          );
          // `_id`, or the export's `ID` heading (unless a field is named so).
          if (!field && (wanted === ID_COLUMN || wanted === 'id')) return ID_COLUMN;
          return field?.name ?? '';
        });
  const refuse = (message: string) =>
    badRequest(message, [{ field: 'querystring.columns', message }]);
  const unknown = mapped.filter((name) => name && !names.has(name));
  if (unknown.length) throw refuse(`names no field of ${what}: ${unknown.join(', ')}`);
  const chosen = mapped.filter(Boolean);
  if (chosen.every((name) => name === ID_COLUMN))
    throw refuse('matches no field: name the columns by field name or label, or map them');
  if (new Set(chosen).size !== chosen.length) throw refuse('maps a field to two columns');
  if (mapped.length > headers.length) throw refuse('maps more columns than the file has');
  return mapped;
}

/** The longest row a file may have (a quote never closed would otherwise read it all). */
const ROW_MAX_CHARACTERS = 1024 * 1024;

/** Why a file is not CSV, by the parser's code (its own texts count lines differently). */
const CSV_FAULTS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quote is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a quote closes in the middle of a field',
  INVALID_OPENING_QUOTE: 'a quote opens in the middle of a field',
  CSV_MAX_RECORD_SIZE: 'a row is longer than 1 MB (a quote never closed?)',
};

/**
 * A CSV file read a record at a time (RFC 4180, a byte-order mark dropped, blank lines
 * skipped), each with the line it starts on: counted here from each record's raw text,
 * since the parser's own count is where a record ends and counts a CRLF inside quotes twice.
 */
function openCsv(file: string) {
  const source = createReadStream(file);
  // A fault is noted where the parser meets it (it reads ahead), and told once the rows
  // before it are read: its line is then known.
  let fault: { code: string; before: number } | undefined;
  const parser = parse({
    bom: true,
    relax_column_count: true,
    raw: true,
    max_record_size: ROW_MAX_CHARACTERS,
    skip_records_with_error: true,
    on_skip: (error) => {
      fault ??= { code: String(error?.code ?? ''), before: Number(error?.records ?? 0) };
    },
  });
  // A stop midway (a refusal, a fault) closes the file too; errors reach `next` below.
  void pipeline(source, parser).catch(() => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{
    record: string[];
    raw: string;
  }>;
  let line = 1;
  let read = 0;
  const faulty = (code: string) =>
    unreadable(
      `The file is not valid CSV from line ${line}: ${CSV_FAULTS[code] ?? 'it cannot be read as CSV'}`,
    );
  return {
    /** The next row. @throws 400 naming the line where the CSV breaks. */
    async next(): Promise<CsvRow | undefined> {
      for (;;) {
        if (fault && read === fault.before) throw faulty(fault.code);
        let next: IteratorResult<{ record: string[]; raw: string }>;
        try {
          next = await records.next();
        } catch (error) {
          const { code } = error as { code?: unknown };
          if (typeof code !== 'string' || !code.startsWith('CSV_')) throw error;
          throw faulty(code);
        }
        if (next.done) {
          if (fault) throw faulty(fault.code);
          return undefined;
        }
        read++;
        const { record, raw } = next.value;
        const start = line;
        line += raw.match(/\r\n|\r|\n/g)?.length ?? 0;
        if (record.length === 1 && record[0] === '') continue;
        return { line: start, cells: record };
      }
    },
    close: () => {
      parser.destroy();
      source.destroy();
    },
  };
}

/**
 * Runs an import of a CSV file (its first row the headers) in one transaction: `open`
 * reads what it needs and maps the headers (its refusals come before `started`), then the
 * rows go to its `batch` IMPORT_BATCH at a time, and `progress` hears how many were read.
 * A dry run, and an all-or-nothing import (`mode` all) with a refused row, are undone;
 * otherwise the import's audit event is written and it commits.
 * @throws 400 for an empty file, what `open` throws, a file that is not CSV; database faults.
 */
export async function runImport(
  db: Db,
  file: string,
  options: ImportQuery,
  { started, progress, stopped }: ImportProgress,
  open: (tx: Tx, headers: string[]) => Promise<Importer>,
): Promise<ImportReport> {
  const csv = openCsv(file);
  const report: ImportReport = {
    dryRun: options.dryRun,
    mode: options.mode,
    columns: [],
    rows: 0,
    created: 0,
    updated: 0,
    refused: 0,
    committed: false,
    problems: [],
    problemsTruncated: false,
  };
  // Refusals come from the batch at hand: its refused lines are counted with it.
  let refusedInBatch = new Set<number>();
  const refuse: Refuse = (problem) => {
    refusedInBatch.add(problem.line);
    if (report.problems.length < IMPORT_PROBLEMS_MAX) report.problems.push(problem);
    else report.problemsTruncated = true;
  };
  try {
    await db.transaction(async (tx) => {
      const first = await csv.next();
      if (!first) throw unreadable('The file is empty: its first row must name the columns');
      const importer = await open(tx, first.cells);
      report.columns = importer.columns;
      started(importer.columns);
      let batch: CsvRow[] = [];
      // Rows of another width than the headings: refused here, counted with their batch.
      let misshapen = 0;
      const flush = async () => {
        // The client gone (the page left, Stop): undone, as a refused import.
        if (stopped?.()) throw new AppError(499, 'IMPORT_STOPPED', messages.server.importStopped);
        // Once an all-or-nothing import is refused, the rest is only checked.
        const write = options.dryRun || options.mode === 'valid' || report.refused === 0;
        const written = await importer.batch(batch, refuse, write);
        report.created += written.created;
        report.updated += written.updated;
        report.refused += refusedInBatch.size;
        refusedInBatch = new Set();
        report.rows += batch.length + misshapen;
        batch = [];
        misshapen = 0;
        progress(report.rows);
      };
      const width = first.cells.length;
      for (let row = await csv.next(); row; row = await csv.next()) {
        if (row.cells.length === width) batch.push(row);
        else {
          misshapen++;
          refuse({
            line: row.line,
            field: '',
            message: messages.server.rowWidth(row.cells.length, width),
          });
        }
        if (batch.length + misshapen === IMPORT_BATCH) await flush();
      }
      if (batch.length + misshapen > 0) await flush();
      if (report.rows === 0) throw unreadable('The file has no rows under its headings');
      if (options.dryRun || (options.mode === 'all' && report.refused > 0)) throw new Undone();
      await importer.audit(report);
      report.committed = true;
    });
  } catch (error) {
    if (!(error instanceof Undone)) throw error;
  } finally {
    csv.close();
  }
  // By line: a batch the database refuses names its rows after the others' checks.
  report.problems.sort((a, b) => a.line - b.line);
  // A refused all-or-nothing import wrote nothing (a dry run says what it would have).
  if (!report.committed && !options.dryRun) Object.assign(report, { created: 0, updated: 0 });
  return report;
}

/**
 * What an import tells as it goes (the file's columns once read, then rows read so far),
 * and what it asks before each batch: whether whoever asked for it has gone.
 */
export interface ImportProgress {
  started(columns: string[]): void;
  progress(rows: number): void;
  stopped?(): boolean;
}

/**
 * Saves an upload to a file of its own, refusing one past IMPORT_MAX_BYTES (413): the
 * upload then ends at once (the browser sends its whole body before it reads an answer),
 * and the import reads the file at its own pace with flat memory.
 */
async function spooled(body: Readable): Promise<string> {
  const file = join(tmpdir(), `import-${randomUUID()}.csv`);
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > IMPORT_MAX_BYTES)
        done(new AppError(413, 'PAYLOAD_TOO_LARGE', messages.server.payloadTooLarge));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(body, counted, createWriteStream(file));
    return file;
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}

const line = (value: ImportLine) => `${JSON.stringify(value)}\n`;

/**
 * Runs an import of the request's CSV body and answers it as newline-delimited JSON: a
 * `progress` line per batch, then the `report` (or an `error`, nothing written). What
 * stops the import before its columns are read (a bad mapping, an unknown entity, a column
 * of ids from someone who may not call `changes` on one item) is an ordinary error answer.
 * The import is told when its client has gone (the page left, Stop).
 */
export async function sendImport(
  request: FastifyRequest,
  reply: FastifyReply,
  changes: { verb: string; path: string },
  run: (file: string, progress: ImportProgress) => Promise<ImportReport>,
) {
  if (!(request.body instanceof Readable))
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', messages.server.unsupportedMediaType);
  // A column of ids changes the items it names: the right to change one is needed too.
  const mayChange = request.server.mayRequest(request, changes.verb, changes.path);
  const file = await spooled(request.body);
  const out = new PassThrough();
  let began!: () => void;
  let failed!: (error: unknown) => void;
  const started = new Promise<void>((resolve, reject) => {
    began = resolve;
    failed = reject;
  });
  // Whoever asked has gone (the page left, Stop) once the connection closes unanswered.
  let gone = false;
  reply.raw.on('close', () => {
    gone = !reply.raw.writableFinished;
  });
  void run(file, {
    started: (columns) => {
      if (columns.includes(ID_COLUMN) && !mayChange) throw forbidden(messages.server.forbidden);
      began();
    },
    progress: (rows) => out.write(line({ type: 'progress', rows })),
    stopped: () => gone,
  })
    .then((report) => out.end(line({ type: 'report', report })))
    .catch((error: unknown) => {
      failed(error);
      const body = toApiError(error as FastifyError);
      if (body.statusCode >= 500) request.log.error({ err: error }, 'import failed');
      out.end(line({ type: 'error', error: body }));
    })
    .finally(() => void rm(file, { force: true }));
  await started;
  return reply.type('application/x-ndjson').send(out);
}
