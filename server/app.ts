import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { healthRoutes } from './modules/health/health.routes';
import { dbPlugin } from './plugins/db';
import { errorsPlugin } from './plugins/errors';
import { securityPlugin } from './plugins/security';
import { spaPlugin } from './plugins/spa';

export interface BuildAppOptions {
  /** An open database to use instead of opening the configured one (tests). */
  database?: Database;
}

/**
 * Builds the whole server, ready to listen: plugins first, then each resource's routes,
 * in an explicit order. `main.ts` and the tests both use it.
 */
export async function buildApp(
  config: Config,
  { database }: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers["x-access-token"]'],
    },
    // Behind a proxy, set trustProxy there; here the peer address is the client.
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(securityPlugin, { config });
  await app.register(dbPlugin, { config, database });

  await app.register(healthRoutes, { prefix: '/api' });

  await app.register(spaPlugin, { staticDir: config.staticDir });
  await app.ready();
  return app;
}
