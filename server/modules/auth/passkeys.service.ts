import { and, asc, eq } from 'drizzle-orm';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { messages } from '@common/messages';
import type { Passkey } from '@common/schemas/signIn';
import type { Db } from '../../db/client';
import { passkeys, type signInChallenges } from '../../db/schema/signInFactors';
import { AppError } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import { type ChallengePurpose, findChallenge, openChallenge, takeChallenge } from './challenges';

/** Whom passkeys are for: the site's name (`rpID`), and the origins its pages are served from. */
export interface RelyingParty {
  /** Undefined when the site is reached by an IP address: WebAuthn needs a domain name. */
  id: string | undefined;
  origins: string[];
}

const RP_NAME = 'An Experimentation';
const LOOPBACK = new Set(['127.0.0.1', '[::1]']);

/**
 * The relying party of the site at `publicUrl`. A loopback address stands for `localhost`
 * (a developer's machine: open the site as http://localhost:PORT to use passkeys); another IP
 * address has none.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  if (LOOPBACK.has(url.hostname)) url.hostname = 'localhost';
  const isIp = /^[\d.]+$|^\[/.test(url.hostname);
  return { id: isIp ? undefined : url.hostname, origins: [url.origin] };
}

export interface PasskeyContext {
  db: Db;
  now: () => Date;
  relyingParty: RelyingParty;
}

const rpIdOf = ({ relyingParty }: PasskeyContext) => {
  if (!relyingParty.id)
    throw new AppError(400, 'VALIDATION_FAILED', messages.server.passkeysUnavailable);
  return relyingParty.id;
};

const invalidPasskey = (status: 400 | 401) =>
  new AppError(status, 'INVALID_SECOND_FACTOR', messages.server.invalidPasskey);

/** The WebAuthn challenge a credential answers, from its client data (checked again by the verifier). */
function challengeOf(credential: { response: { clientDataJSON: string } }): string | undefined {
  try {
    const data = JSON.parse(
      Buffer.from(credential.response.clientDataJSON, 'base64url').toString('utf8'),
    );
    return typeof data?.challenge === 'string' ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the open ceremony a credential answers, so it verifies once. */
async function takeCeremony(
  ctx: PasskeyContext,
  credential: { response: { clientDataJSON: string } },
  purpose: ChallengePurpose,
): Promise<typeof signInChallenges.$inferSelect | undefined> {
  const challenge = challengeOf(credential);
  return challenge ? takeChallenge(ctx.db, ctx.now(), challenge, purpose) : undefined;
}

const passkeyOf = (row: typeof passkeys.$inferSelect): Passkey => ({
  _id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listPasskeys(db: Db, userId: string): Promise<Passkey[]> {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows.map(passkeyOf);
}

/** Options for the browser to create a passkey of the user (one per authenticator). */
export async function registrationOptions(
  ctx: PasskeyContext,
  user: { id: string; username: string },
) {
  const rpID = rpIdOf(ctx);
  const existing = await ctx.db
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.username,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map(({ id, transports }) => ({
      id,
      transports: transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await openChallenge(ctx.db, ctx.now(), {
    purpose: 'passkey_registration',
    userId: user.id,
    secret: options.challenge,
  });
  return options;
}

/**
 * Keeps the passkey the browser created for the user's open registration.
 * @throws 400 INVALID_SECOND_FACTOR when it answers no open registration of theirs, or does not verify.
 */
export async function registerPasskey(
  ctx: PasskeyContext,
  userId: string,
  name: string,
  credential: Record<string, unknown> & { response: { clientDataJSON: string } },
): Promise<Passkey> {
  const rpID = rpIdOf(ctx);
  const ceremony = await takeCeremony(ctx, credential, 'passkey_registration');
  if (!ceremony || ceremony.userId !== userId) throw invalidPasskey(400);
  const verification = await verifyRegistrationResponse({
    response: credential as unknown as RegistrationResponseJSON,
    expectedChallenge: (challenge) => hashToken(challenge) === ceremony.tokenHash,
    expectedOrigin: ctx.relyingParty.origins,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verification?.verified) throw invalidPasskey(400);
  const { credential: made } = verification.registrationInfo;
  const [row] = await ctx.db
    .insert(passkeys)
    .values({
      id: made.id,
      userId,
      name,
      publicKey: Buffer.from(made.publicKey).toString('base64url'),
      counter: made.counter,
      transports: made.transports ?? [],
      createdAt: ctx.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw invalidPasskey(400);
  return passkeyOf(row);
}

/** @returns whether the user had that passkey. */
export async function deletePasskey(db: Db, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ id: passkeys.id });
  return deleted.length > 0;
}

/**
 * Options for the browser to sign in with a passkey: any passkey of this site (the browser
 * offers those it holds), or, within a sign-in's second step (`step`: its challenge), one of
 * that user's.
 * @throws 401 SIGN_IN_EXPIRED for a step that is not open.
 */
export async function authenticationOptions(ctx: PasskeyContext, step: string | undefined) {
  const rpID = rpIdOf(ctx);
  let userId: string | undefined;
  if (step) {
    const open = await findChallenge(ctx.db, ctx.now(), step, 'second_factor');
    if (!open?.userId) throw new AppError(401, 'SIGN_IN_EXPIRED', messages.server.signInExpired);
    userId = open.userId;
  }
  const allowed = userId
    ? await ctx.db
        .select({ id: passkeys.id, transports: passkeys.transports })
        .from(passkeys)
        .where(eq(passkeys.userId, userId))
    : [];
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: allowed.map(({ id, transports }) => ({
      id,
      transports: transports as AuthenticatorTransport[],
    })),
    // Alone, a passkey is both factors: the authenticator must check who holds it.
    userVerification: step ? 'preferred' : 'required',
  });
  await openChallenge(ctx.db, ctx.now(), {
    purpose: 'passkey_sign_in',
    userId,
    stepHash: step && hashToken(step),
    secret: options.challenge,
  });
  return options;
}

/**
 * Verifies a passkey sign-in against its open ceremony; the passkey's counter and last use
 * are kept.
 * @returns whose passkey it is, and the hash of the sign-in step it completes (if any).
 * @throws 401 INVALID_SECOND_FACTOR when it answers no open ceremony, is not a passkey of
 * the step's user, or does not verify.
 */
export async function verifyPasskeySignIn(
  ctx: PasskeyContext,
  credential: Record<string, unknown> & { id: string; response: { clientDataJSON: string } },
): Promise<{ userId: string; stepHash: string | null }> {
  const rpID = rpIdOf(ctx);
  const ceremony = await takeCeremony(ctx, credential, 'passkey_sign_in');
  if (!ceremony) throw invalidPasskey(401);
  const [stored] = await ctx.db.select().from(passkeys).where(eq(passkeys.id, credential.id));
  if (!stored || (ceremony.userId && stored.userId !== ceremony.userId)) throw invalidPasskey(401);
  const verification = await verifyAuthenticationResponse({
    response: credential as unknown as AuthenticationResponseJSON,
    expectedChallenge: (challenge) => hashToken(challenge) === ceremony.tokenHash,
    expectedOrigin: ctx.relyingParty.origins,
    expectedRPID: rpID,
    credential: {
      id: stored.id,
      publicKey: Buffer.from(stored.publicKey, 'base64url'),
      counter: stored.counter,
      transports: stored.transports as AuthenticatorTransport[],
    },
    requireUserVerification: !ceremony.stepHash,
  }).catch(() => undefined);
  if (!verification?.verified) throw invalidPasskey(401);
  await ctx.db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: ctx.now() })
    .where(eq(passkeys.id, stored.id));
  return { userId: stored.userId, stepHash: ceremony.stepHash };
}
