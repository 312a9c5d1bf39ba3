import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Refresh tokens, stored only as SHA-256 hashes. Every login starts a family; each
 * rotation spends a token and adds its successor to the same family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid().notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** When it was exchanged for its successor; a spent token presented again is reuse. */
    spentAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index().on(table.familyId),
    index().on(table.userId),
    // Sessions ended lately, which every server reads as it starts (modules/auth/endedSessions.ts).
    index('refresh_tokens_revoked_at_index')
      .on(table.revokedAt)
      .where(sql`${table.revokedAt} is not null`),
  ],
);
