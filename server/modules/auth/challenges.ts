import { randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { signInChallenges } from '../../db/schema/signInFactors';
import { hashToken } from '../../lib/tokens';

export type ChallengePurpose = (typeof signInChallenges.$inferSelect)['purpose'];

/** How long a sign-in step, or a passkey ceremony, stays open. */
export const CHALLENGE_SECONDS = 300;

/**
 * Opens a single-use challenge and answers the secret its holder presents (a random one, or
 * `secret`: a passkey ceremony's WebAuthn challenge). Expired challenges are swept here.
 */
export async function openChallenge(
  db: Db | Tx,
  now: Date,
  values: { purpose: ChallengePurpose; userId?: string; stepHash?: string; secret?: string },
): Promise<{ secret: string; expiresAt: Date }> {
  const secret = values.secret ?? randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + CHALLENGE_SECONDS * 1000);
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now));
  await db.insert(signInChallenges).values({
    tokenHash: hashToken(secret),
    purpose: values.purpose,
    userId: values.userId,
    stepHash: values.stepHash,
    expiresAt,
  });
  return { secret, expiresAt };
}

const open = (secret: string, purpose: ChallengePurpose, now: Date) =>
  and(
    eq(signInChallenges.tokenHash, hashToken(secret)),
    eq(signInChallenges.purpose, purpose),
    gt(signInChallenges.expiresAt, now),
  );

/** Takes (ends) an open challenge; undefined when there is none by that secret, or it expired. */
export async function takeChallenge(
  db: Db | Tx,
  now: Date,
  secret: string,
  purpose: ChallengePurpose,
) {
  const [taken] = await db
    .delete(signInChallenges)
    .where(open(secret, purpose, now))
    .returning();
  return taken;
}

/** Reads an open challenge without ending it. */
export async function findChallenge(
  db: Db | Tx,
  now: Date,
  secret: string,
  purpose: ChallengePurpose,
) {
  const [found] = await db
    .select()
    .from(signInChallenges)
    .where(open(secret, purpose, now));
  return found;
}

/**
 * Spends one of a sign-in step's attempts; undefined when the step is unknown, expired or
 * out of attempts (then it is ended).
 */
export async function attemptChallenge(db: Db, now: Date, secret: string) {
  const [attempt] = await db
    .update(signInChallenges)
    .set({ attemptsLeft: sql`${signInChallenges.attemptsLeft} - 1` })
    .where(and(open(secret, 'second_factor', now), gt(signInChallenges.attemptsLeft, 0)))
    .returning();
  if (!attempt) await takeChallenge(db, now, secret, 'second_factor');
  return attempt;
}
