import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '@common/messages';
import { IMPORT_MAX_BYTES, type ImportLine, type ImportReport } from '@common/schemas/imports';
import { toApiError } from '../plugins/errors';
import { AppError } from './errors';

/** What an import tells as it goes: the file's columns once read, then rows read so far. */
export interface ImportProgress {
  started(columns: string[]): void;
  progress(rows: number): void;
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
 * stops the import before its columns are read (a bad mapping, an unknown entity) is an
 * ordinary error answer.
 */
export async function sendImport(
  request: FastifyRequest,
  reply: FastifyReply,
  run: (file: string, progress: ImportProgress) => Promise<ImportReport>,
) {
  if (!(request.body instanceof Readable))
    throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', messages.server.unsupportedMediaType);
  const file = await spooled(request.body);
  const out = new PassThrough();
  let began!: () => void;
  let failed!: (error: unknown) => void;
  const started = new Promise<void>((resolve, reject) => {
    began = resolve;
    failed = reject;
  });
  void run(file, {
    started: () => began(),
    progress: (rows) => out.write(line({ type: 'progress', rows })),
  })
    .then((report) => out.end(line({ type: 'report', report })))
    .catch((error: unknown) => {
      failed(error);
      const { statusCode, code, message } = toApiError(error as FastifyError);
      if (statusCode >= 500) request.log.error({ err: error }, 'import failed');
      out.end(line({ type: 'error', error: { statusCode, code, message } }));
    })
    .finally(() => void rm(file, { force: true }));
  await started;
  return reply.type('application/x-ndjson').send(out);
}
