import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { messages } from '@common/messages';
import type { SecondFactorMethod, TotpEnrolment } from '@common/schemas/signIn';
import type { Db, Tx } from '../../db/client';
import { roles } from '../../db/schema/roles';
import { passkeys, recoveryCodes, totpSecrets } from '../../db/schema/signInFactors';
import { userRoles } from '../../db/schema/users';
import { conflict } from '../../lib/errors';
import type { SecretBox } from '../../lib/secretBox';

/** What the authenticator app shows the account as. */
const ISSUER = 'An Experimentation';
/** Codes of the step before and after the current one are taken too (clocks drift). */
const TOLERANCE_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;

export interface FactorsContext {
  db: Db;
  box: SecretBox;
  now: () => Date;
}

/**
 * The second factors a user has (a confirmed authenticator app, unused recovery codes,
 * passkeys), and whether a role of theirs requires one.
 */
export async function factorsOf(db: Db | Tx, userId: string) {
  const [row] = await db
    .select({
      totp: sql<boolean>`exists (select 1 from ${totpSecrets} where ${totpSecrets.userId} = ${userId} and ${totpSecrets.confirmedAt} is not null)`,
      recoveryCodesLeft: sql<number>`(select count(*)::int from ${recoveryCodes} where ${recoveryCodes.userId} = ${userId} and ${recoveryCodes.usedAt} is null)`,
      passkeys: sql<number>`(select count(*)::int from ${passkeys} where ${passkeys.userId} = ${userId})`,
      required: sql<boolean>`exists (select 1 from ${userRoles} join ${roles} on ${roles.id} = ${userRoles.roleId} where ${userRoles.userId} = ${userId} and ${roles.requireSecondFactor})`,
    })
    .from(sql`(select 1) as one`);
  const methods: SecondFactorMethod[] = [];
  if (row!.totp) methods.push('totp');
  if (row!.totp && row!.recoveryCodesLeft > 0) methods.push('recovery_code');
  if (row!.passkeys > 0) methods.push('passkey');
  return { ...row!, methods };
}

/**
 * Starts (or starts again) setting up an authenticator app: a new secret, not asked for at
 * sign-in until a code of it confirms it.
 * @throws 409 SECOND_FACTOR_ON when one is already confirmed.
 */
export async function beginTotp(
  ctx: FactorsContext,
  user: { id: string; username: string },
): Promise<TotpEnrolment> {
  const secret = generateSecret();
  const sealed = ctx.box.seal(secret);
  const [started] = await ctx.db
    .insert(totpSecrets)
    .values({ userId: user.id, secret: sealed })
    .onConflictDoUpdate({
      target: totpSecrets.userId,
      set: { secret: sealed, lastTimeStep: null, createdAt: ctx.now() },
      setWhere: isNull(totpSecrets.confirmedAt),
    })
    .returning({ userId: totpSecrets.userId });
  if (!started) throw conflict('SECOND_FACTOR_ON', messages.server.authenticatorAlreadyOn);
  const uri = generateURI({ issuer: ISSUER, label: user.username, secret });
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return {
    secret,
    uri,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/**
 * The secret as set up, or undefined when it was sealed with another key (SECRETS_KEY, or
 * the signing key, changed since): then no code matches, and a recovery code or an admin's
 * reset is the way back in.
 */
function openSecret(ctx: FactorsContext, sealed: string): string | undefined {
  try {
    return ctx.box.open(sealed);
  } catch {
    return undefined;
  }
}

/**
 * Whether `code` is the user's authenticator code now, and not one already taken: the
 * secret's row is locked, and its last time step moves on, so a code signs in once.
 * `pending`: the code of a secret being set up (it confirms it).
 */
async function takeTotpCode(
  ctx: FactorsContext,
  tx: Tx,
  userId: string,
  code: string,
  pending: boolean,
) {
  const [row] = await tx
    .select()
    .from(totpSecrets)
    .where(
      and(
        eq(totpSecrets.userId, userId),
        pending ? isNull(totpSecrets.confirmedAt) : isNotNull(totpSecrets.confirmedAt),
      ),
    )
    .for('update');
  if (!row || !/^\d{6}$/.test(code)) return false;
  const secret = openSecret(ctx, row.secret);
  if (!secret) return false;
  // otplib throws when the last step taken is past the window (this server's clock is behind
  // the one that took it): no code can be taken now.
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(ctx.now().getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    afterTimeStep: row.lastTimeStep ?? undefined,
  }).catch(() => ({ valid: false }) as const);
  if (!result.valid || !('timeStep' in result)) return false;
  await tx
    .update(totpSecrets)
    .set({ lastTimeStep: result.timeStep, confirmedAt: row.confirmedAt ?? ctx.now() })
    .where(eq(totpSecrets.userId, userId));
  return true;
}

/** A recovery code as typed (spaces, dashes and capitals do not count), digested. */
const recoveryCodeHash = (ctx: FactorsContext, code: string) =>
  ctx.box.digest(code.replace(/[\s-]/g, '').toLowerCase());

/**
 * New recovery codes for the user (16 hex digits each, in fours), replacing the old ones;
 * shown once, stored digested.
 */
async function replaceRecoveryCodes(
  ctx: FactorsContext,
  tx: Tx,
  userId: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    randomBytes(8).toString('hex').match(/.{4}/g)!.join('-'),
  );
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(ctx, code) })));
  return codes;
}

/**
 * What else must happen with a code's taking, in its transaction: it throws to undo both (a
 * sign-in step taken meanwhile by another request).
 */
type AlongWith = (tx: Tx) => Promise<void>;

/**
 * Confirms the authenticator app being set up with a code of it, and answers the user's new
 * recovery codes; undefined when the code is not its current one.
 */
export function confirmTotp(
  ctx: FactorsContext,
  userId: string,
  code: string,
  alongWith?: AlongWith,
): Promise<string[] | undefined> {
  return ctx.db.transaction(async (tx) => {
    if (!(await takeTotpCode(ctx, tx, userId, code.trim(), true))) return undefined;
    await alongWith?.(tx);
    return replaceRecoveryCodes(ctx, tx, userId);
  });
}

/**
 * Checks a second factor typed at sign-in or to change the factors: the authenticator code,
 * or else (unless `totpOnly`) an unused recovery code (spent by it).
 * @returns which it was, or undefined when it is neither.
 */
export function takeSecondFactor(
  ctx: FactorsContext,
  userId: string,
  code: string,
  { totpOnly = false, alongWith }: { totpOnly?: boolean; alongWith?: AlongWith } = {},
): Promise<'totp' | 'recovery_code' | undefined> {
  return ctx.db.transaction(async (tx) => {
    if (await takeTotpCode(ctx, tx, userId, code.trim(), false)) {
      await alongWith?.(tx);
      return 'totp';
    }
    if (totpOnly) return undefined;
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: ctx.now() })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, recoveryCodeHash(ctx, code)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (!used) return undefined;
    await alongWith?.(tx);
    return 'recovery_code';
  });
}

/** New recovery codes for a user with an authenticator app (the old ones stop working). */
export function renewRecoveryCodes(ctx: FactorsContext, userId: string): Promise<string[]> {
  return ctx.db.transaction((tx) => replaceRecoveryCodes(ctx, tx, userId));
}

/**
 * Removes the user's authenticator app and recovery codes (their passkeys stay).
 * @returns whether they had one.
 */
export async function removeTotp(db: Db | Tx, userId: string): Promise<boolean> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const removed = await db
    .delete(totpSecrets)
    .where(eq(totpSecrets.userId, userId))
    .returning({ userId: totpSecrets.userId });
  return removed.length > 0;
}
