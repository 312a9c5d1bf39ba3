import { z } from 'zod';
import { loginResponseSchema } from './auth';
import { nameText, singleLineText } from './text';

/** What may follow a right password: an authenticator code, a recovery code, a passkey. */
export const secondFactorMethodSchema = z.enum(['totp', 'recovery_code', 'passkey']);

/**
 * The answer to a right password when the account has a second factor, or a role of it
 * requires one (`enrol`: it has none yet, and sets up an authenticator app now).
 */
export const secondFactorStepSchema = z.object({
  secondFactor: z.object({
    challenge: z.string(),
    methods: z.array(secondFactorMethodSchema),
    enrol: z.boolean(),
    expiresAt: z.iso.datetime(),
  }),
});

/** `POST /api/auth/login`: the session, or the second step of the sign-in. */
export const loginAnswerSchema = z.union([loginResponseSchema, secondFactorStepSchema]);

/** An authenticator code (6 digits) or a recovery code, as typed. */
const codeSchema = singleLineText().trim().min(1, 'is required').max(32);

/** `POST /api/auth/login/second-factor`. */
export const secondFactorInputSchema = z.object({
  challenge: singleLineText().min(1, 'is required').max(128),
  code: codeSchema,
});

/** `POST /api/auth/login/authenticator`: the step of a sign-in that must set one up. */
export const signInStepSchema = z.object({
  challenge: singleLineText().min(1, 'is required').max(128),
});

/** A session, and the recovery codes of an authenticator app set up during the sign-in. */
export const secondFactorAnswerSchema = loginResponseSchema.extend({
  recoveryCodes: z.array(z.string()).optional(),
});

/** An authenticator app being set up: scan the QR code, or type the secret. */
export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  uri: z.string(),
  /** An SVG image of `uri`, as a data URL. */
  qrCode: z.string(),
});

/** `POST /api/auth/authenticator/confirm`, `…/disable`, `…/recovery-codes`. */
export const codeInputSchema = z.object({ code: codeSchema });

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** A passkey of the signed-in user. */
export const passkeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});

/** `GET /api/auth/factors`: the signed-in user's sign-in factors. */
export const factorsSchema = z.object({
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.array(passkeySchema),
  /** A role of the user requires a second factor. */
  required: z.boolean(),
});

/** A WebAuthn credential as the browser answers it (its parts are checked by the server). */
const credentialJsonSchema = z.looseObject({
  id: singleLineText().min(1).max(1024),
  rawId: singleLineText().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: singleLineText().min(1).max(8192) }),
  clientExtensionResults: z.looseObject({}),
});

/** `POST /api/auth/passkeys`: a new passkey of the signed-in user. */
export const newPasskeySchema = z.object({
  name: nameText().trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
  credential: credentialJsonSchema,
});

/** `POST /api/auth/passkey/options`: within a sign-in's second step, or on its own. */
export const passkeyOptionsInputSchema = z.object({
  challenge: singleLineText().min(1).max(128).optional(),
});

/** `POST /api/auth/passkey`: sign in with a passkey (alone, or as a sign-in's second step). */
export const passkeySignInSchema = z.object({
  challenge: singleLineText().min(1).max(128).optional(),
  credential: credentialJsonSchema,
});

/** WebAuthn options for the browser's `navigator.credentials` (simplewebauthn's JSON form). */
export const webAuthnOptionsSchema = z.looseObject({ challenge: z.string() });

export const passkeyIdParamsSchema = z.object({ id: singleLineText().min(1).max(1024) });

export type SecondFactorMethod = z.infer<typeof secondFactorMethodSchema>;
export type SecondFactorStep = z.infer<typeof secondFactorStepSchema>;
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;
export type Factors = z.infer<typeof factorsSchema>;
export type Passkey = z.infer<typeof passkeySchema>;
