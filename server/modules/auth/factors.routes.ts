import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@common/messages';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  codeInputSchema,
  factorsSchema,
  newPasskeySchema,
  passkeyIdParamsSchema,
  passkeySchema,
  recoveryCodesSchema,
  totpEnrolmentSchema,
  webAuthnOptionsSchema,
} from '@common/schemas/signIn';
import { actorOf } from '../../lib/audit';
import type { Config } from '../../config';
import { AppError, notFound } from '../../lib/errors';
import { limitAttempts } from '../../lib/rateLimiter';
import { auditUserEvent } from './auth.service';
import {
  deletePasskey,
  listPasskeys,
  registerPasskey,
  registrationOptions,
} from './passkeys.service';
import {
  beginTotp,
  confirmTotp,
  factorsOf,
  removeTotp,
  renewRecoveryCodes,
  takeSecondFactor,
} from './secondFactor.service';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/**
 * The signed-in user's own sign-in factors (the profile page): an authenticator app with its
 * recovery codes, and passkeys. Every signed-in user reaches them; a personal access token
 * does not. Turning a factor off, or renewing the codes, asks for a current code.
 */
export const factorsRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const factors = { db: app.db, box: app.secretBox, now: app.now };
  const passkeyContext = { db: app.db, now: app.now, relyingParty: app.relyingParty };
  const sessionOnly = { signedIn: true };
  const audit = (
    request: Parameters<typeof actorOf>[0],
    action: Parameters<typeof auditUserEvent>[3],
  ) => auditUserEvent(app.db, actorOf(request), request.user!._id, action);
  /**
   * Checks a code the signed-in user typed to change their factors: it counts against their
   * account's attempt budget, as a password or a sign-in code does, and a wrong one is audited.
   * `totpOnly`: a recovery code is not taken (nor spent).
   * @throws 400 INVALID_SECOND_FACTOR for a wrong code; 429 past the budget.
   */
  const checkCode = async (
    request: Parameters<typeof actorOf>[0],
    code: string,
    { totpOnly = false } = {},
  ) => {
    const userId = request.user!._id;
    await limitAttempts(
      app.rateLimitStore,
      [{ key: `login:user:${userId}`, max: config.passwordAttemptsPerUser }],
      60_000,
    );
    if (await takeSecondFactor(factors, userId, code, { totpOnly })) return;
    await audit(request, {
      action: 'auth.second_factor_failed',
      summary: 'A wrong second-factor code on the Security page',
    });
    throw new AppError(400, 'INVALID_SECOND_FACTOR', messages.server.invalidSecondFactor);
  };
  /** Refuses to remove what would leave a user whose role requires a second factor without one. */
  const keepsRequiredFactor = async (userId: string, removing: 'totp' | 'passkey') => {
    const { methods, passkeys, required } = await factorsOf(app.db, userId);
    const left = removing === 'totp' ? passkeys : passkeys - 1 + (methods.includes('totp') ? 1 : 0);
    if (required && left <= 0)
      throw new AppError(409, 'SECOND_FACTOR_REQUIRED', messages.server.secondFactorRequired);
  };

  app.get(
    '/auth/factors',
    { config: sessionOnly, schema: { response: { 200: factorsSchema } } },
    async (request) => {
      const userId = request.user!._id;
      const { totp, recoveryCodesLeft, required } = await factorsOf(app.db, userId);
      return { totp, recoveryCodesLeft, required, passkeys: await listPasskeys(app.db, userId) };
    },
  );

  app.post(
    '/auth/authenticator',
    { config: sessionOnly, schema: { response: { 200: totpEnrolmentSchema, ...errors } } },
    async (request) => {
      await app.requireRecentSignIn(request);
      const { _id, username } = request.user!;
      return beginTotp(factors, { id: _id, username });
    },
  );

  app.post(
    '/auth/authenticator/confirm',
    {
      config: sessionOnly,
      schema: { body: codeInputSchema, response: { 200: recoveryCodesSchema, ...errors } },
    },
    async (request) => {
      const recoveryCodes = await confirmTotp(factors, request.user!._id, request.body.code);
      if (!recoveryCodes)
        throw new AppError(400, 'INVALID_SECOND_FACTOR', messages.server.invalidSecondFactor);
      await audit(request, {
        action: 'auth.authenticator_on',
        summary: 'Turned on an authenticator app (with new recovery codes)',
      });
      return { recoveryCodes };
    },
  );

  app.post(
    '/auth/authenticator/disable',
    {
      config: sessionOnly,
      schema: { body: codeInputSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const userId = request.user!._id;
      await keepsRequiredFactor(userId, 'totp');
      await checkCode(request, request.body.code);
      await removeTotp(app.db, userId);
      await audit(request, {
        action: 'auth.authenticator_off',
        summary: 'Turned off the authenticator app and its recovery codes',
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/authenticator/recovery-codes',
    {
      config: sessionOnly,
      schema: { body: codeInputSchema, response: { 200: recoveryCodesSchema, ...errors } },
    },
    async (request) => {
      const userId = request.user!._id;
      await checkCode(request, request.body.code, { totpOnly: true });
      const recoveryCodes = await renewRecoveryCodes(factors, userId);
      await audit(request, {
        action: 'auth.recovery_codes_renewed',
        summary: 'Made new recovery codes (the old ones no longer work)',
      });
      return { recoveryCodes };
    },
  );

  app.post(
    '/auth/passkeys/options',
    { config: sessionOnly, schema: { response: { 200: webAuthnOptionsSchema, ...errors } } },
    async (request) => {
      await app.requireRecentSignIn(request);
      const { _id, username } = request.user!;
      return { ...(await registrationOptions(passkeyContext, { id: _id, username })) };
    },
  );

  app.post(
    '/auth/passkeys',
    {
      config: sessionOnly,
      schema: { body: newPasskeySchema, response: { 201: passkeySchema, ...errors } },
    },
    async (request, reply) => {
      await app.requireRecentSignIn(request);
      const { name, credential } = request.body;
      const passkey = await registerPasskey(passkeyContext, request.user!._id, name, credential);
      await audit(request, {
        action: 'auth.passkey_added',
        summary: `Added the passkey ${JSON.stringify(name)}`,
      });
      return reply.status(201).send(passkey);
    },
  );

  app.delete(
    '/auth/passkeys/:id',
    {
      config: sessionOnly,
      schema: { params: passkeyIdParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const userId = request.user!._id;
      const passkeys = await listPasskeys(app.db, userId);
      const passkey = passkeys.find(({ _id }) => _id === request.params.id);
      if (!passkey) throw notFound('Passkey');
      await keepsRequiredFactor(userId, 'passkey');
      if (!(await deletePasskey(app.db, userId, passkey._id))) throw notFound('Passkey');
      await audit(request, {
        action: 'auth.passkey_removed',
        summary: `Removed the passkey ${JSON.stringify(passkey.name)}`,
      });
      return reply.status(204).send(null);
    },
  );
};
