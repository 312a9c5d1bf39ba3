import { TextField, type TextFieldProps } from '@mui/material';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';

type FormTextFieldProps<Values extends FieldValues, Output> = Omit<
  TextFieldProps,
  'name' | 'value' | 'defaultValue' | 'onChange' | 'onBlur' | 'error' | 'helperText' | 'inputRef'
> & {
  control: Control<Values, unknown, Output>;
  name: FieldPath<Values>;
  /** Shown under the input while it has no error (a rule, a default). */
  hint?: string;
  /** Rewrites the text as it is typed (e.g. `stripToIdentifier`): the input shows the result. */
  parse?: (text: string) => string;
};

/**
 * An MUI text input bound to a form field of `useSchemaForm`: its error (the schema's or the
 * server's) shows as the input's helper text, else `hint`. `disabled` only greys the input:
 * its value is still sent (react-hook-form drops the values of fields it disables).
 */
export function FormTextField<Values extends FieldValues, Output>({
  control,
  name,
  hint,
  parse,
  ...props
}: FormTextFieldProps<Values, Output>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          {...props}
          name={field.name}
          value={field.value ?? ''}
          onChange={(event) =>
            field.onChange(parse ? parse(event.target.value) : event.target.value)
          }
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={Boolean(fieldState.error)}
          helperText={fieldState.error?.message ?? hint}
        />
      )}
    />
  );
}
