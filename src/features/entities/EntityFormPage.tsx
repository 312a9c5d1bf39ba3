import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import { Alert, Button, IconButton, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { DEFAULT_ENTITY_CATEGORY } from '@common/constants';
import { messages } from '@common/messages';
import type { Entity } from '@common/schemas/entities';
import type { Version } from '@common/schemas/versions';
import { entityInputSchema, stripToIdentifier } from '@common/schemas/entities';
import { conflictCurrent, errorMessage, reportError } from '@/api/errors';
import { PermissionGate } from '@/auth/PermissionGate';
import { useCan } from '@/auth/useCan';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ChangedMeanwhileAlert } from '@/components/ChangedMeanwhileAlert';
import { ConflictDialog } from '@/components/ConflictDialog';
import { FormTextField } from '@/components/FormTextField';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useChangedMeanwhile, useHeardChange } from '@/hooks/useChangedMeanwhile';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useAnnounceEditing, useEditors } from '@/hooks/usePresence';
import { useReportedError } from '@/hooks/useReportedError';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { VersionHistoryDialog } from '@/components/VersionHistoryDialog';
import {
  useCreateEntityMutation,
  useGetEntityQuery,
  useListEntityVersionsInfiniteQuery,
  useRestoreEntityVersionMutation,
  useUpdateEntityMutation,
} from './entities.api';

type EntityFormValues = z.input<typeof entityInputSchema>;
type CheckedEntity = z.output<typeof entityInputSchema>;

const blankField = () => ({ name: '', label: '' });

const blankForm = (): EntityFormValues => ({
  name: '',
  description: '',
  category: DEFAULT_ENTITY_CATEGORY,
  fields: [blankField()],
});

/** What a comparison of two definitions looks at. */
const comparable = ({ description, category, fields }: EntityFormValues) => ({
  description,
  category,
  fields: fields.map(({ name, label }) => ({ name, label })),
});

const fromEntity = (entity: Entity): EntityFormValues => ({
  name: entity.name,
  description: entity.description,
  category: entity.category,
  fields: entity.fields.map(({ name, label }) => ({ name, label })),
});

function EntityVersions({
  entity,
  onClose,
  onRestored,
}: {
  entity: Entity;
  onClose(): void;
  /** The form takes the restored definition. */
  onRestored(restored: Entity): void;
}) {
  const history = useListEntityVersionsInfiniteQuery(entity._id);
  const mayRestore = useCan('POST', '/api/entities/:id/versions/:versionId/restore');
  const [restoreVersion] = useRestoreEntityVersionMutation();
  const restore = (version: Version, current?: number) =>
    restoreVersion({ id: entity._id, name: entity.name, versionId: version._id, version: current })
      .unwrap()
      .then(onRestored)
      .catch((error: unknown) => reportError(messages.entities.restoreContext, error));
  return (
    <VersionHistoryDialog
      title={`Versions of ${entity.name}`}
      history={history}
      onClose={onClose}
      onRestore={mayRestore ? restore : undefined}
    />
  );
}

function EntityForm({ entity }: { entity?: Entity }) {
  const editing = Boolean(entity);
  const failed = entity ? messages.entities.saveFailed : messages.entities.addFailed;
  const [success, setSuccess] = useState<string>();
  const [showVersions, setShowVersions] = useState(false);
  const mayReadVersions = useCan('GET', '/api/entities/:id/versions');
  const [createEntity, { isLoading: isCreating }] = useCreateEntityMutation();
  const [updateEntity, { isLoading: isUpdating }] = useUpdateEntityMutation();
  const navigate = useNavigate();
  const form = useSchemaForm(entityInputSchema, {
    defaultValues: entity ? fromEntity(entity) : blankForm(),
    errorContext: failed,
    codes: { NAME_TAKEN: { field: 'name' } },
    // The spec's alert on every failure; its details under the inputs when they have one.
    failureText: (error, placed) => (placed ? failed : `${failed}: ${errorMessage(error)}`),
  });
  const fields = useFieldArray({ control: form.control, name: 'fields' });
  // About the list itself ('must have at least one field'): a field array keeps it in root.
  const fieldsProblem =
    form.formState.errors.fields?.root?.message ?? form.formState.errors.fields?.message;

  // The definition as this edit started from it: a save names its version, and a newer one
  // on the server (someone else saved) is a conflict to resolve, not a silent overwrite.
  const [base, setBase] = useState(entity);
  const [conflict, setConflict] = useState<{ mine: CheckedEntity; theirs: Entity }>();
  useAnnounceEditing(entity && { resource: 'entities', id: entity._id });
  const otherEditors = useEditors('entities')[entity?._id ?? ''] ?? [];
  const changedMeanwhile = useChangedMeanwhile('entities', entity?._id, base?._version);
  const changedBy = useHeardChange('entities', entity?._id)?.actor;

  /** Saves `input` over version `version`; a newer one opens the conflict dialog. */
  async function update(input: CheckedEntity, version: number) {
    try {
      const stored = await updateEntity({ id: entity!._id, ...input, _version: version }).unwrap();
      // The form shows what was stored (an empty category became the default one).
      form.reset(fromEntity(stored));
      setBase(stored);
      setConflict(undefined);
      setSuccess(messages.entities.saved);
    } catch (failure) {
      const current = conflictCurrent<Entity>(failure);
      if (!current) throw failure;
      setConflict({ mine: input, theirs: current });
    }
  }

  async function save(input: CheckedEntity) {
    if (entity) {
      await update(input, base!._version);
    } else {
      await createEntity(input).unwrap();
      form.reset(blankForm());
      setSuccess(messages.entities.added);
    }
  }

  const fieldRemoval = useConfirmedAction(
    ({ input }: { input: CheckedEntity; removed: string[] }) => form.attempt(() => save(input)),
    failed,
  );

  const checkAndSave = form.submit(async (input) => {
    // Fields taken out of a definition take their values in every record with them.
    const removed = (entity?.fields ?? [])
      .map((field) => field.name)
      .filter((name) => !input.fields.some((field) => field.name === name));
    if (removed.length > 0) fieldRemoval.ask({ input, removed });
    else await save(input);
  });

  return (
    <Paper component="section" sx={{ maxWidth: 720, p: { xs: 2, sm: 3 } }}>
      <PageHeader title={editing ? `Edit ${entity!.name}` : 'Add Entity'}>
        {entity && mayReadVersions && (
          <Button onClick={() => setShowVersions(true)}>Version history</Button>
        )}
      </PageHeader>
      <Stack
        component="form"
        spacing={2}
        onSubmit={(event) => {
          setSuccess(undefined);
          return checkAndSave(event);
        }}
        noValidate
        aria-label={editing ? 'Edit entity' : 'Add entity'}
      >
        {success && (
          <Alert severity="success" role="alert">
            {success}
          </Alert>
        )}
        {otherEditors.length > 0 && (
          <Typography role="status" variant="body2" color="text.secondary">
            {otherEditors.join(', ')} {otherEditors.length === 1 ? 'is' : 'are'} editing this entity
            too.
          </Typography>
        )}
        {changedMeanwhile && entity && (
          <ChangedMeanwhileAlert
            by={changedMeanwhile.actor}
            what="this entity"
            onReview={() => {
              // What a save would send: the form's own rules say what is not valid yet.
              const mine = entityInputSchema.safeParse(form.getValues());
              if (mine.success) setConflict({ mine: mine.data, theirs: entity });
              else void form.trigger();
            }}
          />
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
          <Stack
            direction="row"
            spacing={1}
            key={field.id}
            role="group"
            aria-label={`Field ${index + 1}`}
          >
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
              onClick={() => fields.remove(index)}
            >
              <RemoveIcon />
            </IconButton>
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
          <Button type="submit" variant="contained" disabled={isCreating || isUpdating}>
            {editing ? 'Save' : 'Add Entity'}
          </Button>
          <Button onClick={() => void navigate('/entities')}>Back to entities</Button>
        </Stack>
      </Stack>
      {showVersions && entity && (
        <EntityVersions
          entity={entity}
          onClose={() => setShowVersions(false)}
          onRestored={(restored) => {
            form.reset(fromEntity(restored));
            setBase(restored);
            setSuccess(messages.entities.restored);
          }}
        />
      )}
      {conflict && base && (
        <ConflictDialog
          what={`the entity ${base.name}`}
          changedBy={changedBy}
          base={comparable(fromEntity(base))}
          theirs={comparable(fromEntity(conflict.theirs))}
          mine={comparable(conflict.mine)}
          busy={isUpdating}
          onKeepTheirs={() => {
            form.reset(fromEntity(conflict.theirs));
            setBase(conflict.theirs);
            setConflict(undefined);
          }}
          onEditFurther={() => {
            setBase(conflict.theirs);
            setConflict(undefined);
          }}
          onApplyMine={() =>
            void form.attempt(() => update(conflict.mine, conflict.theirs._version))
          }
        />
      )}
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
