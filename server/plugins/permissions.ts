import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@common/messages';
import { forbidden } from '../lib/errors';
import {
  loadPermissionMap,
  PERMISSIONS_CHANNEL,
  type RegisteredRoute,
  syncRoutePermissions,
} from '../modules/permissions/permissions.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no signed-in user and stays out of the route-permission table. */
    public?: boolean;
  }
  interface FastifyInstance {
    /** Reloads this server's copy of the route-permission table. */
    reloadPermissions(): Promise<void>;
  }
}

/**
 * The route-permission engine. Every /api route not marked `config.public` is recorded as
 * it is registered; at start the routes table is synced from that registry. Each request to
 * such a route is authenticated (401) and its user's roles checked against the route's
 * allowed roles (403). The table is cached here and reloaded on every change, on every
 * server, through LISTEN/NOTIFY.
 */
export const permissionsPlugin = fp(
  async (app: FastifyInstance) => {
    const registry: RegisteredRoute[] = [];
    let allowed = new Map<string, Set<string>>();

    app.addHook('onRoute', (route) => {
      if (route.config?.public || !route.url.startsWith('/api/')) return;
      for (const verb of [route.method].flat()) {
        if (verb !== 'HEAD') registry.push({ verb, path: route.url });
      }
    });

    const reload = async () => {
      allowed = await loadPermissionMap(app.db);
    };
    app.decorate('reloadPermissions', reload);

    let stopListening: (() => Promise<void>) | undefined;
    app.addHook('onReady', async () => {
      await syncRoutePermissions(app.db, registry);
      await reload();
      stopListening = await app.database.listen(PERMISSIONS_CHANNEL, () => {
        reload().catch((error: unknown) =>
          app.log.error({ err: error }, 'Reloading the route permissions failed'),
        );
      });
    });
    app.addHook('onClose', async () => {
      // The database may already be gone (it failed, or its owner closed it first).
      await stopListening?.().catch((error: unknown) =>
        app.log.warn({ err: error }, 'Could not stop listening for permission changes'),
      );
    });

    app.addHook('onRequest', async (request) => {
      const { url, config } = request.routeOptions;
      if (!url?.startsWith('/api/') || config.public) return;
      const user = await app.authenticate(request);
      const verb = request.method === 'HEAD' ? 'GET' : request.method;
      const roles = allowed.get(`${verb} ${url}`);
      if (!user.roles.some((role) => roles?.has(role))) throw forbidden(messages.server.forbidden);
      request.user = user;
    });
  },
  { name: 'permissions', dependencies: ['auth'] },
);
