import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  definitionReportSchema,
  entityChangeQuerySchema,
  entityIdOrNameParamsSchema,
  entityInputSchema,
  entitySchema,
} from '@common/schemas/entities';
import {
  deletedItemSchema,
  versionIdSchema,
  versionListQuerySchema,
  versionSchema,
} from '@common/schemas/versions';
import {
  createEntity,
  deleteEntity,
  getEntity,
  listDeletedEntities,
  listEntities,
  listEntityVersions,
  reportEntityChange,
  restoreEntity,
  updateEntity,
} from './entities.service';
import { actorOf } from '../../lib/audit';
import { baseVersions } from '../../lib/concurrency';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };
const idParams = z.object({ id: z.uuid('must be an entity id') });

/** Entity definitions. */
export const entitiesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/entities', { schema: { response: { 200: z.array(entitySchema) } } }, async () =>
    listEntities(app.db),
  );

  app.post(
    '/entities',
    { schema: { body: entityInputSchema, response: { 201: entitySchema, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await createEntity(app.db, request.body, actorOf(request))),
  );

  app.get(
    '/entities/:idOrName',
    {
      schema: {
        params: entityIdOrNameParamsSchema,
        response: { 200: entitySchema, ...errors },
      },
    },
    async (request) => getEntity(app.db, request.params.idOrName),
  );

  app.put(
    '/entities/:id',
    {
      schema: {
        params: idParams,
        querystring: entityChangeQuerySchema,
        body: entityInputSchema,
        response: {
          200: z
            .union([entitySchema, definitionReportSchema])
            .describe('The stored definition; with dryRun=true, what the change would do'),
          ...errors,
        },
      },
    },
    async (request) =>
      request.query.dryRun
        ? reportEntityChange(app.db, request.params.id, request.body)
        : updateEntity(
            app.db,
            request.params.id,
            request.body,
            actorOf(request),
            baseVersions(request),
          ),
  );

  app.delete(
    '/entities/:id',
    { schema: { params: idParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteEntity(app.db, request.params.id, actorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/entities/:id/versions',
    {
      schema: {
        params: idParams,
        querystring: versionListQuerySchema,
        response: { 200: z.array(versionSchema), ...errors },
      },
    },
    async (request) => listEntityVersions(app.db, request.params.id, request.query),
  );

  // Entity names are identifiers (no '-'), so no entity is shadowed by this path.
  app.get(
    '/entities/recently-deleted',
    { schema: { response: { 200: z.array(deletedItemSchema) } } },
    async () => listDeletedEntities(app.db),
  );

  app.post(
    '/entities/:id/versions/:versionId/restore',
    {
      schema: {
        params: idParams.extend({ versionId: versionIdSchema }),
        response: { 200: entitySchema, ...errors },
      },
    },
    async (request) =>
      restoreEntity(
        app.db,
        request.params.id,
        request.params.versionId,
        actorOf(request),
        baseVersions(request),
      ),
  );
};
