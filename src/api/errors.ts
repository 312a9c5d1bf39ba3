import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ErrorCode } from '@common/errorCodes';
import { messages } from '@common/messages';
import { localiseServerText } from '@/i18n/serverTexts';
import { t } from '@/i18n/useT';
import { type ApiError, apiErrorSchema, type FieldError } from '@common/schemas/apiError';

/** The code of the base query's own duplicate-request rejection (not a server code). */
export const REQUEST_CANCELED = 'REQUEST_CANCELED';

/** An error RTK Query returned for a request (as opposed to a thrown bug). */
export function isApiError(error: unknown): error is FetchBaseQueryError {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/** The duplicate-request rejection 'Request canceled' (spec section 4), as the base query makes it. */
export const requestCanceledError = (): FetchBaseQueryError => ({
  status: 'CUSTOM_ERROR',
  error: messages.requestCanceled,
  data: { code: REQUEST_CANCELED },
});

/** True for the duplicate-request rejection, which callers may ignore. */
export function isRequestCanceled(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 'CUSTOM_ERROR' &&
    (error.data as { code?: unknown } | undefined)?.code === REQUEST_CANCELED
  );
}

/** The API's error body of a failed request, when it sent one in the contract's shape. */
export function apiErrorBody(error: unknown): ApiError | undefined {
  if (!isApiError(error)) return undefined;
  const body = apiErrorSchema.safeParse(error.data);
  return body.success ? body.data : undefined;
}

/**
 * The `code` of an API error (`common/errorCodes.ts`), or undefined for anything else
 * (network failure, a body outside the contract, a thrown bug). Branch on this, never on
 * the message, which may be reworded.
 * @example if (errorCode(error) === 'NAME_TAKEN') setError('name', …)
 */
export function errorCode(error: unknown): ErrorCode | undefined {
  return apiErrorBody(error)?.code;
}

/** `body.email` → `email`, `body.fields.0.name` → `fields.0.name`: the path in the form. */
export const formPath = (field: string) => field.replace(/^(body|query|params)\./, '');

/** The fields a 400 VALIDATION_FAILED names, with paths as the form knows them. */
export function fieldErrors(error: unknown): FieldError[] {
  return (apiErrorBody(error)?.fields ?? []).map(({ field, message }) => ({
    field: formPath(field),
    message: localiseServerText(message),
  }));
}

/** The items a 409 BULK_REFUSED names, each with why it was refused (none for other errors). */
export function refusedItems(error: unknown): { id: string; message: string }[] {
  const body = apiErrorBody(error);
  if (body?.code !== 'BULK_REFUSED') return [];
  const items = (body.report as { items?: unknown } | undefined)?.items;
  return Array.isArray(items)
    ? items
        .filter(
          (item): item is { id: string; message: string } =>
            typeof item?.id === 'string' && typeof item?.message === 'string',
        )
        .map((item) => ({ ...item, message: localiseServerText(item.message) }))
    : [];
}

/** `fields.0.name` → `Fields 1 name`, `perPage` → `Per page`: a field as a person reads it. */
function fieldLabel(path: string): string {
  const words = path
    .split('.')
    .map((part) => (/^\d+$/.test(part) ? String(Number(part) + 1) : part))
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A readable sentence for a 400's fields, e.g. 'Email must be a valid email address.'
 * (the server's own text names request paths: 'body.email must be …').
 */
export function validationSentence(fields: FieldError[]): string {
  if (fields.length === 0) return t('common.checkInput');
  return fields
    .map(({ field, message }) =>
      t('validation.sentence', {
        field: fieldLabel(formPath(field)),
        message: localiseServerText(message),
      }),
    )
    .join('. ')
    .concat('.');
}

/** A sentence for a person: what the server said (made readable), else a fitting default. */
export function errorMessage(error: FetchBaseQueryError | SerializedError | unknown): string {
  const body = apiErrorBody(error);
  if (body?.code === 'VALIDATION_FAILED') return validationSentence(body.fields ?? []);
  if (body?.code === 'BULK_REFUSED') {
    // Why, in a few words: the reasons the items were refused for (a page may name each).
    const reasons = [...new Set(refusedItems(error).map((item) => item.message))];
    const said = localiseServerText(body.message);
    return reasons.length ? `${said} (${reasons.slice(0, 3).join('; ')})` : said;
  }
  if (body) return localiseServerText(body.message);
  // fetch's own failures, in the browser's words (`TypeError: Failed to fetch`): the page's.
  if (isApiError(error) && error.status === 'FETCH_ERROR') return t('errors.unreachable');
  if (isApiError(error) && error.status === 'PARSING_ERROR') return t('errors.unreadable');
  if (isApiError(error) && 'error' in error) return String(error.error);
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String((error as SerializedError).message);
  }
  return t('toast.notAllowed');
}

/** Codes whose message tells the person what to change: the toast says it. */
const SAYS_WHAT_TO_DO = new Set<ErrorCode>([
  'VALIDATION_FAILED',
  'MALFORMED_REQUEST',
  'ADMIN_PROTECTED',
  'EMAIL_TAKEN',
  'USERNAME_TAKEN',
  'NAME_TAKEN',
  'ID_TAKEN',
  'LAST_ADMIN',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'NOT_UNIQUE',
  'BULK_REFUSED',
  'REFERENCED',
  'DEFINITION_CONFLICT',
]);

/** The toast a failed request shows (spec section 8), or undefined for one to stay quiet about. */
export function toastForError(error: FetchBaseQueryError): string | undefined {
  if (isRequestCanceled(error)) return undefined;
  if (errorCode(error) === 'VERSION_CONFLICT') return t('toast.versionConflict');
  // The spec's toasts, word for word, for the statuses it names.
  if (error.status === 401) return t('toast.sessionExpired');
  if (error.status === 403) return t('toast.notAllowed');
  if (error.status === 404) return t('toast.notFound');
  const code = errorCode(error);
  if (code && SAYS_WHAT_TO_DO.has(code)) return errorMessage(error);
  // Everything else gets the spec's catch-all; where it would mislead (the book lookup
  // down: BOOK_LOOKUP_UNAVAILABLE), the page also says what happened (errorMessage).
  return t('toast.notAllowed');
}

/**
 * The shared error handler of spec section 8: logs the context message with the error,
 * for the developer console. The toast has already been shown by the base query.
 */
export function reportError(context: string, error: unknown): void {
  if (isRequestCanceled(error)) return;
  console.error(context, error);
}

/** The item a 409 VERSION_CONFLICT carries as it is now, or undefined for any other failure. */
export function conflictCurrent<Item>(error: unknown): Item | undefined {
  return errorCode(error) === 'VERSION_CONFLICT'
    ? (apiErrorBody(error)?.current as Item | undefined)
    : undefined;
}
