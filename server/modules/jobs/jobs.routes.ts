import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import { jobListQuerySchema, jobListSchema, jobSchema } from '@common/schemas/jobs';
import { JobSearchIndex } from './jobSearchIndex';
import { getJob, JOBS_CHANNEL, listJobs } from './jobs.service';

/**
 * The laboratory job list and its details. The list is searched in this server's
 * in-memory index, built when the server is ready and rebuilt in the background whenever
 * jobs are loaded (on any server or by `npm run seed:jobs`, through LISTEN/NOTIFY).
 */
export const jobsRoutes: FastifyPluginAsyncZod = async (app) => {
  let index: JobSearchIndex | undefined;
  let rebuilding: Promise<void> | undefined;
  let stale = false;
  const build = async () => {
    const started = performance.now();
    index = await JobSearchIndex.build(app.db);
    app.log.info(
      { jobs: index.size, ms: Math.round(performance.now() - started) },
      'Built the job search index',
    );
  };
  // Notices that arrive during a rebuild are folded into one more rebuild after it.
  const rebuild = () => {
    stale = true;
    rebuilding ??= (async () => {
      while (stale) {
        stale = false;
        await build();
      }
    })()
      .catch((error: unknown) =>
        app.log.error({ err: error }, 'Rebuilding the job search index failed'),
      )
      .finally(() => {
        rebuilding = undefined;
      });
  };
  let stopListening: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopListening = await app.database.listen(JOBS_CHANNEL, rebuild);
    await build();
  });
  app.addHook('onClose', async () => {
    await stopListening?.().catch(() => {});
    await rebuilding;
  });

  app.get(
    '/LIMS/jobs',
    {
      schema: {
        querystring: jobListQuerySchema,
        response: { 200: jobListSchema, 400: apiErrorSchema },
      },
    },
    async (request) => listJobs(app.db, request.query, index),
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
