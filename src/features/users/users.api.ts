import type { CreateUserInput, UpdateUserInput, User } from '@common/schemas/users';
import { api } from '@/api/api';

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    listUsers: build.query<User[], void>({
      query: () => '/api/users',
      providesTags: [{ type: 'User', id: 'LIST' }],
    }),
    createUser: build.mutation<User, CreateUserInput>({
      query: (body) => ({ url: '/api/users', method: 'POST', body }),
      invalidatesTags: [{ type: 'User', id: 'LIST' }],
    }),
    updateUser: build.mutation<User, UpdateUserInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/api/users/${id}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'User', id: 'LIST' }],
    }),
    deleteUser: build.mutation<void, string>({
      query: (id) => ({ url: `/api/users/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'User', id: 'LIST' }],
    }),
  }),
});

export const {
  useListUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useDeleteUserMutation,
} = usersApi;
