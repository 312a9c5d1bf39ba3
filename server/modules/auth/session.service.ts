import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { messages } from '@common/messages';
import type { Identity, LoginResponse, RefreshResponse } from '@common/schemas/auth';
import { type Db, type Tx, perDatabase } from '../../db/client';
import { refreshTokens } from '../../db/schema/refreshTokens';
import { roles } from '../../db/schema/roles';
import { userRoles, users } from '../../db/schema/users';
import { unauthorized } from '../../lib/errors';
import { type AccessClaims, type AccessTokens, hashToken, newRefreshToken } from '../../lib/tokens';

/** What signing people in needs: the database, the token signer, the clock and the policy. */
export interface SessionContext {
  db: Db;
  tokens: AccessTokens;
  now: () => Date;
  refreshTokenDays: number;
}

/**
 * How long a spent refresh token still answers its successor: two tabs refreshing with
 * the same token at the same moment both get the new one instead of a reuse alarm.
 */
export const REFRESH_GRACE_MS = 30_000;

const DAY_MS = 86_400_000;

/** Who a user is, and the generation of their sessions (see `users.sessionGeneration`). */
export interface IdentityRecord {
  identity: Identity;
  sessionGeneration: number;
}

const identityQuery = perDatabase((db) =>
  db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      sessionGeneration: users.sessionGeneration,
      role: roles.name,
    })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('find_identity'),
);

/** The user with their role names and session generation, or undefined when there is no such user. */
export async function findIdentity(db: Db, userId: string): Promise<IdentityRecord | undefined> {
  const rows = await identityQuery(db).execute({ userId });
  const [first] = rows;
  if (!first) return undefined;
  return {
    identity: {
      _id: first.id,
      username: first.username,
      email: first.email,
      roles: rows.flatMap((row) => (row.role ? [row.role] : [])).sort(),
    },
    sessionGeneration: first.sessionGeneration,
  };
}

/** The claims of an access token of session `sessionId` (a refresh-token family). */
function accessClaims(
  { identity, sessionGeneration }: IdentityRecord,
  sessionId: string,
): AccessClaims {
  return {
    sub: identity._id,
    username: identity.username,
    email: identity.email,
    roles: identity.roles,
    sessionGeneration,
    sessionId,
  };
}

/**
 * Starts a session for the user: an access token and the first refresh token of a new
 * family. Called by login, registration and external sign-in.
 */
export async function startSession(ctx: SessionContext, userId: string): Promise<LoginResponse> {
  const found = await findIdentity(ctx.db, userId);
  if (!found) throw unauthorized('INVALID_CREDENTIALS', messages.server.invalidCredentials);
  const refreshToken = newRefreshToken();
  const familyId = randomUUID();
  await ctx.db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: hashToken(refreshToken),
    expiresAt: new Date(ctx.now().getTime() + ctx.refreshTokenDays * DAY_MS),
    createdAt: ctx.now(),
  });
  return { jwt: await ctx.tokens.sign(accessClaims(found, familyId)), refreshToken };
}

/**
 * Exchanges a refresh token for a new access token and its successor, spending it.
 * A spent token presented again within REFRESH_GRACE_MS answers the same successor (two
 * tabs racing); later it is reuse, a sign of theft, and revokes the whole family (then
 * `onReuse` is told whose, once the revocation has committed).
 * @throws 401 for an unknown, expired, revoked or reused token.
 */
export async function refreshSession(
  ctx: SessionContext,
  presented: string,
  onReuse: (userId: string) => Promise<void>,
): Promise<RefreshResponse> {
  const now = ctx.now();
  const tokenHash = hashToken(presented);
  const outcome = await ctx.db.transaction(async (tx) => {
    // A password change (setUserPassword) updates the user's row, then revokes their
    // tokens. Were this to lock only its token row, a change arriving meanwhile would wait
    // on that row, then revoke it but not the successor inserted here (its statement began
    // before the insert committed): a session would outlive the change. So the user's row
    // is locked FOR SHARE first, then the token row, the same order the change takes: the
    // two serialise without deadlock. The change then either sees the successor or has
    // already revoked the token this finds. The token's owner is read without a lock to
    // know which user to lock (a token's owner never changes).
    const [owner] = await tx
      .select({ userId: refreshTokens.userId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash));
    if (!owner) return undefined;
    await tx.select({ id: users.id }).from(users).where(eq(users.id, owner.userId)).for('share');
    const [token] = await tx
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .for('update');
    if (!token || token.revokedAt || token.expiresAt <= now) return undefined;

    const successor = ctx.tokens.successorOf(presented);
    if (token.spentAt) {
      if (now.getTime() - token.spentAt.getTime() <= REFRESH_GRACE_MS) {
        const [next] = await tx
          .select({ revokedAt: refreshTokens.revokedAt })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hashToken(successor)));
        if (next && !next.revokedAt) return issued(tx, token, successor);
      }
      await tx
        .update(refreshTokens)
        .set({ revokedAt: now })
        .where(and(eq(refreshTokens.familyId, token.familyId), isNull(refreshTokens.revokedAt)));
      return { reusedBy: token.userId };
    }

    await tx.update(refreshTokens).set({ spentAt: now }).where(eq(refreshTokens.id, token.id));
    await tx.insert(refreshTokens).values({
      userId: token.userId,
      familyId: token.familyId,
      tokenHash: hashToken(successor),
      expiresAt: new Date(now.getTime() + ctx.refreshTokenDays * DAY_MS),
      createdAt: now,
    });
    return issued(tx, token, successor);
  });
  // The revocation above must commit, so the 401 is thrown only after the transaction.
  if (outcome && 'reusedBy' in outcome) {
    await onReuse(outcome.reusedBy);
    throw unauthorized('INVALID_REFRESH_TOKEN', messages.server.invalidRefreshToken);
  }
  if (!outcome) throw unauthorized('INVALID_REFRESH_TOKEN', messages.server.invalidRefreshToken);
  return {
    accessToken: await ctx.tokens.sign(accessClaims(outcome.found, outcome.sessionId)),
    refreshToken: outcome.refreshToken,
  };
}

/**
 * The identity a refresh signs for, read under the user's row lock: read after the
 * transaction, it could already carry the generation of a password change that revokes
 * the successor, and the access token would outlive the change.
 */
async function issued(
  tx: Tx,
  { userId, familyId }: { userId: string; familyId: string },
  refreshToken: string,
) {
  const found = await findIdentity(tx, userId);
  return found && { found, refreshToken, sessionId: familyId };
}

/** When the session (a refresh-token family) began: its sign-in. */
export async function sessionStartedAt(db: Db, sessionId: string): Promise<Date | undefined> {
  const [first] = await db
    .select({ at: sql<Date>`min(${refreshTokens.createdAt})` })
    .from(refreshTokens)
    .where(eq(refreshTokens.familyId, sessionId));
  return first?.at ? new Date(first.at) : undefined;
}

/**
 * Ends the session of a refresh token (logout): revokes it and its whole family, so no
 * token of that sign-in works any more. Unknown tokens are ignored: the outcome is the same.
 * @returns the id of the user whose session ended, if one did.
 */
export async function endSession(
  db: Db,
  presented: string,
  now: Date,
): Promise<string | undefined> {
  const family = db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(presented)));
  const [ended] = await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(inArray(refreshTokens.familyId, family), isNull(refreshTokens.revokedAt)))
    .returning({ userId: refreshTokens.userId });
  return ended?.userId;
}
