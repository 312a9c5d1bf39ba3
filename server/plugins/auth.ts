import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@common/messages';
import type { Identity } from '@common/schemas/auth';
import type { Config } from '../config';
import { unauthorized } from '../lib/errors';
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from '../lib/rateLimiter';
import { AccessTokens, downloadPathOf, loadSigningKey } from '../lib/tokens';
import { IDENTITIES_CHANNEL, IdentityCache } from '../modules/auth/identityCache';
import type { IdentityRecord, SessionContext } from '../modules/auth/session.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's clock (tests move it). */
    now: () => Date;
    accessTokens: AccessTokens;
    sessions: SessionContext;
    rateLimitStore: RateLimitStore;
    /**
     * The user of a request's access token (from `authorization: Bearer …`, or the given
     * token), with their roles read from the database.
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
  }
}

interface AuthPluginOptions {
  config: Config;
  now?: () => Date;
}

/** Access tokens, sessions, rate-limit counters and request authentication. */
export const authPlugin = fp(
  async (app: FastifyInstance, { config, now = () => new Date() }: AuthPluginOptions) => {
    const tokens = new AccessTokens(await loadSigningKey(app.db, config.jwtSecret), now);
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
    app.decorate('sessions', {
      db: app.db,
      tokens,
      now,
      refreshTokenDays: config.refreshTokenDays,
    });
    app.decorate('rateLimitStore', rateLimitStore);
    app.decorateRequest('user', null);

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

    app.decorate('identityOf', (userId: string) => identities.find(userId));
    app.decorate('authenticate', async (request: FastifyRequest, given?: string) => {
      const header = request.headers.authorization;
      const token = given ?? (header?.startsWith('Bearer ') ? header.slice(7) : undefined);
      if (!token) throw unauthorized('UNAUTHENTICATED', messages.server.signInRequired);
      const claims = await tokens.verify(token);
      const found = claims && (await identities.find(claims.sub));
      // A token of an earlier session generation was issued before its sessions were ended.
      if (!found || found.sessionGeneration !== claims.sessionGeneration)
        throw unauthorized('UNAUTHENTICATED', messages.server.invalidAccessToken);
      return found.identity;
    });
    app.decorate('authenticateDownload', async (request: FastifyRequest) => {
      const ticket = new URL(request.url, 'http://server').searchParams.get('ticket');
      if (request.headers.authorization || !ticket) return app.authenticate(request);
      const claims = await tokens.verifyDownload(ticket, downloadPathOf(request.url));
      const found = claims && (await identities.find(claims.sub));
      if (!found || found.sessionGeneration !== claims.sessionGeneration)
        throw unauthorized('UNAUTHENTICATED', messages.server.invalidDownloadLink);
      return found.identity;
    });
  },
  { name: 'auth', dependencies: ['db', 'pgEvents'] },
);
