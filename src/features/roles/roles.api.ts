import type { Role, RoleUser } from '@common/schemas/roles';
import { api } from '@/api/api';

export const rolesFeatureApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRole: build.query<Role, string>({
      query: (id) => `/api/roles/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Role', id }],
    }),
    createRole: build.mutation<Role, { name: string }>({
      query: (body) => ({ url: '/api/roles', method: 'POST', body }),
      invalidatesTags: [{ type: 'Role', id: 'LIST' }],
    }),
    deleteRole: build.mutation<void, string>({
      query: (id) => ({ url: `/api/roles/${id}`, method: 'DELETE' }),
      // Its users lose it, and so do the route grants.
      invalidatesTags: [
        { type: 'Role', id: 'LIST' },
        { type: 'User', id: 'LIST' },
        { type: 'Route', id: 'LIST' },
        'Permissions',
      ],
    }),
    listRoleUsers: build.query<RoleUser[], string>({
      query: (id) => `/api/roles/${id}/users`,
      providesTags: (_result, _error, id) => [{ type: 'Role', id: `${id}/users` }],
    }),
    toggleRoleUser: build.mutation<{ hasRole: boolean }, { roleId: string; userId: string }>({
      query: ({ roleId, userId }) => ({
        url: `/api/roles/${roleId}/users/${userId}`,
        method: 'PUT',
      }),
      invalidatesTags: (_result, _error, { roleId }) => [
        { type: 'Role', id: `${roleId}/users` },
        { type: 'User', id: 'LIST' },
        // The membership may be the user's own.
        'Permissions',
      ],
    }),
  }),
});

export const {
  useGetRoleQuery,
  useCreateRoleMutation,
  useDeleteRoleMutation,
  useListRoleUsersQuery,
  useToggleRoleUserMutation,
} = rolesFeatureApi;
