import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  routeIdParamsSchema,
  routePermissionSchema,
  updateRoutePermissionSchema,
} from '@common/schemas/permissions';
import { listRoutePermissions, updateRoutePermission } from './permissions.service';

/** The route-permission editor's API: `GET /api/routes`, `PUT /api/routes/:id`. */
export const permissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/routes', { schema: { response: { 200: z.array(routePermissionSchema) } } }, async () =>
    listRoutePermissions(app.db),
  );

  app.put(
    '/routes/:id',
    {
      schema: {
        params: routeIdParamsSchema,
        body: updateRoutePermissionSchema,
        response: { 200: routePermissionSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const updated = await updateRoutePermission(
        app.db,
        request.params.id,
        request.body.allowedRoles,
      );
      // Other servers reload on the NOTIFY; this one at once, before answering.
      await app.reloadPermissions();
      return updated;
    },
  );
};
