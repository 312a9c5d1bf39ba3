import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { POLICY_ROUTES, type RecordAccess } from './recordPolicies';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  type EntityRecord,
  bulkRestoreRecordsSchema,
  bulkResultSchema,
  bulkUpdateRecordsSchema,
  createEntityRecordSchema,
  entityRecordParamsSchema,
  entityRecordVersionParamsSchema,
  entityRecordSchema,
  entityRecordsParamsSchema,
  recordPageQuerySchema,
  recordPageSchema,
  recordSelectionSchema,
  updateEntityRecordSchema,
} from '@common/schemas/entities';
import { deletedItemSchema, versionListQuerySchema, versionSchema } from '@common/schemas/versions';
import {
  bulkDeleteRecords,
  bulkRestoreRecords,
  bulkUpdateRecords,
  createRecord,
  deleteRecord,
  exportRecords,
  listDeletedRecords,
  listRecordPage,
  openRecordList,
  listRecordVersions,
  restoreRecord,
  updateRecord,
} from './records.service';
import { actorOf } from '../../lib/audit';
import { baseVersions } from '../../lib/concurrency';
import { exportCompression, exportResponse, sendExport } from '../../lib/exports';
import { importResponses, sendImport } from '../../lib/imports';
import { importRecords } from './recordsImport';
import { importQuerySchema } from '@common/schemas/imports';
import { exportOptionsSchema } from '@common/schemas/exports';

/** The route whose grant allows a restore (a bulk one is checked as it). */
const RESTORE_ROUTE: [verb: string, path: string] = [
  'POST',
  '/api/entity-records/:entityName/:id/versions/:versionId/restore',
];

const errors = {
  400: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
};

/** The records of dynamic entities. */
export const recordsRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Who asks, as the record policies see them (modules/records/recordPolicies.ts). A restore
   * is a write of its own grant: held to the update and create policies of the roles that
   * grant it.
   */
  const accessOf = ({ user }: FastifyRequest, { restoring = false } = {}): RecordAccess => ({
    user: { id: user!._id, username: user!.username },
    granted: (action) =>
      app.rolesAllowed(
        user!,
        ...(restoring && action !== 'read' ? RESTORE_ROUTE : POLICY_ROUTES[action]),
      ),
  });

  // An import's body is a CSV file, read as a stream (lib/imports.ts spools it).
  app.addContentTypeParser('text/csv', (_request, payload, done) => done(null, payload));

  app.post(
    '/entity-records/:entityName/import',
    {
      // Adding records: allowed to whoever may add one (and, for a file with ids, change one).
      compress: false,
      config: {
        checkedAs: { verb: 'POST', path: '/api/entity-records/:entityName' },
      },
      schema: {
        params: entityRecordsParamsSchema,
        querystring: importQuerySchema,
        consumes: ['text/csv'],
        response: importResponses,
      },
    },
    async (request, reply) =>
      sendImport(
        request,
        reply,
        { verb: 'PUT', path: '/api/entity-records/:entityName/:id' },
        (file, progress) =>
          importRecords(
            app.db,
            request.params.entityName,
            file,
            request.query,
            actorOf(request),
            progress,
            accessOf(request),
          ),
      ),
  );
  app.post(
    '/entity-records/:entityName/bulk-delete',
    {
      config: { checkedAs: { verb: 'DELETE', path: '/api/entity-records/:entityName/:id' } },
      schema: {
        params: entityRecordsParamsSchema,
        body: z.object({ selection: recordSelectionSchema }),
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) =>
      bulkDeleteRecords(
        app.db,
        request.params.entityName,
        request.body.selection,
        actorOf(request),
        accessOf(request),
      ),
  );

  app.post(
    '/entity-records/:entityName/bulk-update',
    {
      config: { checkedAs: { verb: 'PUT', path: '/api/entity-records/:entityName/:id' } },
      schema: {
        params: entityRecordsParamsSchema,
        body: bulkUpdateRecordsSchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) =>
      bulkUpdateRecords(
        app.db,
        request.params.entityName,
        request.body,
        actorOf(request),
        accessOf(request),
      ),
  );

  app.post(
    '/entity-records/:entityName/bulk-restore',
    {
      config: {
        checkedAs: {
          verb: 'POST',
          path: '/api/entity-records/:entityName/:id/versions/:versionId/restore',
        },
      },
      schema: {
        params: entityRecordsParamsSchema,
        body: bulkRestoreRecordsSchema,
        response: { 200: bulkResultSchema, ...errors },
      },
    },
    async (request) =>
      bulkRestoreRecords(
        app.db,
        request.params.entityName,
        request.body.ids,
        actorOf(request),
        accessOf(request, { restoring: true }),
      ),
  );

  app.get(
    '/entity-records/:entityName/export',
    {
      // A read of the list: allowed to whoever may read it, from a download link too.
      compress: exportCompression,
      config: { exportOf: '/api/entity-records/:entityName' },
      schema: {
        params: entityRecordsParamsSchema,
        querystring: recordPageQuerySchema
          .omit({ page: true, perPage: true })
          .extend(exportOptionsSchema.shape),
        response: { 200: exportResponse('Every record of the filter, in its order'), ...errors },
      },
    },
    async (request, reply) => {
      // The ticket opened the request (plugins/auth.ts); the rest is the list's own query.
      const { format, columns, ticket, ...query } = request.query;
      const exported = await exportRecords(
        app.db,
        request.params.entityName,
        query,
        accessOf(request),
      );
      return sendExport(reply, exported, { format, columns });
    },
  );

  app.get(
    '/entity-records/:entityName',
    {
      schema: {
        params: entityRecordsParamsSchema,
        querystring: recordPageQuerySchema,
        response: {
          200: z
            .union([z.array(entityRecordSchema), recordPageSchema])
            .describe(
              'Without parameters, every record, oldest first (streamed); with any, a page of them',
            ),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { entityName } = request.params;
      if (Object.keys(request.query).length > 0) {
        return listRecordPage(app.db, entityName, request.query, accessOf(request));
      }
      const records = await openRecordList(app.db, entityName, accessOf(request));
      async function* json() {
        let separator = '[';
        for await (const record of records) {
          yield separator + JSON.stringify(record);
          separator = ',';
        }
        yield separator === '[' ? '[]' : ']';
      }
      // A stream goes out as it is: the schema documents what it holds, and is not run on it.
      const stream = Readable.from(json()) as unknown as EntityRecord[];
      return reply.type('application/json; charset=utf-8').send(stream);
    },
  );

  app.post(
    '/entity-records/:entityName',
    {
      schema: {
        params: entityRecordsParamsSchema,
        body: createEntityRecordSchema,
        response: { 201: z.object({ _id: z.string() }), ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createRecord(
            app.db,
            request.params.entityName,
            request.body,
            actorOf(request),
            accessOf(request),
          ),
        ),
  );

  app.put(
    '/entity-records/:entityName/:id',
    {
      schema: {
        params: entityRecordParamsSchema,
        body: updateEntityRecordSchema,
        response: { 200: entityRecordSchema, ...errors },
      },
    },
    async (request) =>
      updateRecord(
        app.db,
        request.params.entityName,
        request.params.id,
        request.body.fields,
        actorOf(request),
        baseVersions(request),
        accessOf(request),
      ),
  );

  app.delete(
    '/entity-records/:entityName/:id',
    { schema: { params: entityRecordParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteRecord(
        app.db,
        request.params.entityName,
        request.params.id,
        actorOf(request),
        accessOf(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/entity-records/:entityName/:id/versions',
    {
      schema: {
        params: entityRecordParamsSchema,
        querystring: versionListQuerySchema,
        response: { 200: z.array(versionSchema), ...errors },
      },
    },
    async (request) =>
      listRecordVersions(
        app.db,
        request.params.entityName,
        request.params.id,
        request.query,
        accessOf(request),
      ),
  );

  app.get(
    '/entity-records/:entityName/recently-deleted',
    {
      schema: {
        params: entityRecordsParamsSchema,
        response: { 200: z.array(deletedItemSchema), ...errors },
      },
    },
    async (request) => listDeletedRecords(app.db, request.params.entityName, accessOf(request)),
  );

  app.post(
    '/entity-records/:entityName/:id/versions/:versionId/restore',
    {
      schema: {
        params: entityRecordVersionParamsSchema,
        response: { 200: entityRecordSchema, ...errors },
      },
    },
    async (request) =>
      restoreRecord(
        app.db,
        request.params.entityName,
        request.params.id,
        request.params.versionId,
        actorOf(request),
        baseVersions(request),
        accessOf(request, { restoring: true }),
      ),
  );
};
