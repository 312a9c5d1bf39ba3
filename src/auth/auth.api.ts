import {
  googleUrlSchema,
  type Identity,
  identitySchema,
  type LoginInput,
  type LoginResponse,
  loginResponseSchema,
  type RegisterInput,
} from '@common/schemas/auth';
import {
  type LoginAnswer,
  loginAnswerSchema,
  secondFactorAnswerSchema,
  type TotpEnrolment,
  totpEnrolmentSchema,
  webAuthnOptionsSchema,
} from '@common/schemas/signIn';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';

/** Sign-in endpoints. Their errors are shown by the pages that call them. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The session, or the second step it needs. */
    login: build.mutation<LoginAnswer, LoginInput>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
      ...responseSchema(loginAnswerSchema),
    }),
    /** The second step: an authenticator code or a recovery code. */
    completeSecondFactor: build.mutation<
      LoginResponse & { recoveryCodes?: string[] },
      { challenge: string; code: string }
    >({
      query: (body) => ({ url: '/api/auth/login/second-factor', method: 'POST', body }),
      ...responseSchema(secondFactorAnswerSchema),
    }),
    /** A second step that must first set up an authenticator app (a role requires one). */
    beginStepAuthenticator: build.mutation<TotpEnrolment, string>({
      query: (challenge) => ({
        url: '/api/auth/login/authenticator',
        method: 'POST',
        body: { challenge },
      }),
      ...responseSchema(totpEnrolmentSchema),
    }),
    passkeySignInOptions: build.mutation<{ challenge: string }, { challenge?: string }>({
      query: (body) => ({ url: '/api/auth/passkey/options', method: 'POST', body }),
      ...responseSchema(webAuthnOptionsSchema),
    }),
    passkeySignIn: build.mutation<LoginResponse, { challenge?: string; credential: unknown }>({
      query: (body) => ({ url: '/api/auth/passkey', method: 'POST', body }),
      ...responseSchema(loginResponseSchema),
    }),
    register: build.mutation<LoginResponse, RegisterInput>({
      query: (body) => ({ url: '/api/auth/register', method: 'POST', body }),
      ...responseSchema(loginResponseSchema),
    }),
    getGoogleUrl: build.mutation<{ url: string }, void>({
      query: () => ({ url: '/api/auth/google' }),
      ...responseSchema(googleUrlSchema),
    }),
    identify: build.mutation<Identity, string>({
      query: (token) => ({
        url: `/api/users/identify?token=${encodeURIComponent(token)}`,
        headers: { 'x-access-token': token },
      }),
      ...responseSchema(identitySchema),
    }),
  }),
});

export const {
  useLoginMutation,
  useCompleteSecondFactorMutation,
  useBeginStepAuthenticatorMutation,
  usePasskeySignInOptionsMutation,
  usePasskeySignInMutation,
  useRegisterMutation,
  useGetGoogleUrlMutation,
  useIdentifyMutation,
} = authApi;
