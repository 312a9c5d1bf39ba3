import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const roles = pgTable('roles', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull().unique(),
  /** Its members must sign in with a second factor (an authenticator code or a passkey). */
  requireSecondFactor: boolean().notNull().default(false),
  /** 1 at creation, +1 per change of its members or of its rules. */
  version: integer().notNull().default(1),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
