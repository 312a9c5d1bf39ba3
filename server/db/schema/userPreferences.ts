import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's own settings (the language). Apart from `users`, whose rows are versioned and
 * audited as an administrator's records: a user choosing French is neither.
 */
export const userPreferences = pgTable('user_preferences', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** A tag of `common/locales.ts`; null: the browser's language applies. */
  locale: text(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
