import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per seed step that has run, so a restart never seeds twice nor resets anything. */
export const seedSteps = pgTable('seed_steps', {
  name: text().primaryKey(),
  doneAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
