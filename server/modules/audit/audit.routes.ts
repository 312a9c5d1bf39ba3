import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import { auditFilterSchema, auditPageSchema, auditQuerySchema } from '@common/schemas/audit';
import { csvRecord } from '../../lib/csv';
import { exportAuditEvents, listAuditEvents } from './audit.service';

const CSV_COLUMNS = [
  'at',
  'actorId',
  'actorName',
  'action',
  'resource',
  'resourceId',
  'ip',
  'userAgent',
  'summary',
];

/** The audit log: a page of it, and all of a filter as CSV (admin-only by default). */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      schema: {
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, 400: apiErrorSchema },
      },
    },
    async (request) => listAuditEvents(app.db, request.query),
  );

  app.get(
    '/audit/export.csv',
    {
      schema: {
        querystring: auditFilterSchema,
        // A stream, which fastify sends as it is (typed unknown, so `send` takes it): the
        // schema only documents it.
        response: {
          200: {
            description: 'Every audit event of the filter, newest first, as CSV',
            content: { 'text/csv': { schema: z.unknown().describe('CSV text, one header line') } },
          },
        },
      },
    },
    async (request, reply) => {
      const db = app.db;
      async function* lines() {
        yield csvRecord(CSV_COLUMNS);
        for await (const event of exportAuditEvents(db, request.query)) {
          yield csvRecord([
            event.at,
            event.actor?.id ?? null,
            event.actor?.name ?? null,
            event.action,
            event.resource,
            event.resourceId,
            event.ip,
            event.userAgent,
            event.summary,
          ]);
        }
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );
};
