import { type SQL, sql } from 'drizzle-orm';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import type { FieldError } from '@common/schemas/apiError';
import type { EntityField } from '@common/schemas/entities';
import {
  type FieldType,
  type FieldValue,
  isEmptyValue,
  valueSchemaOf,
} from '@common/schemas/fieldValues';
import {
  type AppliedPolicies,
  CREATED_BY,
  ME,
  POLICY_ACTIONS,
  type PolicyAction,
  type PolicyClause,
  type PolicyCondition,
  type PolicyUser,
  type RolePolicy,
  appliedPolicies,
} from '@common/schemas/policies';
import { AppError } from '../../lib/errors';
import { looksLikeUuid } from '../../lib/uuid';
import { SQL_TYPES, TEXT_TYPES, columnOf, literal, quoted, typeOf } from './recordTable';

/**
 * Record policies on the server: what a request's user may do to an entity's records, and
 * the SQL that holds a statement to it. Conditions become part of each statement's WHERE,
 * so pages, totals and writes only ever see the records the policy lets through.
 */

/** The route whose grants allow each action on records: what the policies narrow. */
export const POLICY_ROUTES: Record<PolicyAction, [verb: string, path: string]> = {
  read: ['GET', '/api/entity-records/:entityName'],
  create: ['POST', '/api/entity-records/:entityName'],
  update: ['PUT', '/api/entity-records/:entityName/:id'],
  delete: ['DELETE', '/api/entity-records/:entityName/:id'],
};

/** Who asks: the user, and which of their roles the route grants allow each action. */
export interface RecordAccess {
  user: PolicyUser;
  granted: (action: PolicyAction) => readonly string[];
}

/** The policies that narrow `access` on an entity; undefined when none does (or no access). */
export const appliedTo = (
  policies: readonly RolePolicy[],
  access: RecordAccess | undefined,
): AppliedPolicies | undefined =>
  access && policies.length ? appliedPolicies(policies, access.granted) : undefined;

/**
 * The records a statement may touch: those meeting one of `where` (fields read against all
 * of the entity's `fields`, hidden ones included), for `user`.
 */
export interface RowPolicy {
  fields: readonly EntityField[];
  where: readonly PolicyCondition[];
  user: PolicyUser;
}

/** SQL true for a record `policy` lets through (numbering its values with `parameter`). */
export const rowPolicySql = (
  { fields, where, user }: RowPolicy,
  parameter: (value: unknown, cast?: string) => string,
) => policySql(fields, where, user, parameter);

/**
 * SQL (drizzle's, its values bound) true for a record `policy` lets through: a row of its
 * table, or a version whose snapshot it is (`source`).
 */
export function boundPolicySql({ fields, where, user }: RowPolicy, source: RecordSource): SQL {
  const values: unknown[] = [];
  const text = policySql(
    fields,
    where,
    user,
    (value, cast = '') => {
      values.push(value);
      return `\uE000${values.length - 1}\uE000${cast}`;
    },
    source,
  );
  // Text and values, alternately: each value in its place as a bound parameter.
  const parts = text.split(/\uE000(\d+)\uE000/);
  return sql.join(
    parts.map((part, index) =>
      index % 2 ? sql`${sql.param(values[Number(part)])}` : sql.raw(part),
    ),
  );
}

/** Whether a clause's field is one of `fields` (or the creator): what meetsWhere asks. */
export const knownIn = (fields: readonly EntityField[]) => (name: string) =>
  name === CREATED_BY || fields.some((field) => field.name === name);

/** Field types a policy compares by order (`lt`, `gt`). */
const ORDERED_TYPES: readonly FieldType[] = ['number', 'integer', 'date', 'datetime'];

/** How a clause's field reads in SQL: its column, type, and the values it holds. */
interface ClauseTarget {
  column: string;
  type: FieldType | 'creator';
  /** The entity's field (none for the creator). */
  field?: EntityField;
}

function targetOf(fields: readonly EntityField[], name: string): ClauseTarget | undefined {
  if (name === CREATED_BY) return { column: 'created_by', type: 'creator' };
  const field = fields.find((candidate) => candidate.name === name);
  return field && { column: quoted(columnOf(field.name)), type: typeOf(field), field };
}

const sqlTypeOf = (type: ClauseTarget['type']) => (type === 'creator' ? 'uuid' : SQL_TYPES[type]);

/** Whether `value` (`$me` resolved) is one the target's column holds. */
const holds = ({ field }: ClauseTarget, value: unknown) =>
  field
    ? valueSchemaOf(field).safeParse(value).success
    : typeof value === 'string' && looksLikeUuid(value);

/** Where a condition reads a record: its table's typed columns, or a version's snapshot. */
export type RecordSource = 'table' | 'snapshot';

/** A version's snapshot of a record (`versions.document`, jsonb), as a statement names it. */
const SNAPSHOT = '"versions"."document"';

/**
 * SQL true for a record (its table's columns, unqualified; or, from `snapshot`, a version's
 * document) that meets one of `where`. A clause on a field the entity no longer has, or
 * with a value its type no longer holds, is false: a policy that cannot be read lets
 * nothing through.
 */
export function policySql(
  fields: readonly EntityField[],
  where: readonly PolicyCondition[],
  me: PolicyUser,
  parameter: (value: unknown, cast?: string) => string,
  source: RecordSource = 'table',
): string {
  const clause = ({ field, op, value }: PolicyClause): string => {
    const target = targetOf(fields, field);
    if (!target) return 'false';
    const { column, type } = target;
    const resolve = (one: unknown) =>
      one === ME ? (type === 'creator' ? me.id : me.username) : one;
    if (source === 'snapshot') return snapshotClause(target, op, value, resolve, parameter);
    if (op === 'empty') {
      const empty = TEXT_TYPES.includes(type as FieldType)
        ? `(${column} is null or btrim(${column}) = '')`
        : `${column} is null`;
      return value === false ? `not ${empty}` : empty;
    }
    const cast = `::${sqlTypeOf(type)}`;
    if (op === 'in') {
      const values = (Array.isArray(value) ? value : [value]).map(resolve);
      const kept = values.filter((one) => holds(target, one));
      return kept.length ? `${column} = any(${parameter(kept, `${cast}[]`)})` : 'false';
    }
    const resolved = resolve(value);
    if (!holds(target, resolved)) return 'false';
    if (op === 'ne') return `${column} is distinct from ${parameter(resolved, cast)}`;
    const compared = { eq: '=', lt: '<', gt: '>' }[op];
    return `${column} ${compared} ${parameter(resolved, cast)}`;
  };
  const conditions = where.map(
    ({ match, clauses }) => `(${clauses.map(clause).join(match === 'all' ? ' and ' : ' or ')})`,
  );
  return `(${conditions.join(' or ')})`;
}

/**
 * A clause on a version's snapshot, its values compared as JSON values, as `meetsCondition`
 * compares them (a snapshot may hold a value of a type its field has since left: it is then
 * unequal, and neither less nor more).
 */
function snapshotClause(
  target: ClauseTarget,
  op: PolicyClause['op'],
  value: PolicyClause['value'],
  resolve: (one: unknown) => unknown,
  parameter: (value: unknown, cast?: string) => string,
): string {
  const column = target.field
    ? `(${SNAPSHOT}->'fields'->${literal(target.field.name)})`
    : `(${SNAPSHOT}->'_createdBy')`;
  const json = (one: unknown) => parameter(JSON.stringify(one), '::jsonb');
  if (op === 'empty') {
    const empty = `(${column} is null or ${column} = 'null'::jsonb
      or (jsonb_typeof(${column}) = 'string' and btrim(${column} #>> '{}') = ''))`;
    return value === false ? `not ${empty}` : empty;
  }
  if (op === 'in') {
    const values = (Array.isArray(value) ? value : [value]).map(resolve);
    const kept = values.filter((one) => holds(target, one));
    return kept.length ? `${json(kept)} @> jsonb_build_array(${column})` : 'false';
  }
  const resolved = resolve(value);
  if (!holds(target, resolved)) return 'false';
  if (op === 'eq') return `${column} = ${json(resolved)}`;
  if (op === 'ne') return `${column} is distinct from ${json(resolved)}`;
  const compared = json(resolved);
  return `(jsonb_typeof(${column}) = jsonb_typeof(${compared})
    and ${column} ${op === 'lt' ? '<' : '>'} ${compared})`;
}

/**
 * What is wrong with `policies` for an entity of `fields` among the roles `roleNames`, each
 * at its path under `body.policies`. The admin role takes none: no policy may lock the
 * admins out of an entity's records.
 */
export function policyProblems(
  fields: readonly EntityField[],
  policies: readonly RolePolicy[],
  roleNames: ReadonlySet<string>,
): FieldError[] {
  const problems: FieldError[] = [];
  const at = (path: (string | number)[], message: string) =>
    problems.push({ field: ['body', 'policies', ...path].join('.'), message });
  policies.forEach((policy, index) => {
    if (policy.role === ADMIN_ROLE) at([index, 'role'], messages.policy.adminRole);
    else if (!roleNames.has(policy.role)) at([index, 'role'], 'is not a role');
    for (const action of POLICY_ACTIONS) {
      policy[action]?.clauses.forEach((clause, n) => {
        const path = [index, action, 'clauses', n];
        const target = targetOf(fields, clause.field);
        if (!target) return at([...path, 'field'], messages.policy.notAField);
        const problem = clauseProblem(target, clause);
        if (problem) at([...path, problem[0]], problem[1]);
      });
    }
    for (const name of Object.keys(policy.fields ?? {})) {
      if (!fields.some((field) => field.name === name))
        at([index, 'fields', name], messages.policy.notAField);
    }
  });
  return problems;
}

/**
 * `policies` (without problems) with each clause's values as the field holds them: a
 * datetime in UTC as records answer it, a user id in lower case. The screens then compare
 * them with records' values as the SQL does.
 */
export function storedPolicies(
  fields: readonly EntityField[],
  policies: readonly RolePolicy[],
): RolePolicy[] {
  const stored = (target: ClauseTarget, one: FieldValue): FieldValue => {
    if (one === ME) return one;
    if (!target.field) return String(one).toLowerCase();
    const parsed = valueSchemaOf(target.field).safeParse(one);
    return parsed.success ? parsed.data : one;
  };
  return policies.map((policy) => {
    const kept: RolePolicy = { ...policy };
    for (const action of POLICY_ACTIONS) {
      const condition = policy[action];
      if (!condition) continue;
      kept[action] = {
        ...condition,
        clauses: condition.clauses.map((clause) => {
          const target = targetOf(fields, clause.field);
          if (!target || clause.op === 'empty' || clause.value === undefined) return clause;
          const { value } = clause;
          return {
            ...clause,
            value: Array.isArray(value)
              ? value.map((one) => stored(target, one))
              : stored(target, value),
          };
        }),
      };
    }
    return kept;
  });
}

/** What is wrong with a clause on `target`, as [its key, message]; undefined: nothing. */
function clauseProblem(
  target: ClauseTarget,
  { op, value }: PolicyClause,
): [string, string] | undefined {
  const { type, field } = target;
  if (op === 'empty')
    return typeof value === 'boolean' ? undefined : ['value', 'must be true or false'];
  if ((op === 'lt' || op === 'gt') && !ORDERED_TYPES.includes(type as FieldType))
    return ['op', messages.policy.ordered];
  if (op === 'in' && !Array.isArray(value)) return ['value', messages.policy.list];
  if (op !== 'in' && Array.isArray(value)) return ['value', messages.policy.oneValue];
  for (const one of Array.isArray(value) ? value : [value]) {
    if (one === ME) {
      if (type !== 'creator' && !TEXT_TYPES.includes(type as FieldType))
        return ['value', messages.policy.meIsAUser];
    } else if (!field) {
      if (!holds(target, one)) return ['value', messages.policy.creator];
    } else {
      const parsed = valueSchemaOf(field).safeParse(one);
      if (!parsed.success) return ['value', parsed.error.issues[0]!.message];
    }
  }
  return undefined;
}

/**
 * What the policies let `access` do to an entity's records for a write `action`: `where`, the
 * records it may write (null: all), `readWhere`, those it may see (a record it may not see
 * is, to it, not there), and `restricted`, the fields it may not set (read-only, and hidden:
 * what it cannot see it cannot change).
 */
export function writeScope(
  policies: readonly RolePolicy[],
  access: RecordAccess | undefined,
  action: 'create' | 'update' | 'delete',
) {
  const applied = appliedTo(policies, access);
  const readOnly = action === 'delete' ? [] : (applied?.[action]?.readOnly ?? []);
  const roles = applied?.[action]?.roles ?? [];
  return {
    user: access?.user,
    where: applied?.[action]?.where ?? null,
    readWhere: applied?.read?.where ?? null,
    hidden: new Set(applied?.read?.hidden),
    restricted: new Set([...(applied?.read?.hidden ?? []), ...readOnly]),
    /** The roles whose policies narrow the action (what a refusal names). */
    roles,
    /** The roles whose policies keep fields from the writer. */
    fieldRoles: [...new Set([...(applied?.read?.roles ?? []), ...roles])].sort(),
  };
}
export type WriteScope = ReturnType<typeof writeScope>;

/**
 * SQL true for a record meeting one of `where` for `scope`'s user, its values numbered from
 * `$taken + 1`; undefined when `where` is null (every record does).
 */
export function scopeCondition(
  fields: readonly EntityField[],
  where: readonly PolicyCondition[] | null,
  scope: { user?: PolicyUser },
  taken: number,
): { sql: string; values: unknown[] } | undefined {
  if (!where || !scope.user) return undefined;
  const values: unknown[] = [];
  const sql = policySql(fields, where, scope.user, (value, cast = '') => {
    values.push(value);
    return `$${taken + values.length}${cast}`;
  });
  return { sql, values };
}

/** Two values of `field` that say the same (a blank and no value do; a moment in any zone). */
function sameValue(field: EntityField, a: unknown, b: unknown) {
  const read = (value: unknown) => {
    if (isEmptyValue(value)) return null;
    const parsed = valueSchemaOf(field).safeParse(value);
    return parsed.success ? parsed.data : value;
  };
  return JSON.stringify(read(a)) === JSON.stringify(read(b));
}

/**
 * A write's `input` with the fields `scope` may not set at the values they have (`current`:
 * the record's, or for a new one the defaults). @throws 403 POLICY_DENIED naming those it
 * would set to another value, and the hidden ones it gives at all.
 */
export function keepRestricted(
  fields: readonly EntityField[],
  input: Record<string, unknown>,
  current: Record<string, unknown>,
  scope: WriteScope,
): Record<string, unknown> {
  if (!scope.restricted.size) return input;
  const restricted = fields.filter((field) => scope.restricted.has(field.name));
  // A hidden field given at all is refused: told apart, a value equal to the stored one
  // and another would tell the writer what it may not read.
  const refused = restricted.filter(
    (field) =>
      Object.hasOwn(input, field.name) &&
      (scope.hidden.has(field.name) || !sameValue(field, input[field.name], current[field.name])),
  );
  if (refused.length) throw fieldsDenied(refused, scope.fieldRoles);
  return {
    ...input,
    ...Object.fromEntries(restricted.map((field) => [field.name, current[field.name] ?? null])),
  };
}

/**
 * A record (or a version's snapshot) without the fields `hidden` names, in its values and
 * in its relations' display values.
 */
export function withoutHidden<T extends { fields?: unknown; _display?: unknown }>(
  record: T,
  hidden: ReadonlySet<string>,
): T {
  if (!hidden.size) return record;
  const kept = (values: unknown) =>
    values && typeof values === 'object'
      ? Object.fromEntries(Object.entries(values).filter(([name]) => !hidden.has(name)))
      : values;
  return {
    ...record,
    ...(record.fields === undefined ? {} : { fields: kept(record.fields) }),
    ...(record._display === undefined ? {} : { _display: kept(record._display) }),
  };
}

/** 403 POLICY_DENIED: the policy of `action` of `roles` does not allow the record. */
export const policyDenied = (
  action: PolicyAction,
  roles: readonly string[],
  { result = false } = {},
) =>
  new AppError(
    403,
    'POLICY_DENIED',
    (result ? messages.server.policyDeniedResult : messages.server.policyDenied)(action, [
      ...roles,
    ]),
  );

/** 403 POLICY_DENIED: `fields` are ones the roles' policies do not let them set. */
export const fieldsDenied = (fields: readonly EntityField[], roles: readonly string[]) => {
  const message = messages.server.policyFields(
    fields.map((field) => field.label || field.name),
    [...roles],
  );
  return new AppError(403, 'POLICY_DENIED', message, {
    fields: fields.map((field) => ({ field: `body.fields.${field.name}`, message })),
  });
};
