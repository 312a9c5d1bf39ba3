import type { ZodError } from 'zod';
import { fieldErrors } from '@/api/errors';

/** A form's errors: the first message for each top-level field. */
export type FieldErrors = Record<string, string>;

/** The first problem with each field of a failed client-side check. */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

/**
 * The field errors of a 400 answer by top-level field, for the forms still on
 * useCreateForm. TODO(#12): move them to react-hook-form (setServerErrors), like BookFormPage.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  const errors: FieldErrors = {};
  for (const { field, message } of fieldErrors(error)) errors[field.split('.')[0]!] ??= message;
  return errors;
}
