import { bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * What changed, in commit-visible order of writing: one row per create, update, delete or
 * restore of a book, user, role, entity, record or route, written in the change's
 * transaction. A trigger NOTIFYs each row on `change_events` (every server's event stream
 * hears it); a stream that reconnects reads the rows after the last id it saw. Kept for
 * CHANGE_EVENTS_KEEP_HOURS.
 */
export const changeEvents = pgTable(
  'change_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    resource: text().notNull(),
    itemId: text().notNull(),
    /** The entity a record belongs to (its list is keyed by it). */
    entityName: text(),
    action: text().notNull(),
    /** The item's `_version` after the change (for a delete, the version deleted). */
    version: integer().notNull(),
    actorId: uuid(),
    actorName: text(),
  },
  (table) => [index().on(table.at)],
);
