import { eq } from 'drizzle-orm';
import { messages } from '@common/messages';
import type { LoginInput, LoginResponse, RegisterInput } from '@common/schemas/auth';
import { users } from '../../db/schema/users';
import { conflict, unauthorized } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/password';
import { type SessionContext, startSession } from './session.service';

/** Checked against when the user does not exist, so both failures take the same time. */
const decoyHash = hashPassword('decoy password that matches nothing');

/**
 * Signs in with a username and password.
 * @throws 401 with one message for an unknown user and a wrong password alike.
 */
export async function login(ctx: SessionContext, input: LoginInput): Promise<LoginResponse> {
  const [user] = await ctx.db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.username, input.username));
  const matches = await verifyPassword(user?.passwordHash ?? (await decoyHash), input.password);
  if (!user?.passwordHash || !matches)
    throw unauthorized('INVALID_CREDENTIALS', messages.server.invalidCredentials);
  return startSession(ctx, user.id);
}

/**
 * Creates an account whose username is the email, with no role, and signs it in.
 * @throws 409 EMAIL_TAKEN when an account has that email, as its email or as its username.
 * Either unique constraint may refuse the insert, and here both mean the email is taken, so
 * the conflict is told here (do nothing, then check), not by the constraint's name.
 */
export async function register(ctx: SessionContext, input: RegisterInput): Promise<LoginResponse> {
  const passwordHash = await hashPassword(input.password);
  const [created] = await ctx.db
    .insert(users)
    .values({ username: input.email, email: input.email, passwordHash })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!created) throw conflict('EMAIL_TAKEN', messages.server.emailTaken);
  return startSession(ctx, created.id);
}
