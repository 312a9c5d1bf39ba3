import type { ErrorCode } from '@common/errorCodes';
import { messages } from '@common/messages';
import type { FieldError } from '@common/schemas/apiError';

interface AppErrorOptions extends ErrorOptions {
  /** The fields at fault (400s). */
  fields?: FieldError[];
  /** VERSION_CONFLICT: the item as it is now. */
  current?: unknown;
  /** REFERENCED: how many records still point at the item. */
  count?: number;
  /** DEFINITION_CONFLICT: the records that cannot follow the change. */
  report?: unknown;
  /** Response headers that go with the error (e.g. Retry-After). */
  headers?: Record<string, string>;
}

/**
 * An error the client may see: its status, code and message are sent as they are.
 * Services throw these; `plugins/errors.ts` turns them into the wire body.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly fields?: FieldError[];
  readonly current?: unknown;
  readonly count?: number;
  readonly report?: unknown;
  readonly headers: Record<string, string>;

  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    { fields, current, count, report, headers = {}, ...options }: AppErrorOptions = {},
  ) {
    super(message, options);
    this.fields = fields;
    this.current = current;
    this.count = count;
    this.report = report;
    this.headers = headers;
  }
}

export const notFound = (what: string) => new AppError(404, 'NOT_FOUND', `${what} not found`);
export const conflict = (code: ErrorCode, message: string) => new AppError(409, code, message);
export const unauthorized = (code: ErrorCode, message: string) => new AppError(401, code, message);
export const forbidden = (message: string) => new AppError(403, 'FORBIDDEN', message);
export const badRequest = (message: string, fields?: FieldError[]) =>
  new AppError(400, 'VALIDATION_FAILED', message, { fields });
/** The admin user, the admin role and the admins' hold on the routes screen stay. */
export const adminProtected = (message: string) => new AppError(400, 'ADMIN_PROTECTED', message);

/** An item a bulk action refused, and why. */
export interface RefusedItem {
  id: string;
  code: ErrorCode;
  message: string;
}

/** 409 BULK_REFUSED: nothing changed, and `report.items` says which items and why. */
export const bulkRefused = (items: RefusedItem[]) =>
  new AppError(409, 'BULK_REFUSED', messages.server.bulkRefused(items.length), {
    report: { items },
  });
