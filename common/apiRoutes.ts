import { ADMIN_ROLE } from './constants';

/**
 * The routes table: every `/api` route that needs a signed-in user and is checked against
 * its allowed roles, as `[verb, path]` in the form the server registers it (`/api/books/:id`).
 * Routes marked public or signed-in only (sign-in, `GET /api/auth/permissions`, the event
 * stream) are not in it. A server test holds it equal to the server's registry, both ways.
 */
export const API_ROUTES = [
  ['GET', '/api/routes'],
  ['PUT', '/api/routes/:id'],
  ['GET', '/api/roles'],
  ['POST', '/api/roles'],
  ['GET', '/api/roles/:id'],
  ['DELETE', '/api/roles/:id'],
  ['POST', '/api/roles/:id/restore'],
  ['GET', '/api/roles/:id/users'],
  ['PUT', '/api/roles/:id/users/:userId'],
  ['PUT', '/api/roles/:id/second-factor'],
  ['GET', '/api/users'],
  ['POST', '/api/users'],
  ['PUT', '/api/users/:id'],
  ['DELETE', '/api/users/:id'],
  ['POST', '/api/users/bulk-restore'],
  ['PUT', '/api/users/:id/password'],
  ['DELETE', '/api/users/:id/second-factor'],
  ['GET', '/api/books'],
  ['GET', '/api/books/search-book'],
  ['GET', '/api/books/:id'],
  ['POST', '/api/books/add'],
  ['PUT', '/api/books/:id'],
  ['DELETE', '/api/books/:id'],
  ['GET', '/api/books/:id/versions'],
  ['GET', '/api/books/recently-deleted'],
  ['POST', '/api/books/:id/versions/:versionId/restore'],
  ['GET', '/api/entities'],
  ['POST', '/api/entities'],
  ['GET', '/api/entities/:idOrName'],
  ['PUT', '/api/entities/:id'],
  ['PUT', '/api/entities/:id/policies'],
  ['DELETE', '/api/entities/:id'],
  ['GET', '/api/entities/:id/versions'],
  ['GET', '/api/entities/recently-deleted'],
  ['POST', '/api/entities/:id/versions/:versionId/restore'],
  ['GET', '/api/entity-records/:entityName'],
  ['POST', '/api/entity-records/:entityName'],
  ['PUT', '/api/entity-records/:entityName/:id'],
  ['DELETE', '/api/entity-records/:entityName/:id'],
  ['GET', '/api/entity-records/:entityName/:id/versions'],
  ['GET', '/api/entity-records/:entityName/recently-deleted'],
  ['POST', '/api/entity-records/:entityName/:id/versions/:versionId/restore'],
  ['GET', '/api/LIMS/jobs'],
  ['GET', '/api/LIMS/jobs/:id'],
  ['GET', '/api/audit'],
  ['GET', '/api/views'],
  ['POST', '/api/views'],
  ['PUT', '/api/views/:id'],
  ['DELETE', '/api/views/:id'],
  ['POST', '/api/role-views'],
  ['PUT', '/api/role-views/:id'],
  ['DELETE', '/api/role-views/:id'],
] as const;

/** A route of the routes table: `readonly ['PUT', '/api/books/:id']`. */
export type ApiRoute = (typeof API_ROUTES)[number];

/** A verb the routes table has a route for. */
export type ApiVerb = ApiRoute[0];

/** A path of the routes table, whatever its verb. */
export type ApiPath = ApiRoute[1];

/**
 * The paths the routes table has a `V` route for: `ApiPathOf<'PUT'>` has `/api/books/:id`
 * but not `/api/books`.
 */
export type ApiPathOf<V extends ApiVerb> = Extract<ApiRoute, readonly [V, string]>[1];

/** `/api/books/:id` → `books`: the resource a route belongs to (the table's `routeEntity`). */
export const routeEntityOf = (path: string) => path.split('/')[2] ?? '';

/**
 * The roles a route starts with (DESIGN's default grants): viewers may call every GET but
 * those of users, roles, routes and the audit log; contributors also create, update and
 * delete books and entity records; everyone keeps their own saved views; admins may call
 * everything (views for a role among it). The server seeds new routes
 * with it; the client tests answer the permissions call by it.
 */
export function defaultAllowedRoles({ verb, path }: { verb: string; path: string }): string[] {
  const entity = routeEntityOf(path);
  if (verb === 'GET' && !['users', 'roles', 'routes', 'audit'].includes(entity)) {
    return [ADMIN_ROLE, 'contributor', 'viewer'];
  }
  if (['books', 'entity-records'].includes(entity)) return [ADMIN_ROLE, 'contributor'];
  // Everyone keeps views of their own lists; views for a role are the admins'.
  if (entity === 'views') return [ADMIN_ROLE, 'contributor', 'viewer'];
  return [ADMIN_ROLE];
}
