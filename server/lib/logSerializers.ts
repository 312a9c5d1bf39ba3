import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { pgErrorFacts } from './pgErrors';

/** Only the stack's frames: its first lines repeat the message. */
const stackFrames = (error: Error) =>
  (error.stack ?? '')
    .split('\n')
    .filter((line) => line.startsWith('    at '))
    .join('\n');

/** An error as logged; `type`, `message` and `stack` as pino's own serializer has them. */
interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
}

/**
 * What the log may hold of an error (DESIGN: no SQL text, parameter or request value in a
 * log line):
 * - a database error: its class, PostgreSQL code and the names of what refused it, never
 *   its message (drizzle's is "Failed query: <SQL> params: <values>", PostgreSQL's may
 *   quote a value);
 * - a refused request (a 4xx: validation, AppError, the framework's): class, code and
 *   status, since its message may quote the request;
 * - any other fault: class, message, stack and cause, to find the bug by.
 */
export function errorForLog(error: unknown): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const type = error.constructor.name;
  const db = pgErrorFacts(error);
  if (db || error instanceof DrizzleQueryError) {
    const code = db?.code ?? 'unknown';
    return { type, message: `Database error ${code}`, ...db, stack: stackFrames(error) };
  }
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  if (typeof statusCode === 'number' && statusCode < 500) {
    return { type, message: `Refused with ${statusCode}`, code, statusCode, stack: '' };
  }
  return {
    type,
    message: error.message,
    code,
    statusCode,
    stack: error.stack ?? '',
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
