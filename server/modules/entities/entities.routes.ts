import type { FastifyRequest } from 'fastify';
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
  updateEntityPolicies,
} from './entities.service';
import { entityPoliciesInputSchema } from '@common/schemas/policies';
import { actorOf } from '../../lib/audit';
import { baseVersions } from '../../lib/concurrency';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };
const idParams = z.object({ id: z.uuid('must be an entity id') });

/** Entity definitions. */
export const entitiesRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * An entity's record policies are for whoever may write them (the admins by default):
   * the others are told what applies to them (`GET /api/auth/permissions`), not who else
   * may read what. `shown` answers a definition (or a snapshot of one) as the caller may
   * read it.
   */
  const seesPolicies = (request: FastifyRequest) =>
    app.mayCall(request.user!, 'PUT', '/api/entities/:id/policies');
  const shown = <T extends { policies?: unknown }>(request: FastifyRequest, entity: T): T => {
    if (seesPolicies(request) || entity.policies === undefined) return entity;
    const { policies: _, ...rest } = entity;
    return rest as T;
  };

  app.get('/entities', { schema: { response: { 200: z.array(entitySchema) } } }, async (request) =>
    (await listEntities(app.db)).map((entity) => shown(request, entity)),
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
    async (request) => shown(request, await getEntity(app.db, request.params.idOrName)),
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
        : shown(
            request,
            await updateEntity(
              app.db,
              request.params.id,
              request.body,
              actorOf(request),
              baseVersions(request),
            ),
          ),
  );

  app.put(
    '/entities/:id/policies',
    {
      schema: {
        params: idParams,
        body: entityPoliciesInputSchema,
        response: { 200: entitySchema, ...errors },
      },
    },
    async (request) =>
      updateEntityPolicies(
        app.db,
        request.params.id,
        request.body.policies,
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
    async (request) =>
      (await listEntityVersions(app.db, request.params.id, request.query)).map((version) =>
        seesPolicies(request)
          ? version
          : {
              ...version,
              document: shown(request, version.document),
              changes: version.changes.filter((change) => change.field !== 'policies'),
            },
      ),
  );

  // Entity names are identifiers (no '-'), so no entity is shadowed by this path.
  app.get(
    '/entities/recently-deleted',
    { schema: { response: { 200: z.array(deletedItemSchema) } } },
    async (request) =>
      (await listDeletedEntities(app.db)).map((item) => ({
        ...item,
        document: shown(request, item.document),
      })),
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
      shown(
        request,
        await restoreEntity(
          app.db,
          request.params.id,
          request.params.versionId,
          actorOf(request),
          baseVersions(request),
        ),
      ),
  );
};
