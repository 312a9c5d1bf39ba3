import { asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { defaultAllowedRoles, routeEntityOf } from '@common/apiRoutes';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import type { AllowedRoute, Permissions, RoutePermission } from '@common/schemas/permissions';
import type { Db } from '../../db/client';
import { entities } from '../../db/schema/entities';
import { roles } from '../../db/schema/roles';
import { type AppliedPolicies, type PolicyAction, appliedPolicies } from '@common/schemas/policies';
import { routes } from '../../db/schema/routes';
import { type Actor, recordAudit } from '../../lib/audit';
import { publishChanges } from '../../lib/changeEvents';
import { checkVersion } from '../../lib/concurrency';
import { adminProtected, badRequest, notFound } from '../../lib/errors';

/** A route of the server's registry that needs a signed-in user. */
export interface RegisteredRoute {
  verb: string;
  path: string;
}

/**
 * The NOTIFY channel that tells every server to reload its permission cache: a trigger on
 * the routes table fires it on any change, made by the API or in SQL (migration 0023).
 */
export const PERMISSIONS_CHANNEL = 'route_permissions_changed';

/** The routes screen's own routes: the admin role can never lose them. */
const ADMIN_ONLY_FOREVER = [
  { verb: 'GET', path: '/api/routes' },
  { verb: 'PUT', path: '/api/routes/:id' },
];

const toWire = (row: typeof routes.$inferSelect): RoutePermission => ({
  _id: row.id,
  routeEntity: row.routeEntity,
  routeVerb: row.routeVerb,
  routePath: row.routePath,
  allowedRoles: row.allowedRoles,
  _version: row.version,
});

/**
 * Makes the routes table match the registry: new routes get their default grants, grants
 * already there are kept, routes that no longer exist are removed. Safe when several
 * servers start at once.
 */
export async function syncRoutePermissions(db: Db, registry: RegisteredRoute[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('routes-sync'))`);
    if (registry.length > 0) {
      await tx
        .insert(routes)
        .values(
          registry.map((route) => ({
            routeEntity: routeEntityOf(route.path),
            routeVerb: route.verb,
            routePath: route.path,
            allowedRoles: defaultAllowedRoles(route),
          })),
        )
        .onConflictDoNothing();
    }
    const keys = registry.map((route) => `${route.verb} ${route.path}`);
    await tx
      .delete(routes)
      .where(
        keys.length > 0
          ? notInArray(sql`${routes.routeVerb} || ' ' || ${routes.routePath}`, keys)
          : undefined,
      );
  });
}

/** The routes table as each server caches it: every route, keyed by `VERB /path`. */
export type PermissionMap = Map<string, AllowedRoute & { allowedRoles: Set<string> }>;

/** Every route with its allowed roles, keyed by `VERB /path`. */
export async function loadPermissionMap(db: Db): Promise<PermissionMap> {
  const rows = await db.select().from(routes);
  return new Map(
    rows.map(({ routeVerb, routePath, allowedRoles }) => [
      `${routeVerb} ${routePath}`,
      { routeVerb, routePath, allowedRoles: new Set(allowedRoles) },
    ]),
  );
}

/**
 * What the user of `roles` may call, by the given permission map: the routes any of the
 * roles is allowed on, by path, then verb. Reads no database (the map is the cached table).
 */
export function permissionsOf(map: PermissionMap, roles: string[]): Permissions {
  const allowed = [...map.values()]
    .filter((route) => roles.some((role) => route.allowedRoles.has(role)))
    .map(({ routeVerb, routePath }) => ({ routeVerb, routePath }))
    .sort(
      (a, b) => a.routePath.localeCompare(b.routePath) || a.routeVerb.localeCompare(b.routeVerb),
    );
  return { roles, allowed };
}

/**
 * The record policies that narrow a user on each entity, by entity name (`granted(action)`:
 * the user's roles whose route grants allow it); entities where none does are left out.
 */
export async function recordPoliciesOf(
  db: Db,
  granted: (action: PolicyAction) => readonly string[],
): Promise<Record<string, AppliedPolicies>> {
  const rows = await db
    .select({ name: entities.name, policies: entities.policies })
    .from(entities)
    .where(sql`${entities.policies} <> '[]'::jsonb`);
  return Object.fromEntries(
    rows.flatMap(({ name, policies }) => {
      const applied = appliedPolicies(policies, granted);
      return applied ? [[name, applied]] : [];
    }),
  );
}

/** Whether a role of this name exists (a preview's). */
export async function roleExists(db: Db, name: string): Promise<boolean> {
  const [found] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, name));
  return found !== undefined;
}

/** The routes table, by entity, then path, then verb. */
export async function listRoutePermissions(db: Db): Promise<RoutePermission[]> {
  const rows = await db
    .select()
    .from(routes)
    .orderBy(asc(routes.routeEntity), asc(routes.routePath), asc(routes.routeVerb));
  return rows.map(toWire);
}

/**
 * Sets the roles allowed on a route, and tells every server.
 * @throws 404 for an unknown route; 400 for unknown role names, or for taking the admin
 * role off the routes screen's own routes; 409 VERSION_CONFLICT when `base` names another
 * version than the current one.
 */
export async function updateRoutePermission(
  db: Db,
  id: string,
  allowedRoles: string[],
  actor: Actor,
  base: readonly number[] = [],
): Promise<RoutePermission> {
  const wanted = [...new Set(allowedRoles)].sort();
  return db.transaction(async (tx) => {
    const [route] = await tx.select().from(routes).where(eq(routes.id, id)).for('update');
    if (!route) throw notFound('Route');
    await checkVersion(route, base, () => toWire(route));
    const known = wanted.length
      ? await tx.select({ name: roles.name }).from(roles).where(inArray(roles.name, wanted))
      : [];
    const unknown = wanted.filter((name) => !known.some((role) => role.name === name));
    if (unknown.length > 0) {
      throw badRequest(messages.server.unknownRoles(unknown), [
        { field: 'body.allowedRoles', message: messages.server.unknownRoles(unknown) },
      ]);
    }
    const guarded = ADMIN_ONLY_FOREVER.some(
      ({ verb, path }) => verb === route.routeVerb && path === route.routePath,
    );
    if (guarded && !wanted.includes(ADMIN_ROLE))
      throw adminProtected(messages.server.adminKeepsRoutes);

    const [updated] = await tx
      .update(routes)
      .set({ allowedRoles: wanted, version: sql`${routes.version} + 1` })
      .where(eq(routes.id, id))
      .returning();
    await recordAudit(tx, actor, {
      action: 'route.update',
      resourceId: id,
      summary: `${route.routeVerb} ${route.routePath}: ${wanted.join(', ') || 'no role'} (was ${route.allowedRoles.join(', ') || 'no role'})`,
    });
    await publishChanges(tx, actor, [
      { resource: 'routes', id, action: 'update', version: updated!.version },
    ]);
    return toWire(updated!);
  });
}
