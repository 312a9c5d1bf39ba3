import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@common/messages';
import {
  accessTokenIdParamsSchema,
  accessTokenSchema,
  createAccessTokenSchema,
  createdAccessTokenSchema,
} from '@common/schemas/accessTokens';
import { apiErrorSchema } from '@common/schemas/apiError';
import { actorOf, recordAudit } from '../../lib/audit';
import { badRequest, notFound } from '../../lib/errors';
import { createAccessToken, listAccessTokens, revokeAccessToken } from './accessTokens.service';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/**
 * The signed-in user's personal access tokens: for scripts, limited to some of the routes the
 * user may call (and always to what they may call now). Reached from a session only.
 */
export const accessTokensRoutes: FastifyPluginAsyncZod = async (app) => {
  const config = { signedIn: true };

  app.get(
    '/auth/access-tokens',
    { config, schema: { response: { 200: z.array(accessTokenSchema) } } },
    async (request) => listAccessTokens(app.db, request.user!._id),
  );

  app.post(
    '/auth/access-tokens',
    {
      config,
      schema: {
        body: createAccessTokenSchema,
        response: { 201: createdAccessTokenSchema, ...errors },
      },
    },
    async (request, reply) => {
      await app.requireRecentSignIn(request);
      const user = request.user!;
      const { routes } = request.body;
      const refused = routes.flatMap(({ routeVerb, routePath }, index) =>
        app.mayCall(user, routeVerb, routePath)
          ? []
          : [{ field: `body.routes.${index}`, message: messages.server.routeNotAllowed }],
      );
      if (refused.length > 0)
        throw badRequest(
          `${messages.server.invalidRequest}: ${refused.map((f) => `${f.field} ${f.message}`).join('; ')}`,
          refused,
        );
      const created = await createAccessToken(app.db, app.now(), user._id, request.body);
      await recordAudit(app.db, actorOf(request), {
        action: 'auth.access_token_created',
        resourceId: created.accessToken._id,
        summary: `Created the access token ${JSON.stringify(created.accessToken.name)} for ${routes.length} route(s), until ${created.accessToken.expiresAt}`,
      });
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/auth/access-tokens/:id',
    {
      config,
      schema: { params: accessTokenIdParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const name = await revokeAccessToken(app.db, request.user!._id, request.params.id);
      if (name === undefined) throw notFound('Access token');
      await recordAudit(app.db, actorOf(request), {
        action: 'auth.access_token_revoked',
        resourceId: request.params.id,
        summary: `Revoked the access token ${JSON.stringify(name)}`,
      });
      return reply.status(204).send(null);
    },
  );
};
