import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type {
  AccessToken,
  CreateAccessTokenInput,
  CreatedAccessToken,
} from '@common/schemas/accessTokens';
import type { Db } from '../../db/client';
import { personalAccessTokens } from '../../db/schema/signInFactors';
import { hashToken } from '../../lib/tokens';

/** What every personal access token starts with: tells it apart from a session's token. */
export const PERSONAL_TOKEN_PREFIX = 'pat_';
/** How many of its first characters the list shows. */
const SHOWN_CHARACTERS = 12;
/** A token's last use is written at most this often (scripts call many times a minute). */
const LAST_USE_RESOLUTION_MS = 60_000;
const DAY_MS = 86_400_000;

type Row = typeof personalAccessTokens.$inferSelect;

const accessTokenOf = (row: Row): AccessToken => ({
  _id: row.id,
  name: row.name,
  prefix: row.prefix,
  routes: row.routes,
  expiresAt: row.expiresAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** The user's personal access tokens, newest first (expired ones too, until revoked). */
export async function listAccessTokens(db: Db, userId: string): Promise<AccessToken[]> {
  const rows = await db
    .select()
    .from(personalAccessTokens)
    .where(eq(personalAccessTokens.userId, userId))
    .orderBy(desc(personalAccessTokens.createdAt));
  return rows.map(accessTokenOf);
}

/** Creates a token for the user; the caller has checked its routes against their rights. */
export async function createAccessToken(
  db: Db,
  now: Date,
  userId: string,
  { name, expiresInDays, routes }: CreateAccessTokenInput,
): Promise<CreatedAccessToken> {
  const token = `${PERSONAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [row] = await db
    .insert(personalAccessTokens)
    .values({
      userId,
      name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, SHOWN_CHARACTERS),
      routes,
      expiresAt: new Date(now.getTime() + expiresInDays * DAY_MS),
      createdAt: now,
    })
    .returning();
  return { token, accessToken: accessTokenOf(row!) };
}

/** @returns the revoked token's name, or undefined when the user has no such token. */
export async function revokeAccessToken(
  db: Db,
  userId: string,
  id: string,
): Promise<string | undefined> {
  const [deleted] = await db
    .delete(personalAccessTokens)
    .where(and(eq(personalAccessTokens.userId, userId), eq(personalAccessTokens.id, id)))
    .returning({ name: personalAccessTokens.name });
  return deleted?.name;
}

/** What a request made with a personal access token may do, besides what its owner may. */
export interface PersonalToken {
  id: string;
  userId: string;
  /** `VERB /path` of each route it may call. */
  routes: Set<string>;
}

/**
 * The token's owner and routes, or undefined when it is unknown, revoked or expired. Read
 * from the database at each use, so a revocation counts at once on every server; its last
 * use is written once a minute at most.
 */
export async function verifyPersonalToken(
  db: Db,
  now: Date,
  token: string,
): Promise<PersonalToken | undefined> {
  const [row] = await db
    .select()
    .from(personalAccessTokens)
    .where(eq(personalAccessTokens.tokenHash, hashToken(token)));
  if (!row || row.expiresAt <= now) return undefined;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USE_RESOLUTION_MS) {
    await db
      .update(personalAccessTokens)
      .set({ lastUsedAt: now })
      .where(eq(personalAccessTokens.id, row.id));
  }
  return {
    id: row.id,
    userId: row.userId,
    routes: new Set(row.routes.map(({ routeVerb, routePath }) => `${routeVerb} ${routePath}`)),
  };
}
