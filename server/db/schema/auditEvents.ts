import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AuditResource } from '@common/schemas/audit';

/**
 * The audit log: who did what, when and from where. A change's event is written in the
 * change's transaction; sign-in events in their own. The actor's id has no foreign key:
 * the log outlives the users it names.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid().primaryKey().defaultRandom(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorId: uuid(),
    actorName: text(),
    action: text().notNull(),
    resource: text().$type<AuditResource>().notNull(),
    resourceId: text(),
    ip: text(),
    userAgent: text(),
    summary: text().notNull(),
  },
  // Newest first, whole or filtered by one of the screen's filters.
  (table) => [
    index().on(table.at.desc(), table.id.desc()),
    index().on(table.action, table.at.desc(), table.id.desc()),
    index().on(table.resource, table.at.desc(), table.id.desc()),
    // The actor filter matches names as people read them: whatever their capitals or form.
    index('audit_events_actor_folded_at_id_index').on(
      sql`lower(normalize(${table.actorName}, NFKC))`,
      table.at.desc(),
      table.id.desc(),
    ),
    // Who did one kind of thing (with or without dates), without reading every row of theirs.
    index('audit_events_actor_folded_action_at_id_index').on(
      sql`lower(normalize(${table.actorName}, NFKC))`,
      table.action,
      table.at.desc(),
      table.id.desc(),
    ),
  ],
);
