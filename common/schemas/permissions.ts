import { z } from 'zod';
import { baseVersionField, itemVersionSchema } from './itemVersion';
import { nameText } from './text';
import { appliedPoliciesSchema } from './policies';

/** A row of the route-permission table (spec section 3: Route). */
export const routePermissionSchema = z.object({
  _id: z.string(),
  routeEntity: z.string(),
  routeVerb: z.string(),
  routePath: z.string(),
  allowedRoles: z.array(z.string()),
  _version: itemVersionSchema,
});

/** `PUT /api/routes/{id}`. */
export const updateRoutePermissionSchema = z.object({
  allowedRoles: z.array(nameText().min(1, 'must not be empty')).max(100),
  ...baseVersionField,
});

export const routeIdParamsSchema = z.object({ id: z.uuid('must be a route id') });

export type RoutePermission = z.infer<typeof routePermissionSchema>;
export type UpdateRoutePermissionInput = z.infer<typeof updateRoutePermissionSchema>;

/** A route a user may call, in the routes table's own form (`GET`, `/api/books/:id`). */
export const allowedRouteSchema = z.object({
  routeVerb: z.string(),
  routePath: z.string(),
});

/**
 * `GET /api/auth/permissions`: the caller's role names, the routes the routes table lets
 * them call, and the record policies that apply to them. It tells the screens what to
 * offer; the server still checks every call.
 */
export const permissionsSchema = z.object({
  roles: z.array(z.string()),
  allowed: z.array(allowedRouteSchema),
  /**
   * By entity name, the record policies that narrow what the caller may do there (an entity
   * where none does is absent), so the screens hide fields and offer only allowed edits.
   */
  policies: z.record(z.string(), appliedPoliciesSchema).optional(),
});

export type AllowedRoute = z.infer<typeof allowedRouteSchema>;
export type Permissions = z.infer<typeof permissionsSchema>;
