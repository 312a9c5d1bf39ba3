import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's authenticator-app secret (TOTP, RFC 6238), encrypted (lib/secretBox.ts). Until
 * `confirmedAt` the user has not yet shown a code of it, and it asks nothing at sign-in.
 */
export const totpSecrets = pgTable('totp_secrets', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text().notNull(),
  confirmedAt: timestamp({ withTimezone: true }),
  /** The time step of the last code taken: it and every earlier one are refused (replay). */
  lastTimeStep: bigint({ mode: 'number' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes, stored as SHA-256 hashes; each signs in once in place of a code. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [uniqueIndex().on(table.userId, table.codeHash)],
);

/** Passkeys (WebAuthn credentials): a sign-in method of their own, and a second factor. */
export const passkeys = pgTable(
  'passkeys',
  {
    /** The credential id, base64url. */
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** The COSE public key, base64url. */
    publicKey: text().notNull(),
    /** The authenticator's signature counter (0 for those that keep none). */
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: jsonb().$type<string[]>().notNull().default([]),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.userId)],
);

/**
 * Sign-ins under way, each single use and short-lived: the step between a right password and
 * the second factor (`second_factor`), and the challenge of a passkey ceremony
 * (`passkey_sign_in`, `passkey_registration`). Known by the SHA-256 of the secret the client
 * holds (the challenge token, or the WebAuthn challenge).
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    tokenHash: text().primaryKey(),
    purpose: text().$type<'second_factor' | 'passkey_sign_in' | 'passkey_registration'>().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    /** A passkey ceremony within a second-factor step: the step's token hash. */
    stepHash: text(),
    /** Codes that may still be tried in this step. */
    attemptsLeft: integer().notNull().default(5),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index().on(table.expiresAt)],
);

/**
 * Personal access tokens: a user's credential for scripts, stored as a SHA-256 hash, limited
 * to `routes` (and always to what the user may call now), until `expiresAt`.
 */
export const personalAccessTokens = pgTable(
  'personal_access_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tokenHash: text().notNull().unique(),
    /** The token's first characters, to tell tokens apart in the list. */
    prefix: text().notNull(),
    routes: jsonb().$type<{ routeVerb: string; routePath: string }[]>().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lastUsedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index().on(table.userId),
    uniqueIndex('personal_access_tokens_owner_name_unique').on(
      table.userId,
      sql`lower(${table.name})`,
    ),
  ],
);
