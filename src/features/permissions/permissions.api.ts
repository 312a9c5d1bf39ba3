import type { RoutePermission } from '@common/schemas/permissions';
import { api } from '@/api/api';

export const permissionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listRoutes: build.query<RoutePermission[], void>({
      query: () => '/api/routes',
      providesTags: [{ type: 'Route', id: 'LIST' }],
    }),
    updateRoute: build.mutation<RoutePermission, { id: string; allowedRoles: string[] }>({
      query: ({ id, allowedRoles }) => ({
        url: `/api/routes/${id}`,
        method: 'PUT',
        body: { allowedRoles },
      }),
      // The edited route's grants may be the user's own.
      invalidatesTags: [{ type: 'Route', id: 'LIST' }, 'Permissions'],
    }),
  }),
});

export const { useListRoutesQuery, useUpdateRouteMutation } = permissionsApi;
