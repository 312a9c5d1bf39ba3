import { type FormEvent, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { DEFAULT_ENTITY_CATEGORY } from '@common/constants';
import { messages } from '@common/messages';
import {
  type DefinitionReport,
  type Entity,
  type EntityField,
  definitionReportSchema,
  entityInputSchema,
} from '@common/schemas/entities';
import { apiErrorBody, errorCode, errorMessage } from '@/api/errors';
import { useCan } from '@/auth/useCan';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useVersionedEdit } from '@/hooks/useVersionedEdit';
import type { MessageId } from '@/i18n/i18n';
import { t as translate, useT } from '@/i18n/useT';
import {
  entityHistory,
  useCreateEntityMutation,
  useGetEntityQuery,
  useCheckEntityChangeMutation,
  useRestoreEntityVersionMutation,
  useUpdateEntityMutation,
} from './entities.api';
import { localiseServerText } from '@/i18n/serverTexts';

export type EntityFormValues = z.input<typeof entityInputSchema>;
type CheckedEntity = z.output<typeof entityInputSchema>;

export const blankField = () => ({ name: '', label: '' });

const blankForm = (): EntityFormValues => ({
  name: '',
  description: '',
  category: DEFAULT_ENTITY_CATEGORY,
  fields: [blankField()],
});

// Each field keeps its type and settings, and the entity its display field: the form
// edits names and labels, and a save must not make typed fields text again.
const fromEntity = (entity: Entity): EntityFormValues => ({
  name: entity.name,
  description: entity.description,
  category: entity.category,
  fields: entity.fields.map((field) => ({ ...field })),
  ...(entity.displayField ? { displayField: entity.displayField } : {}),
});

/** Whether a save changes a kept field's type or rules, or adds a required one. */
function settingsChanged(entity: Entity, input: CheckedEntity) {
  const before = new Map(entity.fields.map((field) => [field.name, field]));
  const rules = (field?: EntityField) =>
    field &&
    JSON.stringify([field.type, field.required, field.unique, field.options, field.target]);
  return input.fields.some((field) =>
    before.has(field.name)
      ? rules(before.get(field.name)) !== rules(field)
      : Boolean(field.required),
  );
}

/** The records a definition change could not take along, in a sentence: the first few. */
export function reportText(report: DefinitionReport, t = translate) {
  const shown = report.failures.slice(0, REPORT_SHOWN).map((f) =>
    t('entities.reportLine', {
      id: f._id.slice(0, 8),
      field: f.field,
      empty: f.value === null ? 'yes' : 'no',
      value: String(f.value),
      message: localiseServerText(f.message),
    }),
  );
  return t('entities.report', {
    count: report.failed,
    list: shown.join(t('entities.reportSeparator')),
    more: report.failed - shown.length,
  });
}
const REPORT_SHOWN = 5;

/** What a comparison of two definitions looks at (the name never changes). */
export const comparable = ({ description, category, fields }: EntityFormValues) => ({
  description,
  category,
  fields: fields.map(({ name, label }) => ({ name, label })),
});

/**
 * The entity form's controller, adding (`entity` absent) or editing a definition: the
 * form over the common schema, its field list, the save on the one edit machine (edits
 * only), the removal of fields confirmed first (their values go from every record), and
 * the history, whose restore the form takes.
 */
export function useEntityForm(entity?: Entity) {
  const t = useT();
  // The log's context stays in English; the form says it in the language in effect.
  const failed = entity ? messages.entities.saveFailed : messages.entities.addFailed;
  const failedText = (reason?: string): string =>
    entity
      ? reason === undefined
        ? t('entities.saveFailed')
        : t('entities.saveFailedWith', { reason })
      : reason === undefined
        ? t('entities.addFailed')
        : t('entities.addFailedWith', { reason });
  const [success, setSuccess] = useState<MessageId>();
  const [showsHistory, setShowsHistory] = useState(false);
  const mayReadVersions = useCan('GET', '/api/entities/:id/versions');
  const mayRestore = useCan('POST', '/api/entities/:id/versions/:versionId/restore');
  const [createEntity, { isLoading: isCreating }] = useCreateEntityMutation();
  const [updateEntity, { isLoading: isUpdating }] = useUpdateEntityMutation();
  const [restoreEntity] = useRestoreEntityVersionMutation();
  const [checkEntityChange] = useCheckEntityChangeMutation();
  const entityQuery = useGetEntityQuery(entity?._id ?? '', { skip: !entity });
  const navigate = useNavigate();
  const form = useSchemaForm(entityInputSchema, {
    defaultValues: entity ? fromEntity(entity) : blankForm(),
    errorContext: failed,
    codes: { NAME_TAKEN: { field: 'name' } },
    // The spec's alert on every failure; its details under the inputs when they have one;
    // the records a definition change could not take along, listed.
    failureText: (error, placed) => {
      const report = definitionReportSchema.safeParse(apiErrorBody(error)?.report);
      if (report.success) return failedText(reportText(report.data, t));
      return placed ? failedText() : failedText(errorMessage(error));
    },
  });
  const fields = useFieldArray({ control: form.control, name: 'fields' });

  // Editing is having typed something: an untouched form takes another person's save as it is.
  const { isDirty } = form.formState;
  const edit = useVersionedEdit<Entity, EntityFormValues>({
    resource: 'entities',
    editingId: isDirty ? entity?._id : undefined,
    startsFrom: entity,
    itemOf: () => entityQuery.data,
    valuesOf: fromEntity,
    typedValues: () => form.getValues(),
    send: async (id, values, version) => {
      // What is typed may not be valid yet (Apply mine after a review): the form says why.
      const checked = entityInputSchema.safeParse(values);
      if (!checked.success) {
        void form.trigger();
        throw checked.error;
      }
      return updateEntity({ id, ...checked.data, _version: version }).unwrap();
    },
    restore:
      mayRestore && mayReadVersions
        ? (id) => restoreEntity({ id, name: entity!.name }).unwrap()
        : undefined,
    isGone: () => errorCode(entityQuery.error) === 'NOT_FOUND',
    errorContext: failed,
    // The form shows what was stored (an empty category became the default one).
    onSettled: (_id, stored, kept) => {
      form.reset(fromEntity(stored));
      if (kept === 'mine') setSuccess('entities.saved');
    },
    onDiscarded: () => void navigate('/entities'),
    show: (_id, values) => form.reset(values, { keepDefaultValues: true }),
    isDirty: () => form.formState.isDirty,
    focus: () => form.setFocus('description'),
  });

  async function save(input: CheckedEntity) {
    if (entity) {
      const stored = await edit.submit(entity._id, input);
      if (!stored) return; // A conflict or a deletion: the form's notices say so.
      form.reset(fromEntity(stored));
      setSuccess('entities.saved');
    } else {
      await createEntity(input).unwrap();
      form.reset(blankForm());
      setSuccess('entities.added');
    }
  }

  const fieldRemoval = useConfirmedAction(
    ({ input }: { input: CheckedEntity; removed: string[] }) => form.attempt(() => save(input)),
    failed,
  );

  // Fields taken out of a definition take their values in every record with them.
  const saveAskingRemovals = async (input: CheckedEntity) => {
    const removed = (entity?.fields ?? [])
      .map((field) => field.name)
      .filter((name) => !input.fields.some((field) => field.name === name));
    if (removed.length > 0) fieldRemoval.ask({ input, removed });
    else await save(input);
  };

  const conversion = useConfirmedAction(
    ({ input }: { input: CheckedEntity; report: DefinitionReport }) =>
      form.attempt(() => saveAskingRemovals(input)),
    failed,
  );

  const checkAndSave = form.submit(async (input) => {
    // A change of fields' types or rules is tried on the records first (a dry run): one
    // that some cannot follow lists them; one that converts values asks before saving.
    if (entity && settingsChanged(entity, input)) {
      const report = await checkEntityChange({ id: entity._id, ...input }).unwrap();
      if (report.failed > 0) {
        // An answer, not a fault: the form's alert lists them; nothing is logged.
        form.setError('root.server', {
          type: 'server',
          message: failedText(reportText(report, t)),
        });
        return;
      }
      if (report.converted > 0) return conversion.ask({ input, report });
    }
    await saveAskingRemovals(input);
  });

  return {
    form,
    fields,
    edit,
    success: success && t(success),
    isSaving: isCreating || isUpdating,
    submit: (event?: FormEvent) => {
      setSuccess(undefined);
      return checkAndSave(event);
    },
    fieldRemoval,
    conversion,
    history: entity && {
      endpoints: entityHistory,
      mayRead: mayReadVersions,
      shows: showsHistory,
      open: () => setShowsHistory(true),
      close: () => setShowsHistory(false),
      /** The form takes the restored definition. */
      restored: (restored: Entity) => {
        form.reset(fromEntity(restored));
        edit.rebase(restored);
        setSuccess('entities.restored');
      },
    },
    back: () => void navigate('/entities'),
  };
}
