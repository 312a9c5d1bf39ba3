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
      invalidatesTags: [{ type: 'Route', id: 'LIST' }],
    }),
  }),
});

export const { useListRoutesQuery, useUpdateRouteMutation } = permissionsApi;
