import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { errorCode, errorMessage, fieldErrors } from '@/api/errors';

/**
 * Puts a refused request's errors on a react-hook-form form: each field a 400 names
 * (`body.title` → `title`) under its input via `setError`, and whatever names no input
 * of the form, or any other refusal, as `root.server` (show it above the form).
 * @example
 * const onSubmit = form.handleSubmit(async (values) => {
 *   try { await createBook(values).unwrap(); }
 *   catch (error) { reportError(context, error); setServerErrors(form.setError, error, values); }
 * });
 * … <Alert>{form.formState.errors.root?.server?.message}</Alert>
 */
export function setServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  values: T,
): void {
  const named = errorCode(error) === 'VALIDATION_FAILED' ? fieldErrors(error) : [];
  const onForm = named.filter(({ field }) => field.split('.')[0]! in values);
  for (const { field, message } of onForm) {
    setError(field as FieldPath<T>, { type: 'server', message }, { shouldFocus: true });
  }
  if (onForm.length === 0 || onForm.length < named.length) {
    setError('root.server', { type: 'server', message: errorMessage(error) });
  }
}
