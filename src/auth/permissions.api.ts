import { type Permissions, permissionsSchema } from '@common/schemas/permissions';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';

/**
 * What the signed-in user may call (`GET /api/auth/permissions`), for the screens to
 * offer only that. Refetched when the session changes or a request answers 403
 * (auth.listeners), when routes or role memberships change (their mutations invalidate
 * 'Permissions'), and when the window regains focus (`usePermissions`).
 */
export const permissionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPermissions: build.query<Permissions, void>({
      query: () => '/api/auth/permissions',
      providesTags: ['Permissions'],
      // A background call: when it fails, the screens fall back to asking the server.
      extraOptions: { quiet: true },
      ...responseSchema(permissionsSchema),
    }),
  }),
});

export const { useGetPermissionsQuery } = permissionsApi;
