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
  // One build at a time, so an older snapshot never replaces a newer one; notices that
  // arrive during a build are folded into one more build after it. Until the first build
  // (or if building fails), the database answers instead.
  const rebuild = () => {
    stale = true;
    rebuilding ??= (async () => {
      while (stale) {
        stale = false;
        const started = performance.now();
        index = await JobSearchIndex.build(app.db);
        app.log.info(
          { jobs: index.size, ms: Math.round(performance.now() - started) },
          'Built the job search index',
        );
      }
    })()
      .catch((error: unknown) =>
        app.log.error({ err: error }, 'Building the job search index failed'),
      )
      .finally(() => {
        rebuilding = undefined;
      });
  };
  let stopListening: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopListening = await app.database.listen(JOBS_CHANNEL, rebuild);
    rebuild();
    await rebuilding;
  });
  app.addHook('onClose', async () => {
    await stopListening?.().catch((error: unknown) =>
      app.log.warn({ err: error }, 'Could not stop listening for job loads'),
    );
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
