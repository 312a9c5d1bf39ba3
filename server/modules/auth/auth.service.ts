import { eq, sql } from 'drizzle-orm';
import { messages } from '@common/messages';
import type { LoginInput, LoginResponse, RegisterInput } from '@common/schemas/auth';
import type { LoginAnswer, SecondFactorStep } from '@common/schemas/signIn';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';
import { type Actor, type AuditEntry, recordAudit } from '../../lib/audit';
import { publishChanges } from '../../lib/changeEvents';
import { conflict, unauthorized } from '../../lib/errors';
import { foldedName } from '../../lib/nameRules';
import { hashPassword, verifyPassword } from '../../lib/password';
import { openChallenge } from './challenges';
import { factorsOf } from './secondFactor.service';
import { type SessionContext, startSession } from './session.service';

/** Checked against when the user does not exist, so both failures take the same time. */
const decoyHash = hashPassword('decoy password that matches nothing');

/** Writes an event of `user`'s own, from where `origin` says. */
const auditAs = (
  db: Db,
  origin: Actor,
  user: { id: string; username: string | null },
  entry: Omit<AuditEntry, 'resourceId'>,
) =>
  recordAudit(
    db,
    { ...origin, id: user.id, name: user.username },
    { ...entry, resourceId: user.id },
  );

/**
 * Writes an event of user `userId` (when they still exist) to the audit log, from where
 * `origin` says: sign-in events are written on their own, not with a change.
 */
export async function auditUserEvent(
  db: Db,
  origin: Actor,
  userId: string,
  entry: Omit<AuditEntry, 'resourceId'>,
): Promise<void> {
  const [user] = await db
    .select({ username: users.username })
    .from(users)
    .where(eq(users.id, userId));
  await auditAs(db, origin, { id: userId, username: user?.username ?? null }, entry);
}

/**
 * Signs in with a username and password; the sign-in, or its failure (anonymous, naming
 * the username tried), goes to the audit log. `origin`: where the request came from.
 * `admit` is asked, with the id of the user named (if any), before the password is checked:
 * it throws to refuse the attempt unchecked (a budget spent).
 * @returns the session, or, when the account has a second factor (or a role of it requires
 * one), the step that asks for it; and whose it is.
 * @throws 401 with one message for an unknown user and a wrong password alike.
 */
export async function login(
  ctx: SessionContext,
  input: LoginInput,
  origin: Actor,
  admit: (userId: string | undefined) => Promise<void>,
): Promise<{ answer: LoginAnswer; userId: string }> {
  // Names are one however they are written (capitals, Unicode forms): `Viewer` signs in as
  // `viewer`. Should two older names fold alike (lib/nameRules.ts), the exact one wins.
  const [user] = await ctx.db
    .select({ id: users.id, username: users.username, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`${foldedName(users.username)} = ${foldedName(input.username)}`)
    .orderBy(sql`${users.username} = ${input.username} desc`)
    .limit(1);
  await admit(user?.id);
  const matches = await verifyPassword(user?.passwordHash ?? (await decoyHash), input.password);
  if (!user?.passwordHash || !matches) {
    await recordAudit(ctx.db, origin, {
      action: 'auth.login_failed',
      summary: `Failed sign-in as ${JSON.stringify(input.username)}`,
    });
    throw unauthorized('INVALID_CREDENTIALS', messages.server.invalidCredentials);
  }
  const step = await secondStep(ctx.db, ctx.now(), user.id);
  if (step) return { answer: step, userId: user.id };
  const session = await startSession(ctx, user.id);
  await auditAs(ctx.db, origin, user, {
    action: 'auth.login',
    summary: 'Signed in with a password',
  });
  return { answer: session, userId: user.id };
}

/**
 * The second step of a sign-in whose first factor was right, when the account has a second
 * factor or a role of it requires one (then, with none yet, it sets up an authenticator app
 * in this step: `enrol`); undefined when the first factor is enough.
 */
export async function secondStep(
  db: Db,
  now: Date,
  userId: string,
): Promise<SecondFactorStep | undefined> {
  const { methods, required } = await factorsOf(db, userId);
  if (methods.length === 0 && !required) return undefined;
  const { secret, expiresAt } = await openChallenge(db, now, { purpose: 'second_factor', userId });
  return {
    secondFactor: {
      challenge: secret,
      methods,
      enrol: methods.length === 0,
      expiresAt: expiresAt.toISOString(),
    },
  };
}

/** Starts the session of a sign-in completed by a second factor, or a passkey alone. */
export async function completeSignIn(
  ctx: SessionContext,
  userId: string,
  origin: Actor,
  how: string,
): Promise<LoginResponse> {
  const session = await startSession(ctx, userId);
  await auditUserEvent(ctx.db, origin, userId, {
    action: 'auth.login',
    summary: `Signed in ${how}`,
  });
  return session;
}

/**
 * Creates an account whose username is the email, with no role, and signs it in.
 * @throws 409 EMAIL_TAKEN when an account has that email, as its email or as its username.
 * Either unique constraint may refuse the insert, and here both mean the email is taken, so
 * the conflict is told here (do nothing, then check), not by the constraint's name.
 */
export async function register(
  ctx: SessionContext,
  input: RegisterInput,
  origin: Actor,
): Promise<LoginResponse> {
  const passwordHash = await hashPassword(input.password);
  const [created] = await ctx.db
    .insert(users)
    .values({ username: input.email, email: input.email, passwordHash })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!created) throw conflict('EMAIL_TAKEN', messages.server.emailTaken);
  // Screens listing the users show the new one.
  await publishChanges(ctx.db, { ...origin, id: created.id, name: input.email }, [
    { resource: 'users', id: created.id, action: 'create', version: 1 },
  ]);
  const session = await startSession(ctx, created.id);
  await auditAs(
    ctx.db,
    origin,
    { id: created.id, username: input.email },
    {
      action: 'auth.register',
      summary: 'Registered an account (no role yet)',
    },
  );
  return session;
}
