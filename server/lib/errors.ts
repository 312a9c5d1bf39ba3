import type { FieldError } from '@common/schemas/apiError';

/**
 * An error the client may see: its status and message are sent as they are.
 * Services throw these; `plugins/errors.ts` turns them into the wire body.
 */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly statusCode: number,
    message: string,
    readonly fields?: FieldError[],
    options?: ErrorOptions & { headers?: Record<string, string> },
  ) {
    super(message, options);
    this.headers = options?.headers ?? {};
  }

  /** Response headers that go with the error (e.g. Retry-After). */
  readonly headers: Record<string, string>;
}

export const notFound = (what: string) => new AppError(404, `${what} not found`);
export const conflict = (message: string) => new AppError(409, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const badRequest = (message: string, fields?: FieldError[]) =>
  new AppError(400, message, fields);
