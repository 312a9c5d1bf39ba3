import { type ChangeEvent, type FormEvent, useState } from 'react';
import type { ZodType } from 'zod';
import { errorMessage, reportError } from '@/api/errors';
import { type FieldErrors, fieldErrorsOf, zodFieldErrors } from '@/lib/fieldErrors';

interface CreateFormOptions<Values, Input> {
  initial: Values;
  /** Checked in the browser first: its messages show under the inputs, and nothing is sent. */
  schema: ZodType<unknown, Input>;
  /** What is sent: the values, plus anything the form keeps apart from its text inputs. */
  toInput?: (values: Values) => Input;
  send(input: Input): Promise<void>;
  /** The shared handler's context message when the server refuses (spec section 8). */
  errorContext: string;
}

/**
 * TODO(#12): replaced by react-hook-form + zodResolver + setServerErrors (see
 * BookFormPage); the role and user forms still use this.
 *
 * A create form's state and submit: text inputs bound by `field(name)`, the schema's
 * check before sending, and on refusal the server's field errors under their inputs and
 * its message above the form. Nothing typed is lost on failure.
 */
export function useCreateForm<Values extends Record<string, string>, Input = Values>({
  initial,
  schema,
  toInput = (values) => values as unknown as Input,
  send,
  errorContext,
}: CreateFormOptions<Values, Input>) {
  const [values, setValues] = useState(initial);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();

  const field = (name: keyof Values & string) => ({
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
    error: Boolean(fieldErrors[name]),
    helperText: fieldErrors[name],
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const input = toInput(values);
    const checked = schema.safeParse(input);
    setFieldErrors(checked.success ? {} : zodFieldErrors(checked.error));
    if (!checked.success) return;
    try {
      await send(input);
    } catch (error) {
      reportError(errorContext, error);
      setFieldErrors(fieldErrorsOf(error));
      setFailure(errorMessage(error));
    }
  }

  return { values, field, fieldErrors, failure, submit };
}
