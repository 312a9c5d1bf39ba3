import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { pgErrorFacts, unavailableOf } from './pgErrors';

/**
 * A stack without the machine's file paths: a path under the working directory is told from
 * there (`dist/server/main.js:12:3`, `node_modules/pg/lib/client.js:5:9`), any other by its
 * file name alone. Node's own frames (`node:internal/…`) stay as they are.
 */
const withoutPaths = (text: string) => {
  const root = `${process.cwd()}/`;
  return text.replace(
    /(^|[\s('"])(?:file:\/\/)?(\/[^\s():'"]+)/gm,
    (_, before: string, file: string) =>
      `${before}${file.startsWith(root) ? file.slice(root.length) : file.slice(file.lastIndexOf('/') + 1)}`,
  );
};

/** Only the stack's frames: its first lines repeat the message. */
const stackFrames = (error: Error) =>
  withoutPaths(
    (error.stack ?? '')
      .split('\n')
      .filter((line) => line.startsWith('    at '))
      .join('\n'),
  );

/** An error as logged; `type`, `message` and `stack` as pino's own serializer has them. */
interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/**
 * What the log may hold of an error (DESIGN: no SQL text, parameter or request value in a
 * log line; no file path of the machine):
 * - an expected refusal (an AppError of any status, any other 4xx, a database that cannot be
 *   reached): one line of class, code and status, no stack (anyone can cause these, and a
 *   stack each would flood the log), never its message, which may quote the request;
 * - a database error: its class, PostgreSQL code and the names of what refused it, never
 *   its message (drizzle's is "Failed query: <SQL> params: <values>", PostgreSQL's may
 *   quote a value), with its stack;
 * - any other fault: class, message, stack and cause, to find the bug by.
 */
export function errorForLog(error: unknown): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const type = error.constructor.name;
  if (error instanceof AppError) {
    const { code, statusCode } = error;
    return { type, message: `Refused with ${statusCode}`, code, statusCode, stack: '' };
  }
  const unavailable = unavailableOf(error);
  if (unavailable) {
    // What could not be reached (a host and port) is what an operator needs; no stack.
    const { code, statusCode } = unavailable;
    return { type, message: withoutPaths(error.message), code, statusCode, stack: '' };
  }
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof statusCode === 'number' && statusCode < 500) {
    return { type, message: `Refused with ${statusCode}`, code, statusCode, stack: '' };
  }
  const db = pgErrorFacts(error);
  if (db || error instanceof DrizzleQueryError) {
    return {
      type,
      message: `Database error ${db?.code ?? 'unknown'}`,
      ...db,
      stack: stackFrames(error),
    };
  }
  return {
    type,
    message: withoutPaths(error.message),
    code,
    statusCode,
    stack: withoutPaths(error.stack ?? ''),
    ...(error.cause === undefined ? {} : { cause: errorForLog(error.cause) }),
  };
}

/**
 * The request as the log shows it: the path without its query string (it may carry
 * tokens, codes and search text).
 */
export const requestForLog = (request: FastifyRequest) => ({
  method: request.method,
  path: request.url.split('?')[0],
  remoteAddress: request.ip,
});

/** The logger's serializers for requests and errors (`err`, as Fastify and pino log it). */
export const logSerializers = { req: requestForLog, err: errorForLog };
