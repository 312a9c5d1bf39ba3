import { z } from 'zod';
import type { EntityField } from '@common/schemas/entities';
import {
  CREATED_BY,
  ME,
  POLICY_ACTIONS,
  POLICY_OPS,
  type PolicyClause,
  type PolicyCondition,
  type RolePolicy,
} from '@common/schemas/policies';

/**
 * The Access form's values: the entity's record policies as inputs hold them. Each part sits
 * at the path its wire form has (`policies.1.read.clauses.0.value`), so a refusal that names
 * a part lands under its input; values are typed text, made the field's type on sending.
 */

/** Which records an action may touch: every one, or those meeting all or any clauses. */
export const SCOPES = ['every', 'all', 'any'] as const;
export type Scope = (typeof SCOPES)[number];

/** What a field is to the role: as the route grants give it, read-only, or hidden. */
export const ACCESS_LEVELS = ['full', 'readOnly', 'hidden'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

const clauseFormSchema = z.object({
  field: z.string(),
  op: z.enum(POLICY_OPS),
  value: z.string(),
});
export type ClauseForm = z.infer<typeof clauseFormSchema>;

const conditionFormSchema = z.object({
  scope: z.enum(SCOPES),
  clauses: z.array(clauseFormSchema),
});
export type ConditionForm = z.infer<typeof conditionFormSchema>;

const policyFormSchema = z.object({
  role: z.string(),
  read: conditionFormSchema,
  create: conditionFormSchema,
  update: conditionFormSchema,
  delete: conditionFormSchema,
  fields: z.record(z.string(), z.enum(ACCESS_LEVELS)),
});
export type PolicyForm = z.infer<typeof policyFormSchema>;

/** The form: what it checks before sending is only its shape; the server checks the rest. */
export const accessFormSchema = z.object({ policies: z.array(policyFormSchema) });
export type AccessFormValues = z.infer<typeof accessFormSchema>;

/** A new clause: the common case, records the user created. */
export const blankClause = (): ClauseForm => ({ field: CREATED_BY, op: 'eq', value: ME });

const valueText = (value: PolicyClause['value']): string =>
  Array.isArray(value) ? value.map(String).join(', ') : value === undefined ? '' : String(value);

const conditionForm = (condition?: PolicyCondition): ConditionForm =>
  condition
    ? {
        scope: condition.match,
        clauses: condition.clauses.map(({ field, op, value }) => ({
          field,
          op,
          value: valueText(value),
        })),
      }
    : { scope: 'every', clauses: [] };

/** A role's policy as the form holds it: every field listed, unrestricted ones as `full`. */
export function policyForm(policy: RolePolicy, fields: readonly EntityField[]): PolicyForm {
  const form = { role: policy.role, fields: {} } as PolicyForm;
  for (const action of POLICY_ACTIONS) form[action] = conditionForm(policy[action]);
  for (const { name } of fields) form.fields[name] = policy.fields?.[name] ?? 'full';
  return form;
}

/** The entity's policies as the form holds them. */
export const accessForm = (
  policies: readonly RolePolicy[] = [],
  fields: readonly EntityField[],
): AccessFormValues => ({ policies: policies.map((policy) => policyForm(policy, fields)) });

/** One typed value as the field holds it: `$me` stays itself; text the server refuses stays text. */
function typedValue(text: string, field: EntityField | undefined): string | number | boolean {
  const trimmed = text.trim();
  if (trimmed === ME || !field) return trimmed;
  switch (field.type) {
    case 'number':
    case 'integer':
      return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
    case 'boolean':
      return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
    default:
      return trimmed;
  }
}

function clause({ field, op, value }: ClauseForm, fields: readonly EntityField[]): PolicyClause {
  const typed = fields.find((one) => one.name === field);
  if (op === 'empty') return { field, op, value: value !== 'false' };
  if (op === 'in')
    return {
      field,
      op,
      value: value
        .split(',')
        .filter((one) => one.trim() !== '')
        .map((one) => typedValue(one, typed)),
    };
  return { field, op, value: typedValue(value, typed) };
}

/** The form's policies as the server takes them (`PUT /api/entities/{id}/policies`). */
export function policiesOf(values: AccessFormValues, fields: readonly EntityField[]): RolePolicy[] {
  return values.policies.map((form) => {
    const policy: RolePolicy = { role: form.role };
    for (const action of POLICY_ACTIONS) {
      const { scope, clauses } = form[action];
      if (scope !== 'every')
        policy[action] = { match: scope, clauses: clauses.map((one) => clause(one, fields)) };
    }
    const restricted = Object.entries(form.fields).filter(
      (entry): entry is [string, 'hidden' | 'readOnly'] => entry[1] !== 'full',
    );
    if (restricted.length) policy.fields = Object.fromEntries(restricted);
    return policy;
  });
}
