import { type FormEvent, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import { type Entity } from '@common/schemas/entities';
import { errorCode, errorMessage } from '@/api/errors';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useVersionedEdit } from '@/hooks/useVersionedEdit';
import { useT } from '@/i18n/useT';
import { useGetEntityQuery, useUpdateEntityPoliciesMutation } from './entities.api';
import {
  type AccessFormValues,
  accessForm,
  accessFormSchema,
  policiesOf,
  policyForm,
} from './policyForm';

const valuesOf = (entity: Entity) => accessForm(entity.policies, entity.fields);

/**
 * The Access form's controller: an entity's record policies as a form (one per role), saved
 * on the one edit machine (a policy change is a change of the entity: another person's save
 * meanwhile is a conflict to resolve, not overwritten).
 */
export function useAccessForm(entity: Entity) {
  const t = useT();
  const navigate = useNavigate();
  const [saved, setSaved] = useState(false);
  const [updatePolicies, { isLoading: isSaving }] = useUpdateEntityPoliciesMutation();
  const entityQuery = useGetEntityQuery(entity._id);
  const current = () => entityQuery.data ?? entity;
  const form = useSchemaForm(accessFormSchema, {
    defaultValues: valuesOf(entity),
    errorContext: messages.entities.policiesFailed,
    failureText: (error, placed) =>
      placed ? t('access.saveFailed') : t('access.saveFailedWith', { reason: errorMessage(error) }),
  });
  const policies = useFieldArray({ control: form.control, name: 'policies' });

  const edit = useVersionedEdit<Entity, AccessFormValues>({
    resource: 'entities',
    editingId: form.formState.isDirty ? entity._id : undefined,
    startsFrom: entity,
    itemOf: () => entityQuery.data,
    valuesOf,
    typedValues: () => form.getValues(),
    send: (id, values, version) =>
      updatePolicies({
        id,
        name: entity.name,
        policies: policiesOf(values, current().fields),
        _version: version,
      }).unwrap(),
    isGone: () => errorCode(entityQuery.error) === 'NOT_FOUND',
    errorContext: messages.entities.policiesFailed,
    onSettled: (_id, stored, kept) => {
      form.reset(valuesOf(stored));
      setSaved(kept === 'mine');
    },
    onDiscarded: () => void navigate('/entities'),
    show: (_id, values) => form.reset(values, { keepDefaultValues: true }),
    isDirty: () => form.formState.isDirty,
  });

  const save = form.submit(async (values) => {
    const stored = await edit.submit(entity._id, values);
    if (!stored) return; // A conflict or a deletion: the notices say so.
    form.reset(valuesOf(stored));
    setSaved(true);
  });

  return {
    form,
    policies,
    edit,
    isSaving,
    saved: saved && !form.formState.isDirty,
    /** Roles of `names` that have no policy yet and may take one (never admin's). */
    rolesWithout: (names: readonly string[]) =>
      names.filter(
        (name) => name !== ADMIN_ROLE && !policies.fields.some((policy) => policy.role === name),
      ),
    addPolicy: (role: string) => policies.append(policyForm({ role }, current().fields)),
    submit: (event?: FormEvent) => {
      setSaved(false);
      return save(event);
    },
  };
}
