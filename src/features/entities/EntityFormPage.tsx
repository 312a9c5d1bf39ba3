import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import { Alert, Button, IconButton, Paper, Stack, Typography } from '@mui/material';
import { useParams } from 'react-router-dom';
import { DEFAULT_ENTITY_CATEGORY } from '@common/constants';
import { messages } from '@common/messages';
import { type Entity, stripToIdentifier } from '@common/schemas/entities';
import { PermissionGate } from '@/auth/PermissionGate';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EditNotices } from '@/components/EditNotices';
import { Editors } from '@/components/Editors';
import { FormTextField } from '@/components/FormTextField';
import { ItemHistory } from '@/components/ItemHistory';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useGetEntityQuery } from './entities.api';
import { EntityTabs } from './EntityTabs';
import { FieldSettings } from './FieldSettings';
import { blankField, comparable, useEntityForm } from './useEntityForm';
import type { MessageId } from '@/i18n/i18n';
import { useT } from '@/i18n/useT';

/** How the form labels the values a comparison shows. */
const LABELS: Partial<Record<string, MessageId>> = {
  description: 'entities.description',
  category: 'entities.category',
  fields: 'entities.fields',
};

function EntityForm({ entity }: { entity?: Entity }) {
  const t = useT();
  const { form, fields, edit, history, fieldRemoval, conversion, ...controller } =
    useEntityForm(entity);
  const editing = Boolean(entity);
  // About the list itself ('must have at least one field'): a field array keeps it in root.
  const fieldsProblem =
    form.formState.errors.fields?.root?.message ?? form.formState.errors.fields?.message;
  return (
    <Paper component="section" sx={{ maxWidth: 720, p: { xs: 2, sm: 3 } }}>
      <PageHeader
        title={entity ? t('entities.editTitle', { name: entity.name }) : t('entities.add')}
      >
        {history?.mayRead && <Button onClick={history.open}>{t('common.versionHistory')}</Button>}
      </PageHeader>
      {entity && <EntityTabs entity={entity} current="definition" />}
      <Stack
        component="form"
        spacing={2}
        onSubmit={controller.submit}
        noValidate
        aria-label={editing ? t('entities.editForm') : t('entities.addForm')}
      >
        {controller.success && !edit.conflict && edit.deletions.length === 0 && (
          <Alert severity="success" role="alert">
            {controller.success}
          </Alert>
        )}
        {entity && (
          <>
            <Editors
              editors={edit.editors}
              nameOf={() => t('entities.thisEntity')}
              ids={[entity._id]}
            />
            <EditNotices
              edit={edit}
              nameOf={() => t('entities.theEntity', { name: entity.name })}
              shownValues={comparable}
              labelOf={(field) => {
                const label = LABELS[field];
                return label ? t(label) : field;
              }}
            />
          </>
        )}
        {form.failure && (
          <Alert severity="error" role="alert">
            {form.failure}
          </Alert>
        )}
        <FormTextField
          control={form.control}
          name="name"
          label={t('entities.name')}
          required
          disabled={editing}
          parse={stripToIdentifier}
          hint={editing ? t('entities.nameKept') : t('entities.nameHint')}
          autoFocus={!editing}
        />
        <FormTextField
          control={form.control}
          name="description"
          label={t('entities.description')}
          multiline
          minRows={2}
        />
        <FormTextField
          control={form.control}
          name="category"
          label={t('entities.category')}
          hint={t('entities.categoryHint', { category: DEFAULT_ENTITY_CATEGORY })}
        />
        <Typography variant="h6" component="h2">
          {t('entities.fields')}
        </Typography>
        {fieldsProblem && (
          <Alert severity="error">{t('entities.fieldsProblem', { problem: fieldsProblem })}</Alert>
        )}
        {fields.fields.map((field, index) => (
          <Stack
            key={field.id}
            role="group"
            aria-label={t('entities.fieldGroup', { number: index + 1 })}
            spacing={1}
          >
            <Stack direction="row" spacing={1}>
              <FormTextField
                control={form.control}
                name={`fields.${index}.name`}
                label={t('entities.fieldName')}
                required
                parse={stripToIdentifier}
                sx={{ flex: 1 }}
              />
              <FormTextField
                control={form.control}
                name={`fields.${index}.label`}
                label={t('entities.fieldLabel')}
                sx={{ flex: 1 }}
              />
              <IconButton
                aria-label={t('entities.removeField', { number: index + 1 })}
                disabled={fields.fields.length === 1}
                onClick={() => {
                  // Records are named by the first field again when the naming one goes.
                  if (form.getValues('displayField') === form.getValues(`fields.${index}.name`)) {
                    form.setValue('displayField', undefined);
                  }
                  fields.remove(index);
                }}
              >
                <RemoveIcon />
              </IconButton>
            </Stack>
            <FieldSettings control={form.control} setValue={form.setValue} index={index} />
          </Stack>
        ))}
        <Button
          startIcon={<AddIcon />}
          onClick={() => fields.append(blankField())}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('entities.addField')}
        </Button>
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={controller.isSaving}>
            {editing ? t('common.save') : t('entities.add')}
          </Button>
          <Button onClick={controller.back}>{t('entities.back')}</Button>
        </Stack>
      </Stack>
      {entity && history?.shows && (
        <ItemHistory
          endpoints={history.endpoints}
          item={entity}
          title={t('entities.versions', { name: entity.name })}
          onClose={history.close}
          onRestored={history.restored}
        />
      )}
      <ConfirmDialog
        {...conversion.dialog}
        title={t('entities.convertTitle')}
        message={t('entities.convertQuestion', {
          count: conversion.pending?.report.converted ?? 0,
          name: entity?.name ?? '',
        })}
        confirmLabel={t('entities.convertConfirm')}
      />
      <ConfirmDialog
        {...fieldRemoval.dialog}
        title={t('entities.removeTitle')}
        message={t('entities.removeQuestion', {
          count: fieldRemoval.pending?.removed.length ?? 0,
          fields: fieldRemoval.pending?.removed.join(', ') ?? '',
          name: entity?.name ?? '',
        })}
        confirmLabel={t('entities.removeConfirm')}
      />
    </Paper>
  );
}

/** `/entities/add`, for a user who may add entities (others are told so; nothing is sent). */
export function AddEntityPage() {
  const t = useT();
  return (
    <PermissionGate verb="POST" path="/api/entities" what={t('entities.adding')}>
      <EntityForm />
    </PermissionGate>
  );
}

/** The entity to edit, loaded through the shared states; an unknown id says so. */
function EntityToEdit({ entityId }: { entityId: string }) {
  const t = useT();
  const entityQuery = useGetEntityQuery(entityId);
  useReportedError(messages.entities.fetchContext, entityQuery.error);
  return (
    <QueryState
      query={entityQuery}
      what={t('entities.whatOne')}
      notFound={{
        message: t('entities.noSuchId'),
        back: { label: t('entities.seeAll'), to: '/entities' },
      }}
    >
      {(entity) => <EntityForm key={entity._id} entity={entity} />}
    </QueryState>
  );
}

/**
 * `/entities/edit/:entityId`: the same form; the name cannot change. Only a user who may
 * both save and read a definition gets it; nothing is asked for anyone else.
 */
export function EditEntityPage() {
  const t = useT();
  const { entityId = '' } = useParams();
  return (
    <PermissionGate verb="PUT" path="/api/entities/:id" what={t('entities.editing')}>
      <PermissionGate verb="GET" path="/api/entities/:idOrName" what={t('entities.reading')}>
        <EntityToEdit key={entityId} entityId={entityId} />
      </PermissionGate>
    </PermissionGate>
  );
}
