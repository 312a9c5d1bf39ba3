import { z } from 'zod';
import { nameText, singleLineText } from './text';

/** Passwords: 8 to 128 characters (DESIGN; the upper bound keeps hashing cheap to refuse). */
export const passwordSchema = singleLineText()
  .min(1, { message: 'is required', abort: true })
  .min(8, 'must be at least 8 characters')
  .max(128, 'must be at most 128 characters');

/** `POST /api/auth/login`. */
export const loginSchema = z.object({
  // A lookup, not a new name: any username that could be stored may be typed here (those in
  // one script, and older ones that mix scripts), but no invisible or text-direction
  // character (it would go into the audit log's failed sign-ins).
  username: nameText().trim().min(1, 'is required').max(254),
  password: singleLineText().min(1, 'is required').max(128),
});

/** `POST /api/auth/register`: the email becomes the username. */
export const registerSchema = z.object({
  email: singleLineText()
    .min(1, { message: 'is required', abort: true })
    .pipe(z.email('must be a valid email address').max(254))
    .transform((email) => email.toLowerCase()),
  password: passwordSchema,
});

/** The answer to login and registration (spec section 3). */
export const loginResponseSchema = z.object({
  jwt: z.string(),
  refreshToken: z.string(),
});

/** `POST /api/auth/refresh-token` and `POST /api/auth/logout`. */
export const refreshTokenBodySchema = z.object({
  refreshToken: singleLineText().min(1, 'is required').max(512),
});

/** `GET /api/users/identify?token=` (the token may come in `x-access-token` instead). */
export const identifyQuerySchema = z.object({ token: singleLineText().max(4096).optional() });

/** The answer to a refresh: the new access token and the rotated refresh token. */
export const refreshResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
});

/** `GET /api/auth/google`: where to send the browser. */
export const googleUrlSchema = z.object({ url: z.url() });

/** The signed-in user as `GET /api/users/identify` describes them. */
export const identitySchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  roles: z.array(z.string()),
});

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;
export type LoginResponse = z.infer<typeof loginResponseSchema>;
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;
export type Identity = z.infer<typeof identitySchema>;
