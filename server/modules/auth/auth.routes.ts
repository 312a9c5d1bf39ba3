import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@common/messages';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  googleUrlSchema,
  identifyQuerySchema,
  identitySchema,
  loginResponseSchema,
  loginSchema,
  refreshResponseSchema,
  refreshTokenBodySchema,
  registerSchema,
} from '@common/schemas/auth';
import { downloadLinkRequestSchema, downloadLinkSchema } from '@common/schemas/exports';
import {
  loginAnswerSchema,
  passkeyOptionsInputSchema,
  passkeySignInSchema,
  secondFactorAnswerSchema,
  secondFactorInputSchema,
  signInStepSchema,
  totpEnrolmentSchema,
  webAuthnOptionsSchema,
} from '@common/schemas/signIn';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import { AppError, unauthorized } from '../../lib/errors';
import { PERSONAL_TOKEN_PREFIX } from '../accessTokens/accessTokens.service';
import { type Limit, limitAttempts } from '../../lib/rateLimiter';
import { actorOf } from '../../lib/audit';
import { hashToken } from '../../lib/tokens';
import { auditUserEvent, completeSignIn, login, register, secondStep } from './auth.service';
import { attemptChallenge, findChallenge, takeChallenge } from './challenges';
import { authenticationOptions, verifyPasskeySignIn } from './passkeys.service';
import { beginTotp, confirmTotp, factorsOf, takeSecondFactor } from './secondFactor.service';
import { ExternalSignInError, GoogleSignIn } from './google.service';
import { endSession, refreshSession, startSession } from './session.service';

const WINDOW_MS = 60_000;
const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  409: apiErrorSchema,
  429: apiErrorSchema,
};

/** Sign-in, registration, refresh, logout and identify: outside the route-permission table. */
export const authRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  // Answers here carry tokens (or, for Google's callback, a redirect naming them): no cache
  // may keep one.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  const limit = config.authRateLimit;
  /**
   * A preValidation hook counting attempts per client address, and under the limits `more`
   * reads off the body: it runs before validation, so invalid attempts count too.
   */
  const limited =
    (
      action: string,
      max: number,
      more: (body: Record<string, unknown>, ip: string) => Limit[] = () => [],
    ) =>
    async (request: FastifyRequest) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const limits = [{ key: `ip:${request.ip}`, max }, ...more(body, request.ip)];
      await limitAttempts(
        app.rateLimitStore,
        limits.map(({ key, max }) => ({ key: `${action}:${key}`, max })),
        WINDOW_MS,
      );
    };
  /**
   * Whether a password (or second-factor) attempt for `username` (user `userId`, if one has
   * that name) is checked. Every address and server together may have the user's password
   * checked `passwordAttemptsPerUser` times a minute; beyond, 429 without hashing, so guesses
   * in parallel from many addresses stay few and cost no CPU. A browser holding the user's
   * device cookie (set at an earlier sign-in there) is not held to that budget, so the owner
   * gets in during a flood; it has a budget of its own, should the cookie be stolen.
   */
  const admitAttempt =
    (request: FastifyRequest, username: string) => async (userId: string | undefined) => {
      const max = config.passwordAttemptsPerUser;
      const identity = userId ? await app.identityOf(userId) : undefined;
      const device =
        userId && identity && app.deviceCookies.of(request, userId, identity.sessionGeneration);
      if (device) {
        const { count } = await app.rateLimitStore.hit(`login:device:${device}`, WINDOW_MS);
        if (count <= max) return;
      }
      // Counted by the account the name signs in as (however it is spelt), or by the name
      // when there is none.
      const counted = userId ?? `name:${username.normalize('NFKC').toLowerCase()}`;
      await limitAttempts(app.rateLimitStore, [{ key: `login:user:${counted}`, max }], WINDOW_MS);
    };
  /** Marks this browser as the user's (its device cookie) once they are signed in. */
  const signedInHere = async (request: FastifyRequest, reply: FastifyReply, userId: string) => {
    const generation = (await app.identityOf(userId))?.sessionGeneration ?? 0;
    app.deviceCookies.set(request, reply, userId, generation);
  };
  const factors = { db: app.db, box: app.secretBox, now: app.now };
  const passkeyContext = { db: app.db, now: app.now, relyingParty: app.relyingParty };
  const expired = () => new AppError(401, 'SIGN_IN_EXPIRED', messages.server.signInExpired);

  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: { body: loginSchema, response: { 200: loginAnswerSchema, ...errors } },
      // An address may try a few usernames (people behind one router), each a few times.
      preValidation: limited('login', limit * 3, ({ username }, ip) =>
        typeof username === 'string'
          ? [{ key: `user-ip:${username.trim()}:${ip}`, max: limit }]
          : [],
      ),
    },
    async (request, reply) => {
      const { answer, userId } = await login(
        app.sessions,
        request.body,
        actorOf(request, null),
        admitAttempt(request, request.body.username),
      );
      if ('jwt' in answer) await signedInHere(request, reply, userId);
      return answer;
    },
  );

  app.post(
    '/auth/login/second-factor',
    {
      config: { public: true },
      schema: {
        body: secondFactorInputSchema,
        response: { 200: secondFactorAnswerSchema, ...errors },
      },
      preValidation: limited('login', limit * 3),
    },
    async (request, reply) => {
      const { challenge, code } = request.body;
      // Each step takes a few codes, and codes count against the account's budget as
      // passwords do: a stolen password does not open unlimited guessing of codes.
      const step = await attemptChallenge(app.db, app.now(), challenge);
      if (!step?.userId) throw expired();
      const userId = step.userId;
      await admitAttempt(request, '')(userId);
      const { methods } = await factorsOf(app.db, userId);
      // The step is taken with the code, or neither is: a code never outlives a lost race
      // for the step (nor does an app set up here, with recovery codes never shown).
      const takeStep = async (tx: Tx) => {
        if (!(await takeChallenge(tx, app.now(), challenge, 'second_factor'))) throw expired();
      };
      // No factor yet (a role requires one): the code confirms the app set up in this step.
      const recoveryCodes =
        methods.length === 0 ? await confirmTotp(factors, userId, code, takeStep) : undefined;
      const used = recoveryCodes
        ? 'totp'
        : methods.length > 0
          ? await takeSecondFactor(factors, userId, code, { alongWith: takeStep })
          : undefined;
      if (!used) {
        await auditUserEvent(app.db, actorOf(request, null), userId, {
          action: 'auth.second_factor_failed',
          summary: 'A wrong second-factor code after a right password',
        });
        throw new AppError(401, 'INVALID_SECOND_FACTOR', messages.server.invalidSecondFactor);
      }
      const session = await completeSignIn(
        app.sessions,
        userId,
        actorOf(request, null),
        used === 'totp'
          ? 'with an authenticator code (second step)'
          : 'with a recovery code (second step)',
      );
      await signedInHere(request, reply, userId);
      return recoveryCodes ? { ...session, recoveryCodes } : session;
    },
  );

  app.post(
    '/auth/login/authenticator',
    {
      config: { public: true },
      schema: { body: signInStepSchema, response: { 200: totpEnrolmentSchema, ...errors } },
      preValidation: limited('login', limit * 3),
    },
    async (request) => {
      // Only a step of an account that must set up a second factor and has none.
      const step = await findChallenge(app.db, app.now(), request.body.challenge, 'second_factor');
      const identity = step?.userId && (await app.identityOf(step.userId));
      if (!identity || (await factorsOf(app.db, identity.identity._id)).methods.length > 0)
        throw expired();
      return beginTotp(factors, {
        id: identity.identity._id,
        username: identity.identity.username,
      });
    },
  );

  app.post(
    '/auth/passkey/options',
    {
      config: { public: true },
      schema: {
        body: passkeyOptionsInputSchema,
        response: { 200: webAuthnOptionsSchema, ...errors },
      },
      preValidation: limited('login', limit * 3),
    },
    async (request) => ({
      ...(await authenticationOptions(passkeyContext, request.body.challenge)),
    }),
  );

  app.post(
    '/auth/passkey',
    {
      config: { public: true },
      schema: { body: passkeySignInSchema, response: { 200: loginResponseSchema, ...errors } },
      preValidation: limited('login', limit * 3),
    },
    async (request, reply) => {
      const { challenge, credential } = request.body;
      const { userId, stepHash } = await verifyPasskeySignIn(passkeyContext, credential);
      // A passkey within a sign-in's second step ends that step.
      if (stepHash) {
        if (!challenge || hashToken(challenge) !== stepHash) throw expired();
        if (!(await takeChallenge(app.db, app.now(), challenge, 'second_factor'))) throw expired();
      }
      const session = await completeSignIn(
        app.sessions,
        userId,
        actorOf(request, null),
        stepHash ? 'with a passkey (second step)' : 'with a passkey',
      );
      await signedInHere(request, reply, userId);
      return session;
    },
  );

  app.post(
    '/auth/register',
    {
      config: { public: true },
      schema: { body: registerSchema, response: { 200: loginResponseSchema, ...errors } },
      preValidation: limited('register', limit),
    },
    async (request) => register(app.sessions, request.body, actorOf(request, null)),
  );

  app.post(
    '/auth/refresh-token',
    {
      config: { public: true },
      schema: { body: refreshTokenBodySchema, response: { 200: refreshResponseSchema, ...errors } },
      // Every open tab refreshes every few minutes: a looser limit than sign-in's.
      preValidation: limited('refresh', limit * 3),
    },
    async (request) =>
      refreshSession(app.sessions, request.body.refreshToken, (userId) =>
        auditUserEvent(app.db, actorOf(request, null), userId, {
          action: 'auth.refresh_reuse_detected',
          summary: 'A spent refresh token was used again: every session of that sign-in is ended',
        }),
      ),
  );

  app.post(
    '/auth/logout',
    {
      config: { public: true },
      schema: { body: refreshTokenBodySchema, response: { 204: z.null(), 400: apiErrorSchema } },
    },
    async (request, reply) => {
      const userId = await endSession(app.db, request.body.refreshToken, app.now());
      if (userId) {
        await auditUserEvent(app.db, actorOf(request, null), userId, {
          action: 'auth.logout',
          summary: 'Signed out',
        });
      }
      return reply.status(204).send(null);
    },
  );

  const google =
    config.google &&
    new GoogleSignIn(app.db, config.google, `${config.publicUrl}/api/auth/google/callback`);

  app.get(
    '/auth/google',
    {
      config: { public: true },
      schema: { response: { 200: googleUrlSchema, 502: apiErrorSchema, 503: apiErrorSchema } },
    },
    async () => {
      if (!google)
        throw new AppError(
          503,
          'SIGN_IN_PROVIDER_NOT_CONFIGURED',
          messages.server.googleNotConfigured,
        );
      return { url: await google.authorizationUrl(app.now()) };
    },
  );

  app.get(
    '/auth/google/callback',
    {
      config: { public: true },
      schema: {
        response: {
          302: z
            .null()
            .describe('To /google-callback/ with the tokens in its query, or to /Login on failure'),
        },
      },
    },
    async (request, reply) => {
      try {
        if (!google) throw new ExternalSignInError('Google sign-in is not configured');
        const userId = await google.complete(new URL(request.url, config.publicUrl), app.now());
        // An account with a second factor goes on to its second step on the sign-in page (in
        // the fragment, which the browser does not send on).
        const step = await secondStep(app.db, app.now(), userId);
        if (step) {
          const { challenge, methods, enrol, expiresAt } = step.secondFactor;
          const fragment = new URLSearchParams({
            challenge,
            methods: methods.join(','),
            enrol: String(enrol),
            expiresAt,
          });
          return reply.redirect(`/Login#${fragment.toString()}`);
        }
        const { jwt, refreshToken } = await startSession(app.sessions, userId);
        await auditUserEvent(app.db, actorOf(request, null), userId, {
          action: 'auth.login',
          summary: 'Signed in with Google',
        });
        const query = new URLSearchParams({ token: jwt, refreshToken });
        return reply.redirect(`/google-callback/?${query.toString()}`);
      } catch (error) {
        request.log.warn({ err: error }, 'Google sign-in failed');
        return reply.redirect('/Login');
      }
    },
  );

  app.post(
    '/auth/download-link',
    {
      // Any signed-in user may ask: the export itself checks that they may read its list.
      config: { signedIn: true },
      schema: {
        body: downloadLinkRequestSchema,
        response: { 200: downloadLinkSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const user = request.user!;
      const { path } = request.body;
      const sessionGeneration = (await app.identityOf(user._id))?.sessionGeneration ?? 0;
      const ticket = await app.accessTokens.signDownload(
        user._id,
        { sessionGeneration, sessionId: request.sessionId },
        path,
      );
      return { url: `${path}${path.includes('?') ? '&' : '?'}ticket=${ticket}` };
    },
  );

  app.get(
    '/users/identify',
    {
      // It authenticates by its own token, so a user with no role may call it too.
      config: { public: true },
      schema: {
        querystring: identifyQuerySchema,
        response: { 200: identitySchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const header = request.headers['x-access-token'];
      const token = (typeof header === 'string' ? header : undefined) ?? request.query.token;
      // A personal access token is no session: it is not told its owner here (nor put in URLs).
      if (token?.startsWith(PERSONAL_TOKEN_PREFIX))
        throw unauthorized('UNAUTHENTICATED', messages.server.invalidAccessToken);
      // A session ended through another server a moment ago counts here too.
      await app.pgEvents.heard();
      return app.authenticate(request, token ?? '');
    },
  );
};
