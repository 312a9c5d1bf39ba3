import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  type AuditEvent,
  auditExportQuerySchema,
  auditPageSchema,
  auditQuerySchema,
} from '@common/schemas/audit';
import {
  type ExportColumn,
  exportCompression,
  exportResponse,
  sendExport,
} from '../../lib/exports';
import { exportAuditEvents, listAuditEvents } from './audit.service';

/** What an audit export can write: the log's columns, and the ids behind who and what. */
const AUDIT_COLUMNS: ExportColumn<AuditEvent>[] = [
  { name: 'at', label: 'When', value: (event) => event.at },
  { name: 'actorName', label: 'Who', value: (event) => event.actor?.name },
  { name: 'actorId', label: 'Who (ID)', value: (event) => event.actor?.id },
  { name: 'action', label: 'Action', value: (event) => event.action },
  { name: 'resource', label: 'Resource', value: (event) => event.resource },
  { name: 'resourceId', label: 'Resource ID', value: (event) => event.resourceId },
  { name: 'summary', label: 'What', value: (event) => event.summary },
  { name: 'ip', label: 'Address', value: (event) => event.ip },
  { name: 'userAgent', label: 'Browser', value: (event) => event.userAgent },
];

/** The audit log: a page of it, and all of a filter as CSV or JSON (admin-only by default). */
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
    '/audit/export',
    {
      compress: exportCompression,
      config: { exportOf: '/api/audit' },
      schema: {
        querystring: auditExportQuerySchema,
        response: {
          200: exportResponse('Every audit event of the filter, newest first'),
          400: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { format, columns, ticket, ...filter } = request.query;
      const exported = {
        name: 'audit',
        columns: AUDIT_COLUMNS,
        batches: exportAuditEvents(app.db, filter),
      };
      return sendExport(reply, exported, { format, columns });
    },
  );
};
