import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  jobExportQuerySchema,
  jobListQuerySchema,
  jobListSchema,
  jobSchema,
} from '@common/schemas/jobs';
import { exportCompression, exportResponse, sendExport } from '../../lib/exports';
import { exportJobs } from './jobsExport';
import { getJob, listJobs } from './jobs.service';

/** The laboratory job list and its details, searched in the database (jobs.service.ts). */
export const jobsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/LIMS/jobs',
    {
      schema: {
        querystring: jobListQuerySchema,
        response: { 200: jobListSchema, 400: apiErrorSchema },
      },
    },
    async (request) => listJobs(app.db, request.query),
  );

  app.get(
    '/LIMS/jobs/export',
    {
      compress: exportCompression,
      config: { exportOf: '/api/LIMS/jobs' },
      schema: {
        querystring: jobExportQuerySchema,
        response: {
          200: exportResponse('Every job of the filter, in its order'),
          400: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { format, columns, ...query } = request.query;
      const exported = exportJobs(app.db, query);
      return sendExport(reply, exported, { format, columns });
    },
  );

  app.get(
    '/LIMS/jobs/:id',
    {
      schema: {
        params: z.object({ id: z.uuid('must be a job id') }),
        response: { 200: jobSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => getJob(app.db, request.params.id),
  );
};
