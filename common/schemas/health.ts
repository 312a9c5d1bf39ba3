import { z } from 'zod';

/** `GET /api/health`: the server is up and its database answered. */
export const healthSchema = z.object({
  status: z.literal('ok'),
  db: z.enum(['pglite', 'postgres']),
});

export type Health = z.infer<typeof healthSchema>;
