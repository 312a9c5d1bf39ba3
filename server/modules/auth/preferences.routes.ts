import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { isLocale } from '@common/locales';
import { preferencesSchema } from '@common/schemas/preferences';
import { userPreferences } from '../../db/schema/userPreferences';

/**
 * The signed-in user's own settings: the language they chose, which each of their browsers
 * takes on at sign-in. Every signed-in user reaches them; a personal access token does not.
 */
export const preferencesRoutes: FastifyPluginAsyncZod = async (app) => {
  const sessionOnly = { signedIn: true };

  app.get(
    '/auth/preferences',
    { config: sessionOnly, schema: { response: { 200: preferencesSchema } } },
    async (request) => {
      const [row] = await app.db
        .select({ locale: userPreferences.locale })
        .from(userPreferences)
        .where(eq(userPreferences.userId, request.user!._id));
      // A language no longer spoken reads as none chosen.
      return { locale: isLocale(row?.locale) ? row.locale : null };
    },
  );

  app.put(
    '/auth/preferences',
    {
      config: sessionOnly,
      schema: { body: preferencesSchema, response: { 200: preferencesSchema } },
    },
    async (request) => {
      const { locale } = request.body;
      const set = { locale, updatedAt: app.now() };
      await app.db
        .insert(userPreferences)
        .values({ userId: request.user!._id, ...set })
        .onConflictDoUpdate({ target: userPreferences.userId, set });
      return { locale };
    },
  );
};
