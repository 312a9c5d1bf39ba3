import { z } from 'zod';
import { type Role, roleSchema } from '@common/schemas/roles';
import { api } from './api';
import { responseSchema } from './responseSchema';

/**
 * The role list, shared by every screen that picks roles (routes, users, roles): kept out
 * of the feature folders, since features never import each other. The roles' other
 * endpoints live in features/roles/roles.api.ts.
 */
export const rolesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listRoles: build.query<Role[], void>({
      query: () => '/api/roles',
      providesTags: (result = []) => [
        { type: 'Role', id: 'LIST' },
        ...result.map((role) => ({ type: 'Role' as const, id: role._id })),
      ],
      ...responseSchema(z.array(roleSchema)),
    }),
  }),
});

export const { useListRolesQuery } = rolesApi;
