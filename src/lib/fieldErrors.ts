import type { ZodError } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import { isApiError } from '@/api/errors';

/** A form's errors: the first message for each top-level field. */
export type FieldErrors = Record<string, string>;

/** The first problem with each field of a failed client-side check. */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/**
 * The field errors of a 400 answer, keyed by field name without the `body.` prefix, so a
 * form can show each one under its input.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  if (!isApiError(error)) return {};
  const body = apiErrorSchema.safeParse(error.data);
  const errors: FieldErrors = {};
  for (const { field, message } of body.data?.fields ?? []) {
    errors[field.replace(/^body\./, '').split('.')[0]!] ??= message;
  }
  return errors;
}
