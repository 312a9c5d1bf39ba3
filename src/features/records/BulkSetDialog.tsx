import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useId, useState } from 'react';
import type { EntityField } from '@common/schemas/entities';
import { type FieldValue, fieldValueSchema } from '@common/schemas/fieldValues';
import { parseNumber } from '@/i18n/format';
import { useT } from '@/i18n/useT';
import { localiseServerText } from '@/i18n/serverTexts';

/**
 * The fields a bulk action may set: the same value on many records makes sense for them
 * (not a unique field, which two records cannot share, nor a relation, picked one by one).
 */
export const bulkSettable = (fields: EntityField[]) =>
  fields.filter((field) => !field.unique && field.type !== 'relation');

/** A typed value from what the input holds ('' is empty: null). */
function valueOf(field: EntityField, text: string): unknown {
  if (text === '') return null;
  switch (field.type) {
    case 'number':
    case 'integer': {
      // As the language in effect writes numbers (`12,5` in French); else as typed, refused.
      const number = parseNumber(text);
      return Number.isNaN(number) ? text : number;
    }
    case 'boolean':
      return text === 'true';
    case 'datetime':
      // The browser's input holds a local date and time; the API takes UTC.
      return new Date(text).toISOString();
    default:
      return text;
  }
}

/** The browser's input for a type; numbers are text, as the language in effect writes them. */
const INPUT_TYPES: Partial<Record<string, string>> = {
  date: 'date',
  datetime: 'datetime-local',
  email: 'email',
  url: 'url',
};

/**
 * "Set a field" on the selected records: which field, and its value, checked by the field's
 * own schema (the server's) before anything is sent.
 */
export function BulkSetDialog({
  fields,
  count,
  onSet,
  onClose,
}: {
  fields: EntityField[];
  count: number;
  onSet: (name: string, value: FieldValue | null) => void;
  onClose: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const [name, setName] = useState(fields[0]?.name ?? '');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  const field = fields.find((candidate) => candidate.name === name);
  const choices =
    field?.type === 'boolean'
      ? ['true', 'false']
      : field?.type === 'select'
        ? field.options
        : undefined;

  function submit() {
    if (!field) return;
    const parsed = fieldValueSchema(field).safeParse(valueOf(field, text));
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message;
      setProblem(message && localiseServerText(message));
      return;
    }
    onSet(field.name, parsed.data);
  }

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('records.setField')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          {t('records.setExplanation', { count })}
        </DialogContentText>
        <Stack spacing={2}>
          <TextField
            select
            label={t('records.setFieldLabel')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setText('');
              setProblem(undefined);
            }}
          >
            {fields.map((candidate) => (
              <MenuItem key={candidate.name} value={candidate.name}>
                {candidate.label || candidate.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('records.setValueLabel')}
            value={text}
            select={choices !== undefined}
            type={choices ? undefined : (INPUT_TYPES[field?.type ?? 'text'] ?? 'text')}
            multiline={field?.type === 'longText'}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(undefined);
            }}
            error={problem !== undefined}
            helperText={
              problem ?? (field?.required ? t('records.required') : t('records.emptyClears'))
            }
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: {
                inputMode:
                  field?.type === 'number' || field?.type === 'integer' ? 'decimal' : undefined,
              },
            }}
          >
            {choices && [
              <MenuItem key="" value="">
                {t('edit.empty')}
              </MenuItem>,
              ...choices.map((choice) => (
                <MenuItem key={choice} value={choice}>
                  {field?.type === 'boolean'
                    ? t(choice === 'true' ? 'records.yes' : 'records.no')
                    : choice}
                </MenuItem>
              )),
            ]}
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={!field}>
          {t('records.setOnButton', { count })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
