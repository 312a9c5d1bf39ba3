import { sql } from 'drizzle-orm';
import {
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { roles } from './roles';

/** The unique index on the lower-case email (its violations are told apart by name). */
export const USERS_EMAIL_UNIQUE = 'users_email_lower_unique';

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    username: text().notNull().unique(),
    /** One account per email, whatever its capitals. */
    email: text(),
    /** Argon2id hash; null for accounts that only sign in through an external provider. */
    passwordHash: text(),
    /** The subject (`sub`) of the account at the external sign-in provider, if linked. */
    googleSubject: text().unique(),
    /**
     * Bumped to end every session of the user (an administrator set their password):
     * access tokens carry the generation they were issued in, and an older one no longer
     * authenticates. A counter, not a time: a token's `iat` has one-second resolution, so a
     * time could not tell a token issued just before the change from one just after.
     */
    sessionGeneration: integer().notNull().default(0),
    /** 1 at creation, +1 per change: a save names the version it edited (optimistic concurrency). */
    version: integer().notNull().default(1),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex(USERS_EMAIL_UNIQUE).on(sql`lower(${table.email})`)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.roleId] })],
);
