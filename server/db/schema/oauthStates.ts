import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Sign-ins started with an external provider and not yet come back: the state sent
 * with the user, and the PKCE verifier and nonce to check the answer with.
 * Kept in the database so any server instance can take the callback.
 */
export const oauthStates = pgTable('oauth_states', {
  state: text().primaryKey(),
  codeVerifier: text().notNull(),
  nonce: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
