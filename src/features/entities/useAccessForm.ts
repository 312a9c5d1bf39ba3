import { type FormEvent, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import { type Entity } from '@common/schemas/entities';
import { errorCode, errorMessage } from '@/api/errors';
import { useCan } from '@/auth/useCan';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useVersionedEdit } from '@/hooks/useVersionedEdit';
import { useT } from '@/i18n/useT';
import {
  useGetEntityQuery,
  useRestoreEntityVersionMutation,
  useUpdateEntityPoliciesMutation,
} from './entities.api';
import {
  type AccessFormValues,
  type ConditionForm,
  type PolicyForm,
  accessForm,
  accessFormSchema,
  policiesOf,
  policyForm,
} from './policyForm';

const formOf = (entity: Entity) => accessForm(entity.policies, entity.fields);

/**
 * What the edit machine compares and rebases: each role's policy under its name, so that a
 * save over another admin's keeps their changes to the roles I left alone (a role absent:
 * no policy).
 */
type AccessValues = Record<string, PolicyForm | undefined>;
const byRole = ({ policies }: AccessFormValues): AccessValues =>
  Object.fromEntries(policies.map((policy) => [policy.role, canonical(policy)]));

/** A policy with its keys in one order: the form keeps them in its own, and a comparison reads JSON. */
const canonical = (policy: PolicyForm): PolicyForm => ({
  role: policy.role,
  read: conditionOf(policy.read),
  create: conditionOf(policy.create),
  update: conditionOf(policy.update),
  delete: conditionOf(policy.delete),
  fields: Object.fromEntries(
    Object.keys(policy.fields)
      .sort()
      .map((name) => [name, policy.fields[name]!]),
  ),
});
const conditionOf = ({ scope, clauses }: ConditionForm): ConditionForm => ({
  scope,
  clauses: clauses.map(({ field, op, value }) => ({ field, op, value })),
});
const inForm = (values: AccessValues): AccessFormValues => ({
  policies: Object.values(values).filter((policy) => policy !== undefined),
});

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
  const mayReadVersions = useCan('GET', '/api/entities/:id/versions');
  const mayRestore = useCan('POST', '/api/entities/:id/versions/:versionId/restore');
  const [restoreEntity] = useRestoreEntityVersionMutation();
  const form = useSchemaForm(accessFormSchema, {
    defaultValues: formOf(entity),
    errorContext: messages.entities.policiesFailed,
    failureText: (error, placed) =>
      placed ? t('access.saveFailed') : t('access.saveFailedWith', { reason: errorMessage(error) }),
  });
  const policies = useFieldArray({ control: form.control, name: 'policies' });

  const edit = useVersionedEdit<Entity, AccessValues>({
    resource: 'entities',
    editingId: form.formState.isDirty ? entity._id : undefined,
    startsFrom: entity,
    itemOf: () => entityQuery.data,
    valuesOf: (item) => byRole(formOf(item)),
    typedValues: () => byRole(form.getValues()),
    send: (id, values, version) =>
      updatePolicies({
        id,
        name: entity.name,
        policies: policiesOf(inForm(values), current().fields),
        _version: version,
      }).unwrap(),
    // A deleted entity comes back as it was deleted, then takes these policies.
    restore:
      mayRestore && mayReadVersions
        ? (id) => restoreEntity({ id, name: entity.name }).unwrap()
        : undefined,
    isGone: () => errorCode(entityQuery.error) === 'NOT_FOUND',
    errorContext: messages.entities.policiesFailed,
    onSettled: (_id, stored, kept) => {
      form.reset(formOf(stored));
      setSaved(kept === 'mine');
    },
    onDiscarded: () => void navigate('/entities'),
    show: (_id, values) => form.reset(inForm(values), { keepDefaultValues: true }),
    isDirty: () => form.formState.isDirty,
  });

  const save = form.submit(async (values) => {
    const stored = await edit.submit(entity._id, byRole(values));
    if (!stored) return; // A conflict or a deletion: the notices say so.
    form.reset(formOf(stored));
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
