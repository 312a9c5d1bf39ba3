import { zodResolver } from '@hookform/resolvers/zod';
import { type FormEvent, useEffect, useRef } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage, reportError } from '@/api/errors';
import { type CodePlaces, FORM_ALERT, setServerErrors } from '@/lib/formErrors';
import { localiseServerText } from '@/i18n/serverTexts';
import { useAppSelector } from '@/lib/store';
import { selectLocale } from '@/ui/ui.slice';

interface SchemaFormOptions<Values extends FieldValues> {
  defaultValues: DefaultValues<Values>;
  /** The shared handler's context message (spec section 8), logged when a request fails. */
  errorContext?: string;
  /** Where refusals that name no field go, by code (see `setServerErrors`). */
  codes?: CodePlaces<Values>;
  /**
   * The alert's text for a failure; `placed` is true when the failure already shows under
   * the inputs. Undefined shows no alert. By default: the error's message, unless placed.
   */
  failureText?: (error: unknown, placed: boolean) => string | undefined;
}

/**
 * The schema's messages (`common/schemas`, written in English for both sides) in the
 * language in effect, wherever they sit in the errors (nested fields, arrays, roots).
 */
function localisedResolver<Values extends FieldValues, Output>(
  resolve: Resolver<Values, unknown, Output>,
): Resolver<Values, unknown, Output> {
  const localise = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'ref') continue;
      if (key === 'message' && typeof value === 'string')
        (node as { message: string }).message = localiseServerText(value);
      else localise(value);
    }
  };
  return async (...args) => {
    const result = await resolve(...args);
    localise(result.errors);
    return result;
  };
}

/** Whether an error, or one nested in it, is a refusal the server sent (`setServerErrors`). */
const saidByServer = (node: unknown): boolean =>
  typeof node === 'object' &&
  node !== null &&
  Object.entries(node).some(([key, value]) =>
    key === 'type' ? value === 'server' : key !== 'ref' && saidByServer(value),
  );

const defaultFailureText = (error: unknown, placed: boolean) =>
  placed ? undefined : errorMessage(error);

/**
 * A form over a `common/` schema (react-hook-form + zodResolver): the schema's messages
 * show under the inputs before anything is sent; `submit(send)` sends the schema's output,
 * and a refusal lands where it belongs (`setServerErrors`): a 400's fields under their
 * inputs, a listed code under its input, the rest in `failure` (the form's alert). Nothing
 * typed is lost on failure. Bind inputs with `FormTextField` or `Controller`.
 *
 * @example
 * const form = useSchemaForm(createRoleSchema, {
 *   defaultValues: { name: '' },
 *   errorContext: messages.roles.addContext,
 *   codes: { NAME_TAKEN: { field: 'name' } },
 * });
 * <form onSubmit={form.submit(async (role) => { await createRole(role).unwrap(); })}>
 *   {form.failure && <Alert severity="error">{form.failure}</Alert>}
 *   <FormTextField control={form.control} name="name" label="Name" />
 */
export function useSchemaForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  {
    defaultValues,
    errorContext,
    codes,
    failureText = defaultFailureText,
  }: SchemaFormOptions<Input>,
) {
  const form = useForm<Input, unknown, Output>({
    resolver: localisedResolver<Input, Output>(zodResolver(schema)),
    defaultValues,
  });

  // A switch of language says the checks' messages shown again, in the new language. (A
  // server's refusal stays as it was said, until the next try.)
  const locale = useAppSelector(selectLocale);
  const checkedIn = useRef(locale);
  const { errors } = form.formState;
  useEffect(() => {
    if (checkedIn.current === locale) return;
    checkedIn.current = locale;
    const shown = Object.keys(errors).filter(
      (name) => name !== 'root' && !saidByServer(errors[name]),
    );
    if (shown.length) void form.trigger(shown as Path<Input>[]);
  }, [locale, errors, form]);

  /** Runs `send`; when it throws, shows the failure in the form. Never throws itself. */
  async function attempt(send: () => Promise<void>): Promise<void> {
    form.clearErrors(FORM_ALERT);
    try {
      await send();
    } catch (error) {
      if (errorContext) reportError(errorContext, error);
      const text = failureText(error, setServerErrors(error, form, codes));
      if (text) form.setError(FORM_ALERT, { type: 'server', message: text });
    }
  }

  /** The form's `onSubmit`: checks the values with the schema, then sends its output. */
  const submit = (send: (values: Output) => Promise<void>) => (event?: FormEvent) =>
    form.handleSubmit((values) => attempt(() => send(values)))(event);

  return {
    ...form,
    submit,
    attempt,
    /** The alert's text: a failure that no input shows. */
    failure: form.formState.errors.root?.server?.message,
  };
}
