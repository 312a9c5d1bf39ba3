import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { VersionAction } from '@common/schemas/versions';

/**
 * The version history of books, entity definitions and entity records: a snapshot of the
 * document after each create, update and restore, and as it was at its delete, written in
 * the same transaction as the change. Kept when the document is deleted, so it can be
 * audited and brought back. Users and roles keep only what their delete took, and a mark
 * once it is undone (lib/versions.ts deletedDocument), for UNDO_KEEP_HOURS.
 */
export const versions = pgTable(
  'versions',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Which kind of document: `books`, `entities`, `entity-records`, `users` or `roles`. */
    resource: text().notNull(),
    documentId: uuid().notNull(),
    action: text().$type<VersionAction>().notNull(),
    updatedBy: text().notNull(),
    versionDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    document: jsonb().$type<Record<string, unknown>>().notNull(),
  },
  (table) => [
    index().on(table.resource, table.documentId, table.versionDate.desc()),
    // Pruning by age (HISTORY_RETENTION_DAYS) walks the oldest first.
    index().on(table.versionDate),
    // "Recently deleted": the deletes of a resource, newest first.
    index('versions_deletes_index')
      .on(table.resource, table.versionDate.desc())
      .where(sql`${table.action} = 'delete'`),
  ],
);
