import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifySchema, type HTTPMethods } from 'fastify';
import type { DestinationStream } from 'pino';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { retentionPlugin } from './plugins/retention';
import { auditRoutes } from './modules/audit/audit.routes';
import { accessTokensRoutes } from './modules/accessTokens/accessTokens.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { factorsRoutes } from './modules/auth/factors.routes';
import { preferencesRoutes } from './modules/auth/preferences.routes';
import { booksRoutes } from './modules/books/books.routes';
import { entitiesRoutes } from './modules/entities/entities.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { healthRoutes } from './modules/health/health.routes';
import { jobsRoutes } from './modules/jobs/jobs.routes';
import { permissionsRoutes } from './modules/permissions/permissions.routes';
import { recordsRoutes } from './modules/records/records.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { tagVersionedItem } from './lib/concurrency';
import { logSerializers } from './lib/logSerializers';
import { usersRoutes } from './modules/users/users.routes';
import { viewsRoutes } from './modules/views/views.routes';
import { authPlugin } from './plugins/auth';
import { dbPlugin } from './plugins/db';
import { answerClientError, answerFrameworkError, errorsPlugin } from './plugins/errors';
import { permissionsPlugin } from './plugins/permissions';
import { openapiPlugin } from './plugins/openapi';
import { overloadPlugin } from './plugins/overload';
import { pgEventsPlugin } from './plugins/pgEvents';
import { securityPlugin } from './plugins/security';
import { shutdownPlugin } from './plugins/shutdown';
import { spaPlugin } from './plugins/spa';

export interface BuildAppOptions {
  /** An open database to use instead of opening the configured one (tests). */
  database?: Database;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** Told of every route as it is registered (tests check what all routes accept). */
  onRoute?: (route: {
    method: HTTPMethods | HTTPMethods[];
    url: string;
    schema?: FastifySchema;
  }) => void;
}

/**
 * Builds the whole server, ready to listen: plugins first, then each resource's routes,
 * in an explicit order. `main.ts` and the tests both use it.
 */
export async function buildApp(
  config: Config,
  { database, now, logStream, onRoute }: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: logSerializers,
      ...(logStream ? { stream: logStream } : {}),
    },
    // Errors met before a route runs answer in the API's error shape too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // Rate limits and logs use the client's address: behind a proxy (TRUST_PROXY), the one
    // it forwards.
    trustProxy: config.trustProxy,
    // Start-up work grows with the data (seeding SEED_JOBS, building the job search index,
    // ~15 s at a million jobs): no time limit on it.
    pluginTimeout: 0,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (onRoute) app.addHook('onRoute', onRoute);

  await app.register(errorsPlugin);
  await app.register(shutdownPlugin);
  app.addHook('preSerialization', tagVersionedItem);
  await app.register(securityPlugin, { config });
  // JSON answers above 1 KB go compressed when the client accepts it (the built web app's
  // files are compressed at build time instead: see the spa plugin). For answers made on
  // the fly, gzip at level 3 is as small as brotli at quality 3 for less than half the CPU
  // (a 10 KB job page: ~25 µs against ~55 µs), so a browser, which accepts both, gets gzip.
  // Up to 64 KB (a page of 100 jobs is ~21 KB) they are compressed at once rather than
  // through a compression stream per answer, which costs far more (measured by bench:jobs).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['gzip', 'br'],
    zlibOptions: { level: 3 },
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 3 } },
    syncThreshold: 64 * 1024,
  });
  await app.register(openapiPlugin);
  await app.register(dbPlugin, { config, database });
  await app.register(pgEventsPlugin);
  await app.register(authPlugin, { config, now });
  await app.register(permissionsPlugin);
  await app.register(retentionPlugin, { policy: config.retention });

  await app.register(healthRoutes, { prefix: '/api', instance: config.instanceName });
  await app.register(authRoutes, { prefix: '/api', config });
  await app.register(factorsRoutes, { prefix: '/api', config });
  await app.register(preferencesRoutes, { prefix: '/api' });
  await app.register(accessTokensRoutes, { prefix: '/api' });
  await app.register(permissionsRoutes, { prefix: '/api' });
  await app.register(rolesRoutes, { prefix: '/api' });
  await app.register(usersRoutes, { prefix: '/api' });
  await app.register(booksRoutes, { prefix: '/api', config });
  await app.register(entitiesRoutes, { prefix: '/api' });
  await app.register(recordsRoutes, { prefix: '/api' });
  await app.register(jobsRoutes, { prefix: '/api' });
  await app.register(auditRoutes, { prefix: '/api' });
  await app.register(viewsRoutes, { prefix: '/api' });
  await app.register(eventsRoutes, { prefix: '/api', config });

  // Last: the event-loop delay it samples from here on is that of serving, not of opening,
  // migrating and seeding the database (which would shed the first requests).
  await app.register(overloadPlugin, { maxEventLoopDelayMs: config.maxEventLoopDelayMs });
  await app.register(spaPlugin, { staticDir: config.staticDir });
  await app.ready();
  return app;
}
