import type { FastifyRequest } from 'fastify';
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
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { type Limit, limitAttempts } from '../../lib/rateLimiter';
import { actorOf } from '../../lib/audit';
import { auditUserEvent, login, register } from './auth.service';
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
   * Whether a password attempt for `username` (user `userId`, if one has that name) is
   * checked. Every address and server together may have the user's password checked
   * `passwordAttemptsPerUser` times a minute; beyond, 429 without hashing, so guesses in
   * parallel from many addresses stay few and cost no CPU. A browser holding the user's
   * device cookie (set at an earlier sign-in there) is not held to that budget, so the
   * owner gets in during a flood; it has a budget of its own, should the cookie be stolen.
   */
  const admitPasswordAttempt =
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

  app.post(
    '/auth/login',
    {
      config: { public: true },
      schema: { body: loginSchema, response: { 200: loginResponseSchema, ...errors } },
      // An address may try a few usernames (people behind one router), each a few times.
      preValidation: limited('login', limit * 3, ({ username }, ip) =>
        typeof username === 'string'
          ? [{ key: `user-ip:${username.trim()}:${ip}`, max: limit }]
          : [],
      ),
    },
    async (request, reply) => {
      const { session, userId } = await login(
        app.sessions,
        request.body,
        actorOf(request, null),
        admitPasswordAttempt(request, request.body.username),
      );
      const generation = (await app.identityOf(userId))?.sessionGeneration ?? 0;
      app.deviceCookies.set(request, reply, userId, generation);
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
      // A session ended through another server a moment ago counts here too.
      await app.pgEvents.heard();
      return app.authenticate(request, token ?? '');
    },
  );
};
