import { z } from 'zod';
import { messages } from '../messages';
import { baseVersionField } from './itemVersion';
import { multiLineText, nameText } from './text';

/**
 * Record policies: per entity and role, which records each action may touch (a condition on
 * the record) and which fields are hidden or read-only. A role with no policy on an entity
 * keeps what its route grants give; a policy only narrows them (DESIGN.md, "Record policies").
 */

/** What a policy governs: reading records, and each kind of write. */
export const POLICY_ACTIONS = ['read', 'create', 'update', 'delete'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** The comparisons a condition's clause may make. */
export const POLICY_OPS = ['eq', 'ne', 'in', 'lt', 'gt', 'empty'] as const;
export type PolicyOp = (typeof POLICY_OPS)[number];

/**
 * A value standing for the signed-in user: their id against {@link CREATED_BY}, their
 * username against a text field.
 */
export const ME = '$me';

/** The record's creator (a user id, set by the server), as a clause's field. */
export const CREATED_BY = '_createdBy';

/** How a policy restricts a field. */
export const FIELD_RESTRICTIONS = ['hidden', 'readOnly'] as const;
export type FieldRestriction = (typeof FIELD_RESTRICTIONS)[number];

/** A clause's text values: as a record's text holds them. */
const valueText = multiLineText().max(10_000, 'must be at most 10,000 characters');
const valueSchema = z.union([z.string(), z.number(), z.boolean()]);

const clauseSchema = z
  .object({
    field: nameText().min(1, 'is required').max(64, 'must be at most 64 characters'),
    op: z.enum(POLICY_OPS, { error: `must be one of ${POLICY_OPS.join(', ')}` }),
    /** The value compared with (a list for `in`; true or false for `empty`). */
    value: z.union([valueSchema, z.array(valueSchema).max(100)]).optional(),
  })
  // A text value is held to the texts' rules, named at its place (a union would only say
  // that none of its kinds fits).
  .superRefine(({ value }, ctx) => {
    const ones = Array.isArray(value) ? value : [value];
    ones.forEach((one, index) => {
      if (typeof one !== 'string') return;
      const checked = valueText.safeParse(one);
      if (!checked.success)
        ctx.addIssue({
          code: 'custom',
          path: Array.isArray(value) ? ['value', index] : ['value'],
          message: checked.error.issues[0]!.message,
        });
    });
  });
export type PolicyClause = z.infer<typeof clauseSchema>;

/** A condition on a record: all of its clauses, or any of them. */
export const policyConditionSchema = z.object({
  match: z.enum(['all', 'any'], { error: messages.policy.allOrAny }),
  clauses: z.array(clauseSchema).min(1, messages.policy.oneClause).max(20),
});
export type PolicyCondition = z.infer<typeof policyConditionSchema>;

/** A role's policy on an entity: a condition per action (absent: every record), and fields. */
export const rolePolicySchema = z.object({
  role: nameText().min(1, 'is required').max(64, 'must be at most 64 characters'),
  read: policyConditionSchema.optional(),
  create: policyConditionSchema.optional(),
  update: policyConditionSchema.optional(),
  delete: policyConditionSchema.optional(),
  fields: z
    .record(
      nameText().max(64, 'must be at most 64 characters'),
      z.enum(FIELD_RESTRICTIONS, { error: messages.policy.restriction }),
    )
    .optional(),
});
export type RolePolicy = z.infer<typeof rolePolicySchema>;

/** An entity's policies, one per role at most. */
export const entityPoliciesSchema = z
  .array(rolePolicySchema)
  .max(100)
  .superRefine((policies, ctx) => {
    const seen = new Set<string>();
    policies.forEach(({ role }, index) => {
      if (seen.has(role))
        ctx.addIssue({ code: 'custom', path: [index, 'role'], message: messages.policy.roleTwice });
      seen.add(role);
    });
  });

/** `PUT /api/entities/{id}/policies`. */
export const entityPoliciesInputSchema = z.object({
  policies: entityPoliciesSchema,
  ...baseVersionField,
});

/** The conditions a record must meet one of (null: every record does). */
const whereSchema = z.array(policyConditionSchema).nullable();

/**
 * What the policies of an entity let the caller do, for the actions their route grants
 * allow (an action they may not call at all is absent): `where`, the conditions a record
 * must meet one of (null: every record); `hidden`, the fields they cannot read; `readOnly`,
 * those they cannot write; `roles`, the roles whose policies narrow the action (what a
 * refusal names).
 */
export const appliedPoliciesSchema = z.object({
  read: z
    .object({ where: whereSchema, hidden: z.array(z.string()), roles: z.array(z.string()) })
    .optional(),
  create: z
    .object({ where: whereSchema, readOnly: z.array(z.string()), roles: z.array(z.string()) })
    .optional(),
  update: z
    .object({ where: whereSchema, readOnly: z.array(z.string()), roles: z.array(z.string()) })
    .optional(),
  delete: z.object({ where: whereSchema, roles: z.array(z.string()) }).optional(),
});
export type AppliedPolicies = z.infer<typeof appliedPoliciesSchema>;

/**
 * The policies that apply to a user on an entity: `granted(action)` names the user's roles
 * whose route grants allow the action. A role without a policy lifts every restriction of
 * the actions it is granted: the user may do what any of their roles may (so with two
 * roles, one seeing every record and the other every field, they see every field of every
 * record). Undefined when nothing narrows the user.
 */
export function appliedPolicies(
  policies: readonly RolePolicy[],
  granted: (action: PolicyAction) => readonly string[],
): AppliedPolicies | undefined {
  const byRole = new Map(policies.map((policy) => [policy.role, policy]));
  const applied: AppliedPolicies = {};
  let narrows = false;
  for (const action of POLICY_ACTIONS) {
    const roles = granted(action);
    if (!roles.length) continue;
    const own = roles.map((role) => byRole.get(role));
    const unrestricted = own.some((policy) => !policy || !policy[action]);
    const where = unrestricted ? null : own.map((policy) => policy![action]!);
    // A field is kept from the user only when each granted role keeps it from them.
    const keptBy = (restricted: (policy: RolePolicy, field: string) => boolean) => {
      if (own.some((policy) => !policy)) return [];
      const fields = new Set(own.flatMap((policy) => Object.keys(policy!.fields ?? {})));
      return [...fields]
        .filter((field) => own.every((policy) => restricted(policy!, field)))
        .sort();
    };
    const kept =
      action === 'delete'
        ? []
        : keptBy((p, f) =>
            action === 'read' ? p.fields?.[f] === 'hidden' : p.fields?.[f] !== undefined,
          );
    const narrowing = own
      .filter((policy) => policy && (policy[action] || (action !== 'delete' && kept.length)))
      .map((policy) => policy!.role)
      .sort();
    narrows ||= where !== null || kept.length > 0;
    if (action === 'read') applied.read = { where, hidden: kept, roles: narrowing };
    else if (action === 'delete') applied.delete = { where, roles: narrowing };
    else applied[action] = { where, readOnly: kept, roles: narrowing };
  }
  return narrows ? applied : undefined;
}

/** The signed-in user, as `$me` stands for them. */
export interface PolicyUser {
  id: string;
  username: string;
}

/**
 * Whether a record meets a condition (the server's SQL, read in JavaScript: for the screens,
 * and for snapshots): `values` by field name, with {@link CREATED_BY}. A clause on a field
 * not `known` (deleted since) is false, as in SQL.
 */
export function meetsCondition(
  condition: PolicyCondition,
  values: Record<string, unknown>,
  me: PolicyUser,
  known: (field: string) => boolean = () => true,
): boolean {
  const test = ({ field, op, value }: PolicyClause) => {
    if (!known(field)) return false;
    const actual = values[field] ?? null;
    const blank = actual === null || (typeof actual === 'string' && actual.trim() === '');
    const wanted = (one: unknown) =>
      one === ME ? (field === CREATED_BY ? me.id : me.username) : one;
    switch (op) {
      case 'empty':
        return value === false ? !blank : blank;
      case 'eq':
        return actual !== null && actual === wanted(value);
      case 'ne':
        return actual !== wanted(value);
      case 'in':
        return actual !== null && Array.isArray(value) && value.map(wanted).includes(actual);
      case 'lt':
        return actual !== null && (actual as number | string) < (wanted(value) as number | string);
      case 'gt':
        return actual !== null && (actual as number | string) > (wanted(value) as number | string);
    }
  };
  return condition.match === 'all' ? condition.clauses.every(test) : condition.clauses.some(test);
}

/** Whether a record meets an applied `where` (null: every record does). */
export const meetsWhere = (
  where: readonly PolicyCondition[] | null | undefined,
  values: Record<string, unknown>,
  me: PolicyUser,
  known?: (field: string) => boolean,
) => !where || where.some((condition) => meetsCondition(condition, values, me, known));
