import { type FieldPath, type FieldValues, get, type UseFormReturn } from 'react-hook-form';
import type { ErrorCode } from '@common/errorCodes';
import { apiErrorBody, fieldErrors } from '@/api/errors';
import { localiseServerText } from '@/i18n/serverTexts';

/**
 * Where a form shows a refusal that names no field (a 409 `EMAIL_TAKEN`, a 401
 * `INVALID_CREDENTIALS`…), by its code: under `field`, or in the form's alert when there is
 * no `field`; with `message` instead of the server's own.
 */
export type CodePlaces<Values extends FieldValues> = Partial<
  Record<ErrorCode, { field?: FieldPath<Values>; message?: string }>
>;

/** The form's alert: the server's errors that belong to no input. */
export const FORM_ALERT = 'root.server';

type FormErrorTarget<Values extends FieldValues> = Pick<
  UseFormReturn<Values, unknown, unknown>,
  'setError' | 'getValues'
>;

/**
 * Shows a failed request's error in a react-hook-form form, where it belongs: the fields
 * a 400 names under their inputs (`body.email` → `email`, `body.fields.0.name` →
 * `fields.0.name` of a field array), and a code listed in `codes` under its input or in
 * the form's alert (`errors.root.server`). Answers true when the error has been shown
 * completely this way; false leaves it to the caller (a 500, a field the form has no
 * input for, a code not listed), which usually puts `errorMessage(error)` in the alert.
 *
 * @example
 * if (!setServerErrors(error, form, { NAME_TAKEN: { field: 'name' } })) {
 *   form.setError(FORM_ALERT, { message: errorMessage(error) });
 * }
 */
export function setServerErrors<Values extends FieldValues>(
  error: unknown,
  form: FormErrorTarget<Values>,
  codes: CodePlaces<Values> = {},
): boolean {
  const body = apiErrorBody(error);
  if (!body) return false;

  const place = body.code !== 'VALIDATION_FAILED' ? codes[body.code] : undefined;
  if (place) {
    const message = place.message ?? localiseServerText(body.message);
    if (place.field) form.setError(place.field, { type: 'server', message }, { shouldFocus: true });
    else form.setError(FORM_ALERT, { type: 'server', message });
    return true;
  }

  const fields = fieldErrors(error);
  if (fields.length === 0) return false;
  // Only paths the form holds a value for are inputs; `body` itself, or a field this form
  // does not show, stays with the caller (its message names them all).
  const values = form.getValues();
  const placeable = fields.filter(({ field }) => get(values, field) !== undefined);
  placeable.forEach(({ field, message }, index) =>
    form.setError(
      field as FieldPath<Values>,
      { type: 'server', message },
      { shouldFocus: index === 0 },
    ),
  );
  return placeable.length === fields.length;
}
