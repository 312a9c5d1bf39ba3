import { z } from 'zod';
import { LOCALES } from '../locales';

/** The signed-in user's own settings, kept on the server so each of their browsers follows. */
export const preferencesSchema = z.object({
  /** The language they chose; null until they choose one (the browser's then applies). */
  locale: z.enum(LOCALES).nullable(),
});

export type Preferences = z.infer<typeof preferencesSchema>;
