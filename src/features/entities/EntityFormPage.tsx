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
import { FieldSettings } from './FieldSettings';
import { blankField, comparable, useEntityForm } from './useEntityForm';

const LABELS: Record<string, string> = {
  description: 'Description',
  category: 'Category',
  fields: 'Fields',
};

function EntityForm({ entity }: { entity?: Entity }) {
  const { form, fields, edit, history, fieldRemoval, conversion, ...controller } =
    useEntityForm(entity);
  const editing = Boolean(entity);
  // About the list itself ('must have at least one field'): a field array keeps it in root.
  const fieldsProblem =
    form.formState.errors.fields?.root?.message ?? form.formState.errors.fields?.message;
  return (
    <Paper component="section" sx={{ maxWidth: 720, p: { xs: 2, sm: 3 } }}>
      <PageHeader title={entity ? `Edit ${entity.name}` : 'Add Entity'}>
        {history?.mayRead && <Button onClick={history.open}>Version history</Button>}
      </PageHeader>
      <Stack
        component="form"
        spacing={2}
        onSubmit={controller.submit}
        noValidate
        aria-label={editing ? 'Edit entity' : 'Add entity'}
      >
        {controller.success && !edit.conflict && edit.deletions.length === 0 && (
          <Alert severity="success" role="alert">
            {controller.success}
          </Alert>
        )}
        {entity && (
          <>
            <Editors editors={edit.editors} nameOf={() => 'this entity'} ids={[entity._id]} />
            <EditNotices
              edit={edit}
              nameOf={() => `the entity ${entity.name}`}
              shownValues={comparable}
              labelOf={(field) => LABELS[field] ?? field}
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
          label="Name"
          required
          disabled={editing}
          parse={stripToIdentifier}
          hint={editing ? 'An entity keeps its name' : 'Letters, digits and _ only'}
          autoFocus={!editing}
        />
        <FormTextField
          control={form.control}
          name="description"
          label="Description"
          multiline
          minRows={2}
        />
        <FormTextField
          control={form.control}
          name="category"
          label="Category"
          hint={`Empty means ${DEFAULT_ENTITY_CATEGORY}`}
        />
        <Typography variant="h6" component="h2">
          Fields
        </Typography>
        {fieldsProblem && <Alert severity="error">Fields {fieldsProblem}</Alert>}
        {fields.fields.map((field, index) => (
          <Stack key={field.id} role="group" aria-label={`Field ${index + 1}`} spacing={1}>
            <Stack direction="row" spacing={1}>
              <FormTextField
                control={form.control}
                name={`fields.${index}.name`}
                label="Field name"
                required
                parse={stripToIdentifier}
                sx={{ flex: 1 }}
              />
              <FormTextField
                control={form.control}
                name={`fields.${index}.label`}
                label="Label"
                sx={{ flex: 1 }}
              />
              <IconButton
                aria-label={`Remove field ${index + 1}`}
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
          Add field
        </Button>
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={controller.isSaving}>
            {editing ? 'Save' : 'Add Entity'}
          </Button>
          <Button onClick={controller.back}>Back to entities</Button>
        </Stack>
      </Stack>
      {entity && history?.shows && (
        <ItemHistory
          endpoints={history.endpoints}
          item={entity}
          title={`Versions of ${entity.name}`}
          onClose={history.close}
          onRestored={history.restored}
        />
      )}
      <ConfirmDialog
        {...conversion.dialog}
        title="Convert values"
        message={`Saving converts the values of ${conversion.pending?.report.converted} records of ${entity?.name} to their fields' new types.`}
        confirmLabel="Save and convert"
      />
      <ConfirmDialog
        {...fieldRemoval.dialog}
        title="Remove fields"
        message={`Saving deletes the values of ${fieldRemoval.pending?.removed.join(', ')} from every record of ${entity?.name}.`}
        confirmLabel="Save and remove"
      />
    </Paper>
  );
}

/** `/entities/add`, for a user who may add entities (others are told so; nothing is sent). */
export function AddEntityPage() {
  return (
    <PermissionGate verb="POST" path="/api/entities" what="adding entities">
      <EntityForm />
    </PermissionGate>
  );
}

/** The entity to edit, loaded through the shared states; an unknown id says so. */
function EntityToEdit({ entityId }: { entityId: string }) {
  const entityQuery = useGetEntityQuery(entityId);
  useReportedError(messages.entities.fetchContext, entityQuery.error);
  return (
    <QueryState
      query={entityQuery}
      what="entity"
      notFound={{
        message: 'There is no entity with this id.',
        back: { label: 'See the entities', to: '/entities' },
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
  const { entityId = '' } = useParams();
  return (
    <PermissionGate verb="PUT" path="/api/entities/:id" what="editing entities">
      <PermissionGate verb="GET" path="/api/entities/:idOrName" what="reading the entities">
        <EntityToEdit key={entityId} entityId={entityId} />
      </PermissionGate>
    </PermissionGate>
  );
}
