import { z } from 'zod';
import { allowedRouteSchema } from './permissions';
import { nameText, singleLineText } from './text';

/** The longest life of a personal access token. */
export const ACCESS_TOKEN_MAX_DAYS = 365;

/** A personal access token as its owner's list shows it (the token itself is shown once). */
export const accessTokenSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** The token's first characters, to tell it apart. */
  prefix: z.string(),
  routes: z.array(allowedRouteSchema),
  expiresAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

/** `POST /api/auth/access-tokens`. */
export const createAccessTokenSchema = z.object({
  name: nameText().trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
  expiresInDays: z
    .number({ error: 'must be a number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1 day')
    .max(ACCESS_TOKEN_MAX_DAYS, `must be at most ${ACCESS_TOKEN_MAX_DAYS} days`),
  routes: z
    .array(
      z.object({
        routeVerb: singleLineText().min(1).max(10),
        routePath: singleLineText().min(1).max(300),
      }),
    )
    .min(1, 'must name at least one route')
    .max(500),
});

/** The answer to a creation: the token, shown this once, and its entry in the list. */
export const createdAccessTokenSchema = z.object({
  token: z.string(),
  accessToken: accessTokenSchema,
});

export const accessTokenIdParamsSchema = z.object({ id: z.uuid('must be an access token id') });

export type AccessToken = z.infer<typeof accessTokenSchema>;
export type CreateAccessTokenInput = z.infer<typeof createAccessTokenSchema>;
export type CreatedAccessToken = z.infer<typeof createdAccessTokenSchema>;
