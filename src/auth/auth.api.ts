import type { Identity, LoginInput, LoginResponse, RegisterInput } from '@common/schemas/auth';
import { api } from '@/api/api';

/** Sign-in endpoints. Their errors are shown by the pages that call them. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResponse, LoginInput>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
    }),
    register: build.mutation<LoginResponse, RegisterInput>({
      query: (body) => ({ url: '/api/auth/register', method: 'POST', body }),
    }),
    getGoogleUrl: build.mutation<{ url: string }, void>({
      query: () => ({ url: '/api/auth/google' }),
    }),
    identify: build.mutation<Identity, string>({
      query: (token) => ({
        url: `/api/users/identify?token=${encodeURIComponent(token)}`,
        headers: { 'x-access-token': token },
      }),
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useGetGoogleUrlMutation,
  useIdentifyMutation,
} = authApi;
