import { z } from 'zod';
import {
  type AccessToken,
  accessTokenSchema,
  type CreateAccessTokenInput,
  type CreatedAccessToken,
  createdAccessTokenSchema,
} from '@common/schemas/accessTokens';
import {
  type Factors,
  factorsSchema,
  type Passkey,
  passkeySchema,
  recoveryCodesSchema,
  type TotpEnrolment,
  totpEnrolmentSchema,
  webAuthnOptionsSchema,
} from '@common/schemas/signIn';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';

const factorsTag = { type: 'Factors', id: 'MINE' } as const;
const tokensTag = { type: 'AccessToken', id: 'MINE' } as const;

/** The signed-in user's own sign-in factors and personal access tokens. */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    getFactors: build.query<Factors, void>({
      query: () => '/api/auth/factors',
      providesTags: [factorsTag],
      ...responseSchema(factorsSchema),
    }),
    beginAuthenticator: build.mutation<TotpEnrolment, void>({
      query: () => ({ url: '/api/auth/authenticator', method: 'POST' }),
      ...responseSchema(totpEnrolmentSchema),
    }),
    confirmAuthenticator: build.mutation<{ recoveryCodes: string[] }, string>({
      query: (code) => ({ url: '/api/auth/authenticator/confirm', method: 'POST', body: { code } }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [factorsTag]),
      ...responseSchema(recoveryCodesSchema),
    }),
    disableAuthenticator: build.mutation<void, string>({
      query: (code) => ({ url: '/api/auth/authenticator/disable', method: 'POST', body: { code } }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [factorsTag]),
    }),
    renewRecoveryCodes: build.mutation<{ recoveryCodes: string[] }, string>({
      query: (code) => ({
        url: '/api/auth/authenticator/recovery-codes',
        method: 'POST',
        body: { code },
      }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [factorsTag]),
      ...responseSchema(recoveryCodesSchema),
    }),
    passkeyOptions: build.mutation<{ challenge: string }, void>({
      query: () => ({ url: '/api/auth/passkeys/options', method: 'POST' }),
      ...responseSchema(webAuthnOptionsSchema),
    }),
    addPasskey: build.mutation<Passkey, { name: string; credential: unknown }>({
      query: (body) => ({ url: '/api/auth/passkeys', method: 'POST', body }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [factorsTag]),
      ...responseSchema(passkeySchema),
    }),
    removePasskey: build.mutation<void, string>({
      query: (id) => ({ url: `/api/auth/passkeys/${encodeURIComponent(id)}`, method: 'DELETE' }),
      // Refused too: it may be gone already (removed in another window).
      invalidatesTags: [factorsTag],
    }),
    listAccessTokens: build.query<AccessToken[], void>({
      query: () => '/api/auth/access-tokens',
      providesTags: [tokensTag],
      ...responseSchema(z.array(accessTokenSchema)),
    }),
    createAccessToken: build.mutation<CreatedAccessToken, CreateAccessTokenInput>({
      query: (body) => ({ url: '/api/auth/access-tokens', method: 'POST', body }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [tokensTag]),
      ...responseSchema(createdAccessTokenSchema),
    }),
    revokeAccessToken: build.mutation<void, string>({
      query: (id) => ({ url: `/api/auth/access-tokens/${id}`, method: 'DELETE' }),
      // Refused too: it may be gone already (revoked in another window).
      invalidatesTags: [tokensTag],
    }),
  }),
});

export const {
  useGetFactorsQuery,
  useBeginAuthenticatorMutation,
  useConfirmAuthenticatorMutation,
  useDisableAuthenticatorMutation,
  useRenewRecoveryCodesMutation,
  usePasskeyOptionsMutation,
  useAddPasskeyMutation,
  useRemovePasskeyMutation,
  useListAccessTokensQuery,
  useCreateAccessTokenMutation,
  useRevokeAccessTokenMutation,
} = accountApi;
