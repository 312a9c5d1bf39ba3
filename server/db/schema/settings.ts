import { pgTable, text } from 'drizzle-orm/pg-core';

/** Values the server generates once and every instance shares (the token signing key). */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: text().notNull(),
});
