import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  permissionsSchema,
  routeIdParamsSchema,
  routePermissionSchema,
  updateRoutePermissionSchema,
} from '@common/schemas/permissions';
import {
  listRoutePermissions,
  recordPoliciesOf,
  updateRoutePermission,
} from './permissions.service';
import { POLICY_ROUTES } from '../records/recordPolicies';
import { actorOf } from '../../lib/audit';
import { baseVersions } from '../../lib/concurrency';

/**
 * The route-permission editor's API (`GET /api/routes`, `PUT /api/routes/:id`), and what
 * the signed-in user may call (`GET /api/auth/permissions`).
 */
export const permissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/permissions',
    {
      // Every signed-in user must reach it, a user with no role too: out of the table.
      config: { signedIn: true },
      schema: { response: { 200: permissionsSchema, 401: apiErrorSchema } },
    },
    async (request) => {
      const user = request.user!;
      const policies = await recordPoliciesOf(app.db, (action) =>
        app.rolesAllowed(user, ...POLICY_ROUTES[action]),
      );
      return { ...app.permissionsOf(user), ...(Object.keys(policies).length ? { policies } : {}) };
    },
  );

  app.get('/routes', { schema: { response: { 200: z.array(routePermissionSchema) } } }, async () =>
    listRoutePermissions(app.db),
  );

  app.put(
    '/routes/:id',
    {
      schema: {
        params: routeIdParamsSchema,
        body: updateRoutePermissionSchema,
        response: {
          200: routePermissionSchema,
          400: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const updated = await updateRoutePermission(
        app.db,
        request.params.id,
        request.body.allowedRoles,
        actorOf(request),
        baseVersions(request),
      );
      // Other servers reload on the NOTIFY; this one at once, before answering.
      await app.reloadPermissions();
      return updated;
    },
  );
};
