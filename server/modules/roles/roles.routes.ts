import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  createRoleSchema,
  roleExportQuerySchema,
  roleIdParamsSchema,
  roleSchema,
  roleSecondFactorSchema,
  roleUserParamsSchema,
  roleUserSchema,
} from '@common/schemas/roles';
import {
  createRole,
  deleteRole,
  restoreRole,
  exportRoles,
  getRole,
  listRoleUsers,
  listRoles,
  setRoleSecondFactor,
  toggleRoleUser,
} from './roles.service';
import { actorOf } from '../../lib/audit';
import { exportCompression, exportResponse, sendExport } from '../../lib/exports';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/**
 * The roles API, with the assignment of users to a role. Its writes change who users are
 * (their role names): `changesIdentities`.
 */
export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/roles', { schema: { response: { 200: z.array(roleSchema) } } }, async () =>
    listRoles(app.db),
  );

  app.get(
    '/roles/export',
    {
      compress: exportCompression,
      config: { exportOf: '/api/roles' },
      schema: {
        querystring: roleExportQuerySchema,
        response: { 200: exportResponse('The roles of the search, by name'), 400: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { format, columns, q } = request.query;
      const exported = exportRoles(app.db, { q });
      return sendExport(reply, exported, { format, columns });
    },
  );

  app.post(
    '/roles',
    {
      config: { changesIdentities: true },
      schema: { body: createRoleSchema, response: { 201: roleSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await createRole(app.db, request.body.name, actorOf(request))),
  );

  app.get(
    '/roles/:id',
    { schema: { params: roleIdParamsSchema, response: { 200: roleSchema, ...errors } } },
    async (request) => getRole(app.db, request.params.id),
  );

  app.post(
    '/roles/:id/restore',
    {
      // A routes-table row of its own: it gives back members and route grants, which the
      // right to delete does not.
      config: { changesIdentities: true },
      schema: { params: roleIdParamsSchema, response: { 200: roleSchema, ...errors } },
    },
    async (request) => {
      const role = await restoreRole(app.db, request.params.id, actorOf(request));
      await app.reloadPermissions();
      return role;
    },
  );

  app.delete(
    '/roles/:id',
    {
      config: { changesIdentities: true },
      schema: { params: roleIdParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await deleteRole(app.db, request.params.id, actorOf(request));
      await app.reloadPermissions();
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/roles/:id/users',
    {
      schema: { params: roleIdParamsSchema, response: { 200: z.array(roleUserSchema), ...errors } },
    },
    async (request) => listRoleUsers(app.db, request.params.id),
  );

  app.put(
    '/roles/:id/users/:userId',
    {
      config: { changesIdentities: true },
      schema: {
        params: roleUserParamsSchema,
        response: { 200: z.object({ hasRole: z.boolean() }), ...errors },
      },
    },
    async (request) =>
      toggleRoleUser(app.db, request.params.id, request.params.userId, actorOf(request)),
  );

  app.put(
    '/roles/:id/second-factor',
    {
      schema: {
        params: roleIdParamsSchema,
        body: roleSecondFactorSchema,
        response: { 200: roleSchema, ...errors },
      },
    },
    async (request) =>
      setRoleSecondFactor(app.db, request.params.id, request.body.required, actorOf(request)),
  );
};
