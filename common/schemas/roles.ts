import { z } from 'zod';

/** A role (spec section 3). */
export const roleSchema = z.object({
  _id: z.string(),
  name: z.string(),
});

export type Role = z.infer<typeof roleSchema>;
