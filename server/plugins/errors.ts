import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@common/errorCodes';
import { messages } from '@common/messages';
import type { ApiError, FieldError } from '@common/schemas/apiError';
import { AppError } from '../lib/errors';
import { conflictOf, unavailableOf } from '../lib/pgErrors';

function body(
  statusCode: number,
  code: ErrorCode,
  message: string,
  fields?: FieldError[],
  current?: unknown,
  count?: number,
  report?: unknown,
): ApiError {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    code,
    message,
    ...(fields ? { fields } : {}),
    ...(current === undefined ? {} : { current }),
    ...(count === undefined ? {} : { count }),
    ...(report === undefined ? {} : { report }),
  };
}

/**
 * The framework's own refusals by status, with fixed messages: Fastify's tell the content
 * type, the URL or the path they refused, and nothing of a request goes back.
 */
const frameworkRefusals: Record<number, { code: ErrorCode; message: string }> = {
  400: { code: 'MALFORMED_REQUEST', message: messages.server.malformedRequest },
  413: { code: 'PAYLOAD_TOO_LARGE', message: messages.server.payloadTooLarge },
  414: { code: 'URI_TOO_LONG', message: messages.server.uriTooLong },
  415: { code: 'UNSUPPORTED_MEDIA_TYPE', message: messages.server.unsupportedMediaType },
  431: { code: 'HEADERS_TOO_LARGE', message: messages.server.headersTooLarge },
};

/** A refusal of the framework (malformed JSON, too large a body, …), any 4xx as a 400. */
function frameworkRefusal(statusCode: number): ApiError {
  const status = frameworkRefusals[statusCode] ? statusCode : 400;
  const { code, message } = frameworkRefusals[status]!;
  return body(status, code, message);
}

type FieldIssue = FastifyError['validation'] extends (infer I)[] | undefined ? I : never;

/**
 * The field an issue names, as `<part>.<path>`. A bad record key names the record, not
 * the key: the key is what was refused, and it would travel back in the answer.
 */
function fieldError(context: string | undefined, issue: FieldIssue): FieldError {
  const path = issue.instancePath.split('/').filter(Boolean);
  const inner = (issue.params as { issues?: { message?: string }[] }).issues?.[0]?.message;
  if (issue.keyword === 'invalid_key') {
    return { field: [context, ...path.slice(0, -1)].join('.'), message: `has a key that ${inner}` };
  }
  return { field: [context, ...path].join('.'), message: issue.message ?? 'is invalid' };
}

/** What the error is, when it is one the API answers as itself (not a 500). */
const knownError = (error: FastifyError) =>
  error instanceof AppError ? error : (conflictOf(error) ?? unavailableOf(error));

/**
 * The one place that chooses an error's status and body. What a client may see:
 * validation failures (400, naming the fields), AppErrors, database conflicts (409 with
 * the code of the constraint, `lib/pgErrors.ts`), an unreachable database (503, with
 * Retry-After) and the framework's own refusals (fixed messages). Anything else is a 500
 * with a generic message.
 */
export function toApiError(error: FastifyError, known = knownError(error)): ApiError {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((issue) => fieldError(error.validationContext, issue));
    return body(
      400,
      'VALIDATION_FAILED',
      `${messages.server.invalidRequest}: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`,
      fields,
    );
  }
  if (known)
    return body(
      known.statusCode,
      known.code,
      known.message,
      known.fields,
      known.current,
      known.count,
      known.report,
    );
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500 && error.code?.startsWith('FST_')) {
    return frameworkRefusal(status);
  }
  return body(500, 'INTERNAL', messages.server.internal);
}

/** Sends every error as `{ statusCode, error, code, message }`; logs it without request values. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply: FastifyReply) => {
      const known = knownError(error);
      const apiError = toApiError(error, known);
      if (known) void reply.headers(known.headers);
      // The `err` serializer (lib/logSerializers.ts) keeps SQL, parameters and messages that
      // may quote the request out of the log.
      if (apiError.code === 'INTERNAL') request.log.error({ err: error }, 'Unhandled error');
      else request.log.info({ err: error }, `Answered ${apiError.statusCode} ${apiError.code}`);
      return reply.status(apiError.statusCode).send(apiError);
    });
  },
  { name: 'errors' },
);

/**
 * Fastify's `frameworkErrors`: the router's refusals before any route runs (a bad
 * percent-encoding in the path: 400; a path parameter longer than `maxParamLength`: 414).
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const apiError = frameworkRefusal(error.statusCode ?? 400);
  request.log.info({ err: error }, `Answered ${apiError.statusCode} ${apiError.code}`);
  void reply.status(apiError.statusCode).send(apiError);
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a
 * request. Headers (the request line included) past Node's limit answer 431, anything
 * else 400, in our error shape. A reset connection gets nothing, nor does a client too slow
 * to send its headers (Node's headersTimeout): no browser is waiting for that answer.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.destroy(error);
    return;
  }
  const apiError = frameworkRefusal(error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400);
  const json = JSON.stringify(apiError);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.statusCode} ${apiError.error}\r\nConnection: close\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}

export { body as apiErrorBody };
