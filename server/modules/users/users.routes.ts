import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  bulkUsersSchema,
  createUserSchema,
  setPasswordSchema,
  updateUserSchema,
  userExportQuerySchema,
  userIdParamsSchema,
  userSchema,
} from '@common/schemas/users';
import {
  bulkDeleteUsers,
  bulkRestoreUsers,
  createUser,
  deleteUser,
  exportUsers,
  listUsers,
  resetSecondFactor,
  setUserPassword,
  updateUser,
} from './users.service';
import { bulkResultSchema } from '@common/schemas/entities';
import { actorOf } from '../../lib/audit';
import { importResponses, sendImport } from '../../lib/imports';
import { importUsers } from './usersImport';
import { importQuerySchema } from '@common/schemas/imports';
import { baseVersions } from '../../lib/concurrency';
import { exportCompression, exportResponse, sendExport } from '../../lib/exports';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

/** The users API. Its writes change who users are: `changesIdentities`. */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/users', { schema: { response: { 200: z.array(userSchema) } } }, async () =>
    listUsers(app.db),
  );

  app.get(
    '/users/export',
    {
      compress: exportCompression,
      config: { exportOf: '/api/users' },
      schema: {
        querystring: userExportQuerySchema,
        response: {
          200: exportResponse('The users of the search, in its order'),
          400: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { format, columns, ...query } = request.query;
      const exported = exportUsers(app.db, query);
      return sendExport(reply, exported, { format, columns });
    },
  );

  app.post(
    '/users',
    {
      config: { changesIdentities: true },
      schema: { body: createUserSchema, response: { 201: userSchema, ...errors } },
    },
    async (request, reply) =>
      reply.status(201).send(await createUser(app.db, request.body, actorOf(request))),
  );

  app.put(
    '/users/:id',
    {
      config: { changesIdentities: true },
      schema: {
        params: userIdParamsSchema,
        body: updateUserSchema,
        response: { 200: userSchema, ...errors },
      },
    },
    async (request) =>
      updateUser(app.db, request.params.id, request.body, actorOf(request), baseVersions(request)),
  );

  // An import's body is a CSV file, read as a stream (lib/imports.ts spools it).
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));

  app.post(
    '/users/import',
    {
      compress: false,
      config: {
        // Adding users: allowed to whoever may add one (and, for a file with ids, change one).
        checkedAs: { verb: 'POST', path: '/api/users' },
        changesIdentities: true,
      },
      schema: {
        querystring: importQuerySchema,
        consumes: ['text/csv'],
        response: importResponses,
      },
    },
    async (request, reply) =>
      sendImport(request, reply, { verb: 'PUT', path: '/api/users/:id' }, (file, progress) =>
        importUsers(app.db, file, request.query, actorOf(request), progress),
      ),
  );

  app.post(
    '/users/bulk-delete',
    {
      // Deleting many: allowed to whoever may delete one, never granted apart.
      config: { changesIdentities: true, checkedAs: { verb: 'DELETE', path: '/api/users/:id' } },
      schema: { body: bulkUsersSchema, response: { 200: bulkResultSchema, ...errors } },
    },
    async (request) => bulkDeleteUsers(app.db, request.body.ids, actorOf(request)),
  );

  app.post(
    '/users/bulk-restore',
    {
      // A routes-table row of its own: it gives back accounts, passwords and roles, which
      // the right to delete does not.
      config: { changesIdentities: true },
      schema: { body: bulkUsersSchema, response: { 200: bulkResultSchema, ...errors } },
    },
    async (request) => bulkRestoreUsers(app.db, request.body.ids, actorOf(request)),
  );

  app.delete(
    '/users/:id',
    {
      config: { changesIdentities: true },
      schema: { params: userIdParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await deleteUser(app.db, request.params.id, actorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/users/:id/password',
    {
      // Ending the user's sessions must count on this server before it answers.
      config: { changesIdentities: true },
      schema: {
        params: userIdParamsSchema,
        body: setPasswordSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await setUserPassword(app.db, request.params.id, request.body, app.now(), actorOf(request));
      request.log.info(
        { userId: request.params.id, by: request.user!.username },
        "An administrator set a user's password; their sessions are ended",
      );
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/users/:id/second-factor',
    { schema: { params: userIdParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await resetSecondFactor(app.db, request.params.id, actorOf(request));
      return reply.status(204).send(null);
    },
  );
};
