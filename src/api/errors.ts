import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import { messages } from '@common/messages';
import { apiErrorSchema } from '@common/schemas/apiError';

/** An error RTK Query returned for a request (as opposed to a thrown bug). */
export function isApiError(error: unknown): error is FetchBaseQueryError {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/** True for the duplicate-request rejection, which callers may ignore. */
export function isRequestCanceled(error: unknown): boolean {
  return (
    isApiError(error) && error.status === 'CUSTOM_ERROR' && error.error === messages.requestCanceled
  );
}

/** A sentence for a person: the server's message when it sent one, else a fitting default. */
export function errorMessage(error: FetchBaseQueryError | SerializedError | unknown): string {
  if (isApiError(error)) {
    const body = apiErrorSchema.safeParse(error.data);
    if (body.success) return body.data.message;
    if ('error' in error) return String(error.error);
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    return String((error as SerializedError).message);
  }
  return messages.toast.notAllowed;
}

/** The toast a failed request shows (spec section 8), or undefined for one to stay quiet about. */
export function toastForError(error: FetchBaseQueryError): string | undefined {
  if (isRequestCanceled(error)) return undefined;
  switch (error.status) {
    case 401:
      return messages.toast.sessionExpired;
    case 403:
      return messages.toast.notAllowed;
    case 404:
      return messages.toast.notFound;
    // Bad input and conflicts: the server's own message tells the person what to fix.
    case 400:
    case 409:
    case 422:
    case 429:
      return errorMessage(error);
    default:
      return messages.toast.notAllowed;
  }
}

/**
 * The shared error handler of spec section 8: logs the context message with the error,
 * for the developer console. The toast has already been shown by the base query.
 */
export function reportError(context: string, error: unknown): void {
  if (isRequestCanceled(error)) return;
  console.error(context, error);
}
