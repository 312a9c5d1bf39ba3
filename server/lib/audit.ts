import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditResource } from '@common/schemas/audit';
import type { Db, Tx } from '../db/client';
import { auditEvents } from '../db/schema/auditEvents';

/** Who makes a change and from where: what the version history and the audit log record. */
export interface Actor {
  /** The user's id and name; null when nobody is signed in (a failed sign-in). */
  id: string | null;
  name: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** The longest user agent kept: the header is the client's to fill. */
const USER_AGENT_MAX = 500;

/**
 * The signed-in user of a request, and where it came from; `user` names someone else (the
 * user a sign-in is for, or null for nobody).
 */
export function actorOf(
  request: FastifyRequest,
  user: { _id: string; username: string } | null = request.user,
): Actor {
  const userAgent = request.headers['user-agent'];
  return {
    id: user?._id ?? null,
    name: user?.username ?? null,
    ip: request.ip || null,
    userAgent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
  };
}

/** An event of the audit log: `action` is `<resource>.<what happened>`. */
export interface AuditEntry {
  action: AuditAction;
  resourceId?: string | null;
  summary: string;
}

/**
 * Writes audit events. Call it with the transaction that made the change, so the change
 * and its events commit together or not at all. An actor with no id is anonymous.
 */
export async function recordAudit(tx: Tx | Db, actor: Actor, ...entries: AuditEntry[]) {
  if (entries.length === 0) return;
  await tx.insert(auditEvents).values(
    entries.map(({ action, resourceId = null, summary }) => ({
      actorId: actor.id,
      actorName: actor.name,
      action,
      resource: action.slice(0, action.indexOf('.')) as AuditResource,
      resourceId,
      ip: actor.ip,
      userAgent: actor.userAgent,
      summary,
    })),
  );
}
