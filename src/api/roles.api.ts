import type { Role } from '@common/schemas/roles';
import { api } from './api';

/** The role list, shared by every screen that picks roles (routes, users, roles). */
export const rolesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listRoles: build.query<Role[], void>({
      query: () => '/api/roles',
      providesTags: [{ type: 'Role', id: 'LIST' }],
    }),
  }),
});

export const { useListRolesQuery } = rolesApi;
