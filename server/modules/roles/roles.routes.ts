import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { roleSchema } from '@common/schemas/roles';
import { listRoles } from './roles.service';

/** The roles API. */
export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/roles', { schema: { response: { 200: z.array(roleSchema) } } }, async () =>
    listRoles(app.db),
  );
};
