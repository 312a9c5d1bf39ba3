import { z } from 'zod';
import { type Role, type RoleUser, roleSchema, roleUserSchema } from '@common/schemas/roles';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';
import type { UndoRequest } from '@/api/undo';

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
    /** An admin starts seeing the product as `role` would: the server audits it. */
    startPreview: build.mutation<void, string>({
      query: (role) => ({ url: '/api/auth/preview', method: 'POST', body: { role } }),
    }),
    getRole: build.query<Role, string>({
      query: (id) => `/api/roles/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Role', id }],
      ...responseSchema(roleSchema),
    }),
    createRole: build.mutation<Role, { name: string }>({
      query: (body) => ({ url: '/api/roles', method: 'POST', body }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [{ type: 'Role', id: 'LIST' }]),
      ...responseSchema(roleSchema),
    }),
    deleteRole: build.mutation<void, string>({
      query: (id) => ({ url: `/api/roles/${id}`, method: 'DELETE' }),
      // Its users lose it, and so do the route grants: maybe the user's own. The role
      // leaves the cached list here (its own tag, which the list provides, would reload it).
      invalidatesTags: (_result, error) =>
        error ? [] : [{ type: 'User', id: 'LIST' }, { type: 'Route', id: 'LIST' }, 'Permissions'],
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
        dispatch(
          rolesApi.util.updateQueryData('listRoles', undefined, (draft) =>
            draft.filter((role) => role._id !== id),
          ),
        );
      },
    }),
    /** Requires (or not) a second factor of the role's members; answers the role. */
    setRoleSecondFactor: build.mutation<Role, { id: string; required: boolean }>({
      query: ({ id, required }) => ({
        url: `/api/roles/${id}/second-factor`,
        method: 'PUT',
        body: { required },
      }),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(rolesApi.util.upsertQueryData('getRole', id, data));
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
      },
      ...responseSchema(roleSchema),
    }),
    /** Every user, with whether they hold the role. */
    listRoleUsers: build.query<RoleUser[], string>({
      query: (id) => `/api/roles/${id}/users`,
      providesTags: (_result, _error, id) => [
        { type: 'Role', id: `${id}/users` },
        // Any change of a user (name, deletion) shows in these lists.
        { type: 'Role', id: 'USERS' },
      ],
      ...responseSchema(z.array(roleUserSchema)),
    }),
    /** Answers `{ hasRole }`, written into the role's list; the user's roles changed. */
    toggleRoleUser: build.mutation<{ hasRole: boolean }, { roleId: string; userId: string }>({
      query: ({ roleId, userId }) => ({
        url: `/api/roles/${roleId}/users/${userId}`,
        method: 'PUT',
      }),
      // The membership may be the user's own.
      invalidatesTags: (_result, error, { userId }) =>
        error ? [] : [{ type: 'User', id: userId }, 'Permissions'],
      ...responseSchema(z.object({ hasRole: z.boolean() })),
      async onQueryStarted({ roleId, userId }, { dispatch, queryFulfilled }) {
        let hasRole: boolean;
        try {
          ({ hasRole } = (await queryFulfilled).data);
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
        dispatch(
          rolesApi.util.updateQueryData('listRoleUsers', roleId, (draft) => {
            const user = draft.find((candidate) => candidate._id === userId);
            if (user) user.hasRole = hasRole;
          }),
        );
      },
    }),
  }),
});

export const {
  useStartPreviewMutation,
  useListRolesQuery,
  useGetRoleQuery,
  useCreateRoleMutation,
  useDeleteRoleMutation,
  useListRoleUsersQuery,
  useToggleRoleUserMutation,
  useSetRoleSecondFactorMutation,
} = rolesApi;

/**
 * The Undo of a role's delete: its restore; the lists and grants it is back in, and maybe
 * the user's own permissions, asked again.
 */
export const undoRoleDelete = (id: string): UndoRequest => ({
  url: `/api/roles/${id}/restore`,
  invalidates: [
    { type: 'Role', id: 'LIST' },
    { type: 'Role', id: 'USERS' },
    { type: 'User', id: 'LIST' },
    { type: 'Route', id: 'LIST' },
    'Permissions',
  ],
});
