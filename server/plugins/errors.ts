import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorCode } from '@common/errorCodes';
import { messages } from '@common/messages';
import type { ApiError, FieldError } from '@common/schemas/apiError';
import { AppError } from '../lib/errors';
import { pgErrorCode } from '../lib/pgErrors';

function body(
  statusCode: number,
  code: ErrorCode,
  message: string,
  fields?: FieldError[],
): ApiError {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    code,
    message,
    ...(fields ? { fields } : {}),
  };
}

/** PostgreSQL error codes that mean the client asked for something impossible, not a bug. */
const pgConflictCodes = new Set(['23505', '23503']);

/**
 * The one place that chooses an error's status and body. What a client may see:
 * validation failures (400, naming the fields), AppErrors, the framework's own 4xx
 * (malformed JSON, too large a body) and database conflicts (409). Anything else is a
 * 500 with a generic message; its details go to the log only.
 */
function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((issue) => ({
      field: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
      message: issue.message ?? 'is invalid',
    }));
    return body(
      400,
      'VALIDATION_FAILED',
      `${messages.server.invalidRequest}: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}`,
      fields,
    );
  }
  if (error instanceof AppError)
    return body(error.statusCode, error.code, error.message, error.fields);
  if (pgConflictCodes.has(pgErrorCode(error) ?? '')) {
    return body(409, 'CONFLICT', 'This conflicts with existing data');
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500 && error.code?.startsWith('FST_')) {
    return body(status, 'MALFORMED_REQUEST', error.message);
  }
  request.log.error({ err: error }, 'Unhandled error');
  return body(500, 'INTERNAL', messages.server.internal);
}

/** Sends every error as `{ statusCode, error, code, message }`. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply: FastifyReply) => {
      const apiError = toApiError(error, request);
      if (error instanceof AppError) void reply.headers(error.headers);
      if (apiError.statusCode < 500) request.log.info({ err: error }, apiError.message);
      return reply.status(apiError.statusCode).send(apiError);
    });
  },
  { name: 'errors' },
);

export { body as apiErrorBody };
