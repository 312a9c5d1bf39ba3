import { and, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { AUDIT_COUNT_LIMIT } from '@common/constants';
import type { AuditEvent, AuditFilter, AuditPage, AuditQuery } from '@common/schemas/audit';
import type { Db } from '../../db/client';
import { auditEvents } from '../../db/schema/auditEvents';
import { foldedName } from '../../lib/nameRules';
import { looksLikeUuid } from '../../lib/uuid';

type AuditRow = typeof auditEvents.$inferSelect;

const toWire = (row: AuditRow): AuditEvent => ({
  _id: row.id,
  at: row.at.toISOString(),
  actor: row.actorName === null ? null : { id: row.actorId, name: row.actorName },
  action: row.action,
  resource: row.resource,
  resourceId: row.resourceId,
  ip: row.ip,
  userAgent: row.userAgent,
  summary: row.summary,
});

/**
 * Events by the actor named `name`, as people read names: whatever its capitals or Unicode
 * form (`Admin`, `ＡＤＭＩＮ`), as the actor indexes have it.
 */
const actorNamed = (name: string) =>
  sql`${foldedName(auditEvents.actorName)} = ${foldedName(name)}`;

/** The conditions of a filter: `actor` is a user's id or their username. */
function matching({ actor, action, resource, from, to, q }: AuditFilter): SQL | undefined {
  const shown = sql`coalesce(${auditEvents.actorName}, '') || ' ' || ${auditEvents.action} || ' ' || ${auditEvents.summary} || ' ' || coalesce(${auditEvents.ip}, '') || ' ' || coalesce(${auditEvents.userAgent}, '')`;
  const words = (q ?? '').split(/\s+/).filter(Boolean);
  return and(
    ...words.map((word) => sql`strpos(lower(${shown}), lower(${word})) > 0`),
    actor === undefined
      ? undefined
      : looksLikeUuid(actor)
        ? or(eq(auditEvents.actorId, actor), actorNamed(actor))
        : actorNamed(actor),
    action === undefined ? undefined : eq(auditEvents.action, action),
    resource === undefined ? undefined : eq(auditEvents.resource, resource),
    from === undefined ? undefined : gte(auditEvents.at, new Date(from)),
    to === undefined ? undefined : lt(auditEvents.at, new Date(to)),
  );
}

// NULLS LAST as the indexes have it: PostgreSQL's DESC means NULLS FIRST, and an order
// that differs from the index's is sorted instead (a second, not a millisecond, at 1M events).
const newestFirst = [
  sql`${auditEvents.at} desc nulls last`,
  sql`${auditEvents.id} desc nulls last`,
];

/**
 * A page of the audit log's events matching the filter, newest first, and how many match:
 * counted exactly up to AUDIT_COUNT_LIMIT (so a broad filter over millions of events stays
 * cheap), beyond which `totalIsCapped` says so.
 */
export async function listAuditEvents(db: Db, query: AuditQuery): Promise<AuditPage> {
  const where = matching(query);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(...newestFirst)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage),
    db.select({ total: sql<number>`count(*)::int` }).from(
      db
        .select({ one: sql`1` })
        .from(auditEvents)
        .where(where)
        .limit(AUDIT_COUNT_LIMIT + 1)
        .as('matches'),
    ),
  ]);
  const total = counted?.total ?? 0;
  return {
    events: rows.map(toWire),
    total: Math.min(total, AUDIT_COUNT_LIMIT),
    totalIsCapped: total > AUDIT_COUNT_LIMIT,
  };
}

/** How many events each step of an export reads. */
const EXPORT_BATCH = 1000;

/**
 * Every event matching the filter, newest first, read in batches (keyset paging on
 * `at, id`), so an export of millions of events holds one batch in memory at a time.
 */
export async function* exportAuditEvents(
  db: Db,
  filter: AuditFilter,
): AsyncGenerator<AuditEvent[]> {
  // The cursor keeps `at` as PostgreSQL's text: a JS Date would drop its microseconds.
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const rows = await db
      .select({ row: auditEvents, cursor: sql<string>`${auditEvents.at}::text` })
      .from(auditEvents)
      .where(
        and(
          matching(filter),
          after &&
            sql`(${auditEvents.at}, ${auditEvents.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`,
        ),
      )
      .orderBy(...newestFirst)
      .limit(EXPORT_BATCH);
    if (rows.length) yield rows.map(({ row }) => toWire(row));
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH) return;
    after = { at: last.cursor, id: last.row.id };
  }
}
