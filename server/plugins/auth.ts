import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@common/messages';
import type { Identity } from '@common/schemas/auth';
import type { Config } from '../config';
import { AppError, unauthorized } from '../lib/errors';
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from '../lib/rateLimiter';
import { type AccessClaims, AccessTokens, downloadPathOf, loadSigningKey } from '../lib/tokens';
import {
  type PersonalToken,
  PERSONAL_TOKEN_PREFIX,
  verifyPersonalToken,
} from '../modules/accessTokens/accessTokens.service';
import { DeviceCookies } from '../modules/auth/deviceCookies';
import { EndedSessions, SESSIONS_ENDED_CHANNEL } from '../modules/auth/endedSessions';
import { IDENTITIES_CHANNEL, IdentityCache } from '../modules/auth/identityCache';
import { type RelyingParty, relyingPartyOf } from '../modules/auth/passkeys.service';
import {
  type IdentityRecord,
  type SessionContext,
  sessionStartedAt,
} from '../modules/auth/session.service';
import { RECENT_SIGN_IN_MINUTES } from '@common/constants';
import { SecretBox } from '../lib/secretBox';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's clock (tests move it). */
    now: () => Date;
    accessTokens: AccessTokens;
    deviceCookies: DeviceCookies;
    /** Encrypts the secrets kept in the database (authenticator apps'). */
    secretBox: SecretBox;
    /** Whom this site's passkeys are for (from PUBLIC_URL). */
    relyingParty: RelyingParty;
    sessions: SessionContext;
    rateLimitStore: RateLimitStore;
    /**
     * The user of a request's access token (from `authorization: Bearer …`, or the given
     * token), with their roles read from the database. A personal access token is set on the
     * request (`personalToken`).
     * @throws 401 when there is no token, or it is invalid or expired, or its user is gone.
     */
    authenticate(request: FastifyRequest, token?: string): Promise<Identity>;
    /**
     * The user of an export request: by its access token, or else by the download ticket
     * in its query (`ticket=`, bound to the rest of the URL).
     * @throws 401 as authenticate does, and for a ticket that is not one for this URL.
     */
    authenticateDownload(request: FastifyRequest): Promise<Identity>;
    /**
     * Who the user is now, and their session generation (from this server's cache); undefined
     * once they are deleted.
     */
    identityOf(userId: string): Promise<IdentityRecord | undefined>;
    /** Whether the session (an access token's `sid`) has ended, as this server has heard. */
    sessionEnded(sessionId: string | undefined): boolean;
    /**
     * @throws 403 RECENT_SIGN_IN_REQUIRED unless the request's session signed in within
     * RECENT_SIGN_IN_MINUTES (what adding a sign-in credential asks).
     */
    requireRecentSignIn(request: FastifyRequest): Promise<void>;
  }
  interface FastifyContextConfig {
    /**
     * The route writes users, roles or memberships: this server forgets its cached
     * identities before answering, so the writer's next request sees the change (other
     * servers hear of it through the database trigger's NOTIFY).
     */
    changesIdentities?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user, once the permission check has authenticated the request. */
    user: Identity | null;
    /** The session (`sid`) of the request's access token, once authenticated, if it names one. */
    sessionId: string | undefined;
    /** The personal access token the request was made with, once authenticated, if any. */
    personalToken: PersonalToken | undefined;
  }
}

interface AuthPluginOptions {
  config: Config;
  now?: () => Date;
}

/** Access tokens, sessions, rate-limit counters and request authentication. */
export const authPlugin = fp(
  async (app: FastifyInstance, { config, now = () => new Date() }: AuthPluginOptions) => {
    const signingKey = await loadSigningKey(app.db, config.jwtSecret);
    const tokens = new AccessTokens(signingKey, now);
    let rateLimitStore: RateLimitStore = new MemoryRateLimitStore(() => now().getTime());
    if (config.redisUrl) {
      const redisStore = new RedisRateLimitStore(config.redisUrl, {
        keyPrefix: config.redisKeyPrefix,
        log: app.log,
        now: () => now().getTime(),
      });
      await redisStore.connected;
      rateLimitStore = redisStore;
    }
    app.addHook('onClose', () => rateLimitStore.close());

    app.decorate('now', now);
    app.decorate('accessTokens', tokens);
    app.decorate('deviceCookies', new DeviceCookies(signingKey));
    app.decorate(
      'secretBox',
      new SecretBox(config.secretsKey ? new TextEncoder().encode(config.secretsKey) : signingKey),
    );
    app.decorate('relyingParty', relyingPartyOf(config.publicUrl));
    app.decorate('sessions', {
      db: app.db,
      tokens,
      now,
      refreshTokenDays: config.refreshTokenDays,
    });
    app.decorate('rateLimitStore', rateLimitStore);
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', undefined);
    app.decorateRequest('personalToken', undefined);

    // Roles come from the database, not the token, so a role taken away counts at once:
    // every server forgets its cached identities on the trigger's NOTIFY (and after its
    // notification connection was lost, as a NOTIFY may have been missed), and the server
    // that made a change also before it answers (routes marked `changesIdentities`).
    const identities = new IdentityCache(app.db, now);
    const forget = () => identities.invalidate();
    await app.pgEvents.subscribe(IDENTITIES_CHANNEL, { onNotify: forget, onReconnect: forget });
    app.addHook('onSend', async (request) => {
      if (request.routeOptions.config.changesIdentities) forget();
    });

    // A session that ends (logout, reuse, a password set) ends its access tokens on every
    // server at their next request: each server hears of it by NOTIFY, and reads those it
    // may have missed at start and after its notification connection was lost.
    const endedSessions = new EndedSessions(app.db, now);
    await app.pgEvents.subscribe(SESSIONS_ENDED_CHANNEL, {
      onNotify: (sessionId) => endedSessions.add(sessionId),
      onReconnect: () => {
        endedSessions
          .reload()
          .catch((error: unknown) =>
            app.log.error({ err: error }, 'Reading the ended sessions failed'),
          );
      },
    });
    // After listening: a session that ends meanwhile is heard, if not read.
    await endedSessions.reload();
    const sessionEnded = (sessionId: string | undefined) =>
      sessionId !== undefined && endedSessions.has(sessionId);
    app.decorate('sessionEnded', sessionEnded);

    app.decorate('identityOf', (userId: string) => identities.find(userId));
    app.decorate('requireRecentSignIn', async (request: FastifyRequest) => {
      const started = request.sessionId && (await sessionStartedAt(app.db, request.sessionId));
      if (!started || now().getTime() - started.getTime() > RECENT_SIGN_IN_MINUTES * 60_000)
        throw new AppError(
          403,
          'RECENT_SIGN_IN_REQUIRED',
          messages.server.recentSignInRequired(RECENT_SIGN_IN_MINUTES),
        );
    });
    /**
     * The identity of a token's claims, set on the request with its session; undefined when
     * its user is gone, or its session ended (a token of an earlier session generation was
     * issued before its user's sessions were ended).
     */
    const identityOfClaims = async (
      request: FastifyRequest,
      claims: Pick<AccessClaims, 'sub' | 'sessionGeneration' | 'sessionId'> | undefined,
    ) => {
      const found = claims && (await identities.find(claims.sub));
      if (
        !found ||
        found.sessionGeneration !== claims.sessionGeneration ||
        sessionEnded(claims.sessionId)
      )
        return undefined;
      request.sessionId = claims.sessionId;
      return found.identity;
    };
    app.decorate('authenticate', async (request: FastifyRequest, given?: string) => {
      const header = request.headers.authorization;
      const token = given ?? (header?.startsWith('Bearer ') ? header.slice(7) : undefined);
      if (!token) throw unauthorized('UNAUTHENTICATED', messages.server.signInRequired);
      if (token.startsWith(PERSONAL_TOKEN_PREFIX)) {
        const personalToken = await verifyPersonalToken(app.db, now(), token);
        const found = personalToken && (await identities.find(personalToken.userId));
        if (!found) throw unauthorized('UNAUTHENTICATED', messages.server.invalidAccessToken);
        request.personalToken = personalToken;
        return found.identity;
      }
      const identity = await identityOfClaims(request, await tokens.verify(token));
      if (!identity) throw unauthorized('UNAUTHENTICATED', messages.server.invalidAccessToken);
      return identity;
    });
    app.decorate('authenticateDownload', async (request: FastifyRequest) => {
      const ticket = new URL(request.url, 'http://server').searchParams.get('ticket');
      if (request.headers.authorization || !ticket) return app.authenticate(request);
      const claims = await tokens.verifyDownload(ticket, downloadPathOf(request.url));
      const identity = await identityOfClaims(request, claims);
      if (!identity) throw unauthorized('UNAUTHENTICATED', messages.server.invalidDownloadLink);
      return identity;
    });
  },
  { name: 'auth', dependencies: ['db', 'pgEvents'] },
);
