import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@common/messages';
import type { Identity } from '@common/schemas/auth';
import type { Permissions } from '@common/schemas/permissions';
import { ADMIN_ROLE, PREVIEW_ROLE_HEADER } from '@common/constants';
import { AppError, badRequest, forbidden } from '../lib/errors';
import {
  loadPermissionMap,
  PERMISSIONS_CHANNEL,
  type PermissionMap,
  permissionsOf,
  type RegisteredRoute,
  roleExists,
  syncRoutePermissions,
} from '../modules/permissions/permissions.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs no signed-in user and stays out of the route-permission table. */
    public?: boolean;
    /**
     * The route needs a signed-in user, whatever their roles (none included), and stays out
     * of the route-permission table: for what every user must reach, such as asking what
     * they may do. Not signed in → 401.
     */
    signedIn?: boolean;
    /**
     * The route exports the list registered at this path: it is a read of that list, allowed
     * to whoever may call `GET` on it (and kept out of the table), and it also takes a
     * download link's ticket in place of the access token.
     */
    exportOf?: string;
    /**
     * The route does, for many items, what the route registered as `verb path` does for one
     * (a bulk delete, a bulk restore): allowed to whoever may call that one, and kept out of
     * the table, so the two can never be granted apart.
     */
    checkedAs?: { verb: string; path: string };
  }
  interface FastifyInstance {
    /** Reloads this server's copy of the route-permission table. */
    reloadPermissions(): Promise<void>;
    /** What the user may call, by this server's copy of the route-permission table. */
    permissionsOf(user: Identity): Permissions;
    /** Whether the user may call `VERB /path` (the path as registered), by that same copy. */
    mayCall(user: Identity, verb: string, path: string): boolean;
    /** The user's roles allowed on `VERB /path`, by that same copy (what record policies read). */
    rolesAllowed(user: Identity, verb: string, path: string): string[];
    /**
     * Whether the request's user may call `VERB /path`, and its personal access token (if it
     * was made with one) names that route: what a handler asks before doing more than its
     * own route does (an import that also updates).
     */
    mayRequest(request: FastifyRequest, verb: string, path: string): boolean;
  }
}

/**
 * The route-permission engine. Every /api route not marked `config.public` or
 * `config.signedIn` is recorded as it is registered; at start the routes table is synced
 * from that registry. Each request to such a route is authenticated (401) and its user's
 * roles checked against the route's allowed roles (403); a `signedIn` route is only
 * authenticated. The table is cached here and reloaded on every change, on every server,
 * through LISTEN/NOTIFY.
 */
export const permissionsPlugin = fp(
  async (app: FastifyInstance) => {
    const registry: RegisteredRoute[] = [];
    let allowed: PermissionMap = new Map();

    app.addHook('onRoute', (route) => {
      const { config } = route;
      if (
        config?.public ||
        config?.signedIn ||
        config?.exportOf ||
        config?.checkedAs ||
        !route.url.startsWith('/api/')
      )
        return;
      for (const verb of [route.method].flat()) {
        if (verb !== 'HEAD') registry.push({ verb, path: route.url });
      }
    });

    // Reloads may overlap (notices in quick succession); the table of the latest started
    // one that finished wins, so an older read never replaces a newer one.
    let started = 0;
    let applied = 0;
    const reload = async () => {
      const load = ++started;
      const map = await loadPermissionMap(app.db);
      if (load > applied) {
        applied = load;
        allowed = map;
      }
    };
    // A reload a notice started: requests wait for it, so a change made through another
    // server counts from the first request this one handles after hearing of it.
    let pending: Promise<void> | undefined;
    const reloadInBackground = () => {
      const reloading: Promise<void> = reload()
        .catch((error: unknown) =>
          app.log.error({ err: error }, 'Reloading the route permissions failed'),
        )
        .finally(() => {
          if (pending === reloading) pending = undefined;
        });
      pending = reloading;
    };
    app.decorate('reloadPermissions', reload);
    app.decorate('permissionsOf', (user: Identity) => permissionsOf(allowed, user.roles));
    const rolesAllowed = (user: Identity, verb: string, path: string) => {
      const route = allowed.get(`${verb} ${path}`);
      return user.roles.filter((role) => route?.allowedRoles.has(role));
    };
    const mayCall = (user: Identity, verb: string, path: string) =>
      rolesAllowed(user, verb, path).length > 0;
    app.decorate('rolesAllowed', rolesAllowed);
    app.decorate('mayCall', mayCall);
    app.decorate(
      'mayRequest',
      (request: FastifyRequest, verb: string, path: string) =>
        request.user !== null &&
        mayCall(request.user, verb, path) &&
        (!request.personalToken || request.personalToken.routes.has(`${verb} ${path}`)),
    );

    // A change from another server arrives as a NOTIFY; after the connection was lost, one
    // may have been missed.
    await app.pgEvents.subscribe(PERMISSIONS_CHANNEL, {
      onNotify: reloadInBackground,
      onReconnect: reloadInBackground,
    });
    app.addHook('onReady', async () => {
      await syncRoutePermissions(app.db, registry);
      await reload();
    });

    /**
     * The user as an admin's preview shows them (PREVIEW_ROLE_HEADER): with that role alone,
     * for every check and record policy of the request. Anyone else's header is ignored.
     * @throws 400 for a role that does not exist.
     */
    const previewed = async (user: Identity, request: FastifyRequest): Promise<Identity> => {
      const role = request.headers[PREVIEW_ROLE_HEADER];
      if (typeof role !== 'string' || !user.roles.includes(ADMIN_ROLE)) return user;
      if (!(await roleExists(app.db, role))) {
        const message = messages.server.notAPreviewRole;
        throw badRequest(message, [{ field: `headers.${PREVIEW_ROLE_HEADER}`, message }]);
      }
      return { ...user, roles: [role] };
    };

    app.addHook('onRequest', async (request, reply) => {
      const { url, config } = request.routeOptions;
      if (!url?.startsWith('/api/') || config.public) return;
      // What a signed-in user is answered is theirs alone: no cache, shared or the
      // browser's, may keep it (a route may still say more, as the event stream does).
      void reply.header('cache-control', 'no-store');
      // Every change to identities or routes committed before this request, on any
      // server, has cleared the identity cache and started its permissions reload.
      await app.pgEvents.heard();
      const signedIn = config.exportOf
        ? await app.authenticateDownload(request)
        : await app.authenticate(request);
      const user = await previewed(signedIn, request);
      if (pending) await pending;
      const { personalToken } = request;
      // A personal access token reaches the routes of the table it names, and only while its
      // owner may call them; never what every signed-in user reaches (their sign-in factors,
      // their tokens, the event stream), which belongs to a session.
      if (config.signedIn && personalToken)
        throw new AppError(403, 'TOKEN_SCOPE', messages.server.tokenScopeSessionOnly);
      if (!config.signedIn) {
        const checked =
          config.checkedAs ??
          (config.exportOf
            ? { verb: 'GET', path: config.exportOf }
            : { verb: request.method === 'HEAD' ? 'GET' : request.method, path: url });
        if (!app.mayCall(user, checked.verb, checked.path))
          throw forbidden(messages.server.forbidden);
        if (personalToken && !personalToken.routes.has(`${checked.verb} ${checked.path}`))
          throw new AppError(403, 'TOKEN_SCOPE', messages.server.tokenScope);
      }
      request.user = user;
    });
  },
  { name: 'permissions', dependencies: ['auth', 'pgEvents'] },
);
