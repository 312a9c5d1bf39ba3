import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  createRoleViewSchema,
  createViewSchema,
  savedViewSchema,
  updateViewSchema,
  viewIdParamsSchema,
  viewListQuerySchema,
} from '@common/schemas/views';
import {
  createRoleView,
  createView,
  deleteRoleView,
  deleteView,
  listViews,
  updateRoleView,
  updateView,
} from './views.service';
import { actorOf } from '../../lib/audit';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/**
 * Saved views of the lists: a user's own (`/views`), and those an admin keeps for a role
 * (`/role-views`, a route of its own so that the right to it is granted apart).
 */
export const viewsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/views',
    {
      schema: {
        querystring: viewListQuerySchema,
        response: { 200: z.array(savedViewSchema), 400: apiErrorSchema },
      },
    },
    async (request) => {
      const user = request.user!;
      // Who may keep views for a role sees every role's, to change or delete them.
      const everyRole = app.mayRequest(request, 'POST', '/api/role-views');
      return listViews(app.db, request.query.grid, user, { everyRole });
    },
  );

  app.post(
    '/views',
    { schema: { body: createViewSchema, response: { 201: savedViewSchema, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await createView(app.db, request.body, request.user!)),
  );

  app.put(
    '/views/:id',
    {
      schema: {
        params: viewIdParamsSchema,
        body: updateViewSchema,
        response: { 200: savedViewSchema, ...errors },
      },
    },
    async (request) => updateView(app.db, request.params.id, request.body, request.user!),
  );

  app.delete(
    '/views/:id',
    { schema: { params: viewIdParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteView(app.db, request.params.id, request.user!);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/role-views',
    { schema: { body: createRoleViewSchema, response: { 201: savedViewSchema, ...errors } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createRoleView(app.db, request.body, request.user!, actorOf(request))),
  );

  app.put(
    '/role-views/:id',
    {
      schema: {
        params: viewIdParamsSchema,
        body: updateViewSchema,
        response: { 200: savedViewSchema, ...errors },
      },
    },
    async (request) =>
      updateRoleView(app.db, request.params.id, request.body, request.user!, actorOf(request)),
  );

  app.delete(
    '/role-views/:id',
    { schema: { params: viewIdParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteRoleView(app.db, request.params.id, actorOf(request));
      return reply.status(204).send(null);
    },
  );
};
