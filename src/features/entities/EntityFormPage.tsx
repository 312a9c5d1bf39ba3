import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import {
  Alert,
  Button,
  IconButton,
  LinearProgress,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { DEFAULT_ENTITY_CATEGORY } from '@common/constants';
import { messages } from '@common/messages';
import type { Entity, EntityInput } from '@common/schemas/entities';
import { entityInputSchema, stripToIdentifier } from '@common/schemas/entities';
import { useGetEntityQuery } from '@/api/entities.api';
import { errorMessage, reportError } from '@/api/errors';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useReportedError } from '@/hooks/useReportedError';
import { VersionHistoryDialog } from '@/components/VersionHistoryDialog';
import {
  useCreateEntityMutation,
  useListEntityVersionsQuery,
  useUpdateEntityMutation,
} from './entities.api';

interface FormField {
  key: number;
  name: string;
  label: string;
}

interface FormState {
  name: string;
  description: string;
  category: string;
  fields: FormField[];
}

let nextKey = 0;
const blankField = (): FormField => ({ key: nextKey++, name: '', label: '' });

const blankForm = (): FormState => ({
  name: '',
  description: '',
  category: DEFAULT_ENTITY_CATEGORY,
  fields: [blankField()],
});

const fromEntity = (entity: Entity): FormState => ({
  name: entity.name,
  description: entity.description,
  category: entity.category,
  fields: entity.fields.map((field) => ({ key: nextKey++, ...field })),
});

function EntityVersions({ entity, onClose }: { entity: Entity; onClose(): void }) {
  const { data, isLoading, isError } = useListEntityVersionsQuery(entity._id);
  return (
    <VersionHistoryDialog
      title={`Versions of ${entity.name}`}
      versions={data}
      isLoading={isLoading}
      failed={isError}
      onClose={onClose}
    />
  );
}

function EntityForm({ entity }: { entity?: Entity }) {
  const editing = Boolean(entity);
  const [form, setForm] = useState<FormState>(() => (entity ? fromEntity(entity) : blankForm()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const [showVersions, setShowVersions] = useState(false);
  const [createEntity, { isLoading: isCreating }] = useCreateEntityMutation();
  const [updateEntity, { isLoading: isUpdating }] = useUpdateEntityMutation();
  const navigate = useNavigate();

  const setField = (key: number, change: Partial<FormField>) =>
    setForm((current) => ({
      ...current,
      fields: current.fields.map((field) => (field.key === key ? { ...field, ...change } : field)),
    }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setOutcome(undefined);
    const input = { ...form, fields: form.fields.map(({ name, label }) => ({ name, label })) };
    const checked = entityInputSchema.safeParse(input);
    if (!checked.success) {
      const found: Record<string, string> = {};
      for (const issue of checked.error.issues) found[issue.path.join('.')] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    // Fields taken out of a definition take their values in every record with them.
    const removed = (entity?.fields ?? [])
      .map((field) => field.name)
      .filter((name) => !input.fields.some((field) => field.name === name));
    if (removed.length > 0) fieldRemoval.ask({ input, removed });
    else await save(input);
  }

  async function save(input: EntityInput) {
    try {
      if (entity) {
        // The form shows what was stored (an empty category became the default one).
        setForm(fromEntity(await updateEntity({ id: entity._id, ...input }).unwrap()));
        setOutcome({ ok: true, text: messages.entities.saved });
      } else {
        await createEntity(input).unwrap();
        setOutcome({ ok: true, text: messages.entities.added });
        setForm(blankForm());
      }
    } catch (error) {
      const failed = entity ? messages.entities.saveFailed : messages.entities.addFailed;
      reportError(failed, error);
      setOutcome({ ok: false, text: `${failed}: ${errorMessage(error)}` });
    }
  }

  const fieldRemoval = useConfirmedAction(
    ({ input }: { input: EntityInput; removed: string[] }) => save(input),
    messages.entities.saveFailed,
  );

  return (
    <Paper component="section" sx={{ maxWidth: 720, p: 3 }}>
      <PageHeader title={editing ? `Edit ${entity!.name}` : 'Add Entity'}>
        {entity && <Button onClick={() => setShowVersions(true)}>Version history</Button>}
      </PageHeader>
      <Stack
        component="form"
        spacing={2}
        onSubmit={submit}
        noValidate
        aria-label={editing ? 'Edit entity' : 'Add entity'}
      >
        {outcome && (
          <Alert severity={outcome.ok ? 'success' : 'error'} role="alert">
            {outcome.text}
          </Alert>
        )}
        <TextField
          label="Name"
          required
          disabled={editing}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: stripToIdentifier(e.target.value) })}
          error={Boolean(errors.name)}
          helperText={errors.name ?? 'Letters, digits and _ only'}
          autoFocus={!editing}
        />
        <TextField
          label="Description"
          multiline
          minRows={2}
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
          error={Boolean(errors.description)}
          helperText={errors.description}
        />
        <TextField
          label="Category"
          value={form.category}
          onChange={(e) => setForm({ ...form, category: e.target.value })}
          error={Boolean(errors.category)}
          helperText={errors.category ?? `Empty means ${DEFAULT_ENTITY_CATEGORY}`}
        />
        <Typography variant="h6" component="h2">
          Fields
        </Typography>
        {errors.fields && <Alert severity="error">Fields {errors.fields}</Alert>}
        {form.fields.map((field, index) => (
          <Stack
            direction="row"
            spacing={1}
            key={field.key}
            role="group"
            aria-label={`Field ${index + 1}`}
          >
            <TextField
              label="Field name"
              required
              value={field.name}
              onChange={(e) => setField(field.key, { name: stripToIdentifier(e.target.value) })}
              error={Boolean(errors[`fields.${index}.name`])}
              helperText={errors[`fields.${index}.name`]}
              sx={{ flex: 1 }}
            />
            <TextField
              label="Label"
              value={field.label}
              onChange={(e) => setField(field.key, { label: e.target.value })}
              sx={{ flex: 1 }}
            />
            <IconButton
              aria-label={`Remove field ${index + 1}`}
              disabled={form.fields.length === 1}
              onClick={() =>
                setForm({ ...form, fields: form.fields.filter((f) => f.key !== field.key) })
              }
            >
              <RemoveIcon />
            </IconButton>
          </Stack>
        ))}
        <Button
          startIcon={<AddIcon />}
          onClick={() => setForm({ ...form, fields: [...form.fields, blankField()] })}
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
        <EntityVersions entity={entity} onClose={() => setShowVersions(false)} />
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

/** `/entities/add`. */
export function AddEntityPage() {
  return <EntityForm />;
}

/** `/entities/edit/:entityId`: the same form; the name cannot change. */
export function EditEntityPage() {
  const { entityId = '' } = useParams();
  const { data: entity, error, isLoading } = useGetEntityQuery(entityId);
  useReportedError(messages.entities.fetchContext, error);
  if (isLoading) return <LinearProgress aria-label="Loading entity" />;
  if (!entity) return <Alert severity="error">This entity could not be loaded.</Alert>;
  return <EntityForm key={entity._id} entity={entity} />;
}
