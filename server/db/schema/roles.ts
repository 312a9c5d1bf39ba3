import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const roles = pgTable('roles', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  /** 1 at creation, +1 per change of its members. */
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
