import { z } from 'zod';
import { exportOptionsSchema, quickSearchSchema } from './exports';
import { AUDIT_PAGE_SIZE } from '../constants';
import { pageNumberSchema, perPageSchema } from './paging';
import { singleLineText } from './text';

/** What an audit event is about: the singular noun its action starts with. */
export const auditResourceSchema = z.enum([
  'auth',
  'book',
  'entity',
  'record',
  'user',
  'role',
  'route',
  'view',
]);

const VERSIONED = ['create', 'update', 'delete', 'restore'] as const;

/** Every action the server records (the filter takes any text, for actions yet to come). */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.register',
  'auth.refresh_reuse_detected',
  'auth.second_factor_failed',
  'auth.authenticator_on',
  'auth.authenticator_off',
  'auth.recovery_codes_renewed',
  'auth.passkey_added',
  'auth.passkey_removed',
  'auth.access_token_created',
  'auth.access_token_revoked',
  'auth.preview',
  ...VERSIONED.map((what) => `book.${what}` as const),
  ...VERSIONED.map((what) => `entity.${what}` as const),
  ...VERSIONED.map((what) => `record.${what}` as const),
  'record.import',
  'user.create',
  'user.update',
  'user.delete',
  'user.password_reset',
  'user.second_factor_reset',
  'user.import',
  'user.restore',
  'role.create',
  'role.update',
  'role.delete',
  'role.restore',
  'role.assign',
  'role.unassign',
  'route.update',
  'view.create',
  'view.update',
  'view.delete',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One event of the audit log: who (null when nobody was signed in), when, what
 * (`book.update`, `auth.login_failed`…), on which item, from where, and a sentence.
 */
export const auditEventSchema = z.object({
  _id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string().nullable(), name: z.string() }).nullable(),
  action: z.string(),
  resource: auditResourceSchema,
  resourceId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  summary: z.string(),
});

/** The filters of the audit log and its export: all optional; `from` ≤ at < `to`. */
export const auditFilterSchema = z.object({
  actor: singleLineText().trim().min(1, 'must not be empty').max(200).optional(),
  action: singleLineText().trim().min(1, 'must not be empty').max(100).optional(),
  resource: auditResourceSchema.optional(),
  from: z.iso.datetime({ offset: true, error: 'must be a date and time (ISO 8601)' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'must be a date and time (ISO 8601)' }).optional(),
  /** Every word in who, the action, what, the address or the browser (case-insensitive). */
  q: quickSearchSchema,
});

/** `GET /api/audit/export`: the log's filter, newest first, and the export's options. */
export const auditExportQuerySchema = auditFilterSchema.extend(exportOptionsSchema.shape);

/** `GET /api/audit?page&perPage&actor&action&resource&from&to`. */
export const auditQuerySchema = auditFilterSchema.extend({
  page: pageNumberSchema.default(1),
  perPage: perPageSchema(AUDIT_PAGE_SIZE),
});

/**
 * A page of the audit log, newest first. `total` counts the matches exactly up to
 * `AUDIT_COUNT_LIMIT`; beyond, it is that limit and `totalIsCapped` is true (narrow the
 * filter, or export, to reach older events).
 */
export const auditPageSchema = z.object({
  events: z.array(auditEventSchema),
  total: z.number().int(),
  totalIsCapped: z.boolean(),
});

export type AuditResource = z.infer<typeof auditResourceSchema>;
export type AuditEvent = z.infer<typeof auditEventSchema>;
export type AuditFilter = z.infer<typeof auditFilterSchema>;
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;
