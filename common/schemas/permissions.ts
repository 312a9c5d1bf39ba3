import { z } from 'zod';

/** A row of the route-permission table (spec section 3: Route). */
export const routePermissionSchema = z.object({
  _id: z.string(),
  routeEntity: z.string(),
  routeVerb: z.string(),
  routePath: z.string(),
  allowedRoles: z.array(z.string()),
});

/** `PUT /api/routes/{id}`. */
export const updateRoutePermissionSchema = z.object({
  allowedRoles: z.array(z.string().min(1)).max(100),
});

export const routeIdParamsSchema = z.object({ id: z.uuid('must be a route id') });

export type RoutePermission = z.infer<typeof routePermissionSchema>;
export type UpdateRoutePermissionInput = z.infer<typeof updateRoutePermissionSchema>;

/**
 * `GET /api/auth/permissions`: the caller's roles and the routes the routes table lets
 * them call, in the table's own `routeVerb`/`routePath` form (`/api/books/:id`). What the
 * screens may offer; the server stays the authority.
 */
export const permissionsSchema = z.object({
  roles: z.array(z.string()),
  allowed: z.array(z.object({ routeVerb: z.string(), routePath: z.string() })),
});

export type Permissions = z.infer<typeof permissionsSchema>;
