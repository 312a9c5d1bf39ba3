import { Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { type Control, Controller, type UseFormSetValue, useWatch } from 'react-hook-form';
import { FIELD_TYPES, type FieldType } from '@common/schemas/fieldValues';
import { useListEntitiesQuery } from './entities.api';
import type { EntityFormValues } from './useEntityForm';
import type { MessageId } from '@/i18n/i18n';
import { useT } from '@/i18n/useT';

/** How the form names each field type. */
const FIELD_TYPE_LABELS: Record<FieldType, MessageId> = {
  text: 'entities.type.text',
  longText: 'entities.type.longText',
  number: 'entities.type.number',
  integer: 'entities.type.integer',
  boolean: 'entities.type.boolean',
  date: 'entities.type.date',
  datetime: 'entities.type.datetime',
  select: 'entities.type.select',
  email: 'entities.type.email',
  url: 'entities.type.url',
  relation: 'entities.type.relation',
};

interface FieldSettingsProps {
  control: Control<EntityFormValues, unknown, unknown>;
  setValue: UseFormSetValue<EntityFormValues>;
  index: number;
}

/**
 * A field's type and settings on the entity form: its type; required and unique; a
 * choice's options (separated by commas); the entity a relation points at. Changing the
 * type drops the settings only the old one had, and the default.
 */
export function FieldSettings({ control, setValue, index }: FieldSettingsProps) {
  const t = useT();
  const type = (useWatch({ control, name: `fields.${index}.type` }) ?? 'text') as FieldType;
  const entities = useListEntitiesQuery(undefined, { skip: type !== 'relation' });
  const name = <Key extends 'type' | 'options' | 'target' | 'required' | 'unique' | 'default'>(
    key: Key,
  ) => `fields.${index}.${key}` as `fields.${number}.${Key}`;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      <Controller
        control={control}
        name={name('type')}
        render={({ field, fieldState }) => (
          <TextField
            select
            label={t('entities.fieldType')}
            value={field.value ?? 'text'}
            onChange={(event) => {
              const next = event.target.value as FieldType;
              field.onChange(next);
              // What only the old type had, or a value of it, goes.
              setValue(name('default'), undefined);
              if (next !== 'select') setValue(name('options'), undefined);
              if (next !== 'relation') setValue(name('target'), undefined);
              if (next === 'boolean' || next === 'longText') setValue(name('unique'), false);
            }}
            error={Boolean(fieldState.error)}
            helperText={fieldState.error?.message}
            sx={{ minWidth: 180 }}
          >
            {FIELD_TYPES.map((value) => (
              <MenuItem key={value} value={value}>
                {t(FIELD_TYPE_LABELS[value])}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      {type === 'select' && (
        <Controller
          control={control}
          name={name('options')}
          render={({ field, fieldState }) => (
            <TextField
              label={t('entities.options')}
              value={Array.isArray(field.value) ? field.value.join(', ') : (field.value ?? '')}
              onChange={(event) => field.onChange(event.target.value)}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message ?? t('entities.optionsHint')}
              sx={{ flex: 1, minWidth: 200 }}
            />
          )}
        />
      )}
      {type === 'relation' && (
        <Controller
          control={control}
          name={name('target')}
          render={({ field, fieldState }) => (
            <TextField
              select
              label={t('entities.target')}
              value={field.value ?? ''}
              onChange={(event) => field.onChange(event.target.value)}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message}
              sx={{ minWidth: 180 }}
            >
              {(entities.data ?? []).map((entity) => (
                <MenuItem key={entity._id} value={entity.name}>
                  {entity.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {(['required', 'unique'] as const).map((setting) => (
        <Controller
          key={setting}
          control={control}
          name={name(setting)}
          render={({ field }) => (
            <FormControlLabel
              label={setting === 'required' ? t('entities.required') : t('entities.unique')}
              control={
                <Checkbox
                  checked={Boolean(field.value)}
                  onChange={(event) => field.onChange(event.target.checked)}
                />
              }
            />
          )}
        />
      ))}
    </Stack>
  );
}
