import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  permissionsSchema,
  routeIdParamsSchema,
  routePermissionSchema,
  updateRoutePermissionSchema,
} from '@common/schemas/permissions';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import { nameText } from '@common/schemas/text';
import {
  listRoutePermissions,
  recordPoliciesOf,
  roleExists,
  updateRoutePermission,
} from './permissions.service';
import { AppError, badRequest } from '../../lib/errors';
import { POLICY_ROUTES } from '../records/recordPolicies';
import { actorOf, recordAudit } from '../../lib/audit';
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

  app.post(
    '/auth/preview',
    {
      // An admin's, checked here: the preview is for whoever holds the admin role.
      config: { signedIn: true },
      schema: {
        body: z.object({ role: nameText().min(1, 'is required').max(64) }),
        response: { 204: z.null(), 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { role } = request.body;
      if (!request.user!.roles.includes(ADMIN_ROLE))
        throw new AppError(403, 'FORBIDDEN', messages.server.previewAdminsOnly);
      if (!(await roleExists(app.db, role))) {
        const message = messages.server.notAPreviewRole;
        throw badRequest(message, [{ field: 'body.role', message }]);
      }
      await recordAudit(app.db, actorOf(request), {
        action: 'auth.preview',
        summary: `Previewed the screens as the role ${role}`,
      });
      return reply.status(204).send(null);
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
