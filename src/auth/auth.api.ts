import {
  googleUrlSchema,
  type Identity,
  identitySchema,
  type LoginInput,
  type LoginResponse,
  loginResponseSchema,
  type RegisterInput,
} from '@common/schemas/auth';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';

/** Sign-in endpoints. Their errors are shown by the pages that call them. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginInput>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
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
  useRegisterMutation,
  useGetGoogleUrlMutation,
  useIdentifyMutation,
} = authApi;
