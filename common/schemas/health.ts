import { z } from 'zod';

/**
 * `GET /api/health`: the server is up and its database answered. With REDIS_URL set, whether
 * Redis is reachable: while it is 'down' the server still works, counting rate limits alone.
 */
export const healthSchema = z.object({
  status: z.literal('ok'),
  db: z.enum(['pglite', 'postgres']),
  /** Which server answered (INSTANCE_NAME), among several behind a load balancer. */
  instance: z.string(),
  redis: z.enum(['up', 'down']).optional(),
});

export type Health = z.infer<typeof healthSchema>;
