import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import { jobListQuerySchema, jobListSchema, jobSchema } from '@common/schemas/jobs';
import { JobSearchIndex } from './jobSearchIndex';
import { getJob, listJobs } from './jobs.service';

/** The NOTIFY channel a trigger on the jobs table fires on any change (0007_jobs_notify.sql). */
const JOBS_CHANNEL = 'jobs_changed';
/** A load notifies after every batch: the index is rebuilt once they stop for this long. */
const QUIET_BEFORE_REBUILD_MS = 1000;

/**
 * The laboratory job list and its details. The list is searched in this server's
 * in-memory index, built when the server is ready and rebuilt in the background whenever
 * the jobs change (on any server, by `npm run seed:jobs` or by hand, through LISTEN/NOTIFY).
 */
export const jobsRoutes: FastifyPluginAsyncZod = async (app) => {
  let index: JobSearchIndex | undefined;
  let rebuilding: Promise<void> | undefined;
  let stale = false;
  let closing = false;
  // One build at a time, so an older snapshot never replaces a newer one; notices that
  // arrive during a build, or while waiting for quiet, fold into one more build. Until the
  // first build, and after a failed one until the next change, the database answers.
  const rebuild = () => {
    stale = true;
    rebuilding ??= (async () => {
      while (stale) {
        do {
          stale = false;
          // Without an index every list is a slow database query: build at once.
          if (index) await sleep(QUIET_BEFORE_REBUILD_MS);
        } while (stale);
        if (closing) return;
        const started = performance.now();
        index = await JobSearchIndex.build(app.db);
        app.log.info(
          { jobs: index.size, ms: Math.round(performance.now() - started) },
          'Built the job search index',
        );
      }
    })()
      .catch((error: unknown) => {
        // A stale index would answer wrongly; the database answers right, if slowly.
        index = undefined;
        app.log.error({ err: error }, 'Building the job search index failed');
      })
      .finally(() => {
        rebuilding = undefined;
      });
  };
  app.addHook('onReady', async () => {
    // After the notification connection was lost, a change may have gone unheard.
    await app.pgEvents.subscribe(JOBS_CHANNEL, { onNotify: rebuild, onReconnect: rebuild });
    rebuild();
    await rebuilding;
  });
  app.addHook('onClose', async () => {
    closing = true;
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
