import { z } from 'zod';
import { type RoutePermission, routePermissionSchema } from '@common/schemas/permissions';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';

export const permissionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listRoutes: build.query<RoutePermission[], void>({
      query: () => '/api/routes',
      providesTags: (result = []) => [
        { type: 'Route', id: 'LIST' },
        ...result.map((route) => ({ type: 'Route' as const, id: route._id })),
      ],
      ...responseSchema(z.array(routePermissionSchema)),
    }),
    /** The stored route replaces the cached one; its grants may be the user's own. */
    /** `version`: the one the edit started from (a newer one answers VERSION_CONFLICT). */
    updateRoute: build.mutation<
      RoutePermission,
      { id: string; allowedRoles: string[]; version: number }
    >({
      query: ({ id, allowedRoles, version }) => ({
        url: `/api/routes/${id}`,
        method: 'PUT',
        body: { allowedRoles, _version: version },
      }),
      extraOptions: { editorShown: true },
      invalidatesTags: (_result, error) => (error ? [] : ['Permissions']),
      ...responseSchema(routePermissionSchema),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        let stored: RoutePermission;
        try {
          stored = (await queryFulfilled).data;
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
        dispatch(
          permissionsApi.util.updateQueryData('listRoutes', undefined, (draft) =>
            draft.map((route) => (route._id === id ? stored : route)),
          ),
        );
      },
    }),
  }),
});

export const { useListRoutesQuery, useUpdateRouteMutation } = permissionsApi;
