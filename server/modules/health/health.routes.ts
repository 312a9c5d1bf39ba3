import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import { healthSchema } from '@common/schemas/health';
import { databaseUnavailable } from '../../lib/pgErrors';

/** `GET /api/health`: answers ok only after the database has answered a query; names Redis's state. */
export const healthRoutes: FastifyPluginAsyncZod<{ instance: string }> = async (
  app,
  { instance },
) => {
  app.get(
    '/health',
    { config: { public: true }, schema: { response: { 200: healthSchema, 503: apiErrorSchema } } },
    async (request) => {
      try {
        await app.db.execute(sql`select 1`);
      } catch (error) {
        request.log.error({ err: error }, 'Health check: the database did not answer');
        throw databaseUnavailable();
      }
      const redis = app.rateLimitStore.state;
      return {
        status: 'ok' as const,
        db: app.database.kind,
        instance,
        ...(redis ? { redis } : {}),
      };
    },
  );
};
