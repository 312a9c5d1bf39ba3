import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const books = pgTable(
  'books',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    author: text(),
    /** Digits only (and a final X for ISBN-10). */
    isbn: text(),
    /** 1 at creation, +1 per change: a save names the version it edited (optimistic concurrency). */
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // The list reads newest first, ties broken by id.
  (table) => [index().on(table.createdAt.desc(), table.id.desc())],
);
