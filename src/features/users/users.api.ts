import { z } from 'zod';
import {
  type CreateUserInput,
  type SetPasswordInput,
  type UpdateUserInput,
  type User,
  userSchema,
} from '@common/schemas/users';
import { type BulkResult, bulkResultSchema } from '@common/schemas/entities';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';
import type { UndoRequest } from '@/api/undo';

/** Role assignment lists show usernames: the tag every one of them provides. */
const roleUserLists = { type: 'Role', id: 'USERS' } as const;

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    listUsers: build.query<User[], void>({
      query: () => '/api/users',
      providesTags: (result = []) => [
        { type: 'User', id: 'LIST' },
        ...result.map((user) => ({ type: 'User' as const, id: user._id })),
      ],
      ...responseSchema(z.array(userSchema)),
    }),
    createUser: build.mutation<User, CreateUserInput>({
      query: (body) => ({ url: '/api/users', method: 'POST', body }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) =>
        error ? [] : [{ type: 'User', id: 'LIST' }, roleUserLists],
      ...responseSchema(userSchema),
    }),
    /** The stored user replaces the cached one: no refetch of the list. */
    updateUser: build.mutation<User, UpdateUserInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/api/users/${id}`, method: 'PUT', body }),
      // A stale `_version` opens the grid's ConflictDialog.
      extraOptions: { editorShown: true },
      invalidatesTags: (_result, error) => (error ? [] : [roleUserLists]),
      ...responseSchema(userSchema),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        let stored: User;
        try {
          stored = (await queryFulfilled).data;
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
        dispatch(
          usersApi.util.updateQueryData('listUsers', undefined, (draft) =>
            draft.map((user) => (user._id === id ? stored : user)),
          ),
        );
      },
    }),
    /** Deletes the users in one request; the list drops them once the server has. */
    bulkDeleteUsers: build.mutation<BulkResult, string[]>({
      query: (ids) => ({ url: '/api/users/bulk-delete', method: 'POST', body: { ids } }),
      invalidatesTags: (_result, error) => (error ? [] : [roleUserLists]),
      ...responseSchema(bulkResultSchema),
      async onQueryStarted(ids, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
        const gone = new Set(ids);
        dispatch(
          usersApi.util.updateQueryData('listUsers', undefined, (draft) =>
            draft.filter((user) => !gone.has(user._id)),
          ),
        );
      },
    }),
    /** Removes the user's second factors (an admin's help for one who lost them). */
    resetSecondFactor: build.mutation<void, string>({
      query: (id) => ({ url: `/api/users/${id}/second-factor`, method: 'DELETE' }),
    }),
    deleteUser: build.mutation<void, string>({
      query: (id) => ({ url: `/api/users/${id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : [roleUserLists]),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        dispatch(
          usersApi.util.updateQueryData('listUsers', undefined, (draft) =>
            draft.filter((user) => user._id !== id),
          ),
        );
      },
    }),
    /**
     * An administrator sets a user's password (204); the server ends that user's sessions.
     * Nothing cached changes: a user's password is never shown.
     */
    setUserPassword: build.mutation<void, SetPasswordInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/api/users/${id}/password`, method: 'PUT', body }),
      extraOptions: { shownInForm: true },
    }),
  }),
});

export const {
  useListUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useResetSecondFactorMutation,
  useBulkDeleteUsersMutation,
  useSetUserPasswordMutation,
} = usersApi;

/** The Undo of a delete of users `ids`: one bulk restore, the lists they were in asked again. */
export const undoUsersDelete = (ids: string[]): UndoRequest => ({
  url: '/api/users/bulk-restore',
  body: { ids },
  invalidates: [{ type: 'User', id: 'LIST' }, roleUserLists],
});
