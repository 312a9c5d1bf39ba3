import type { Entity, EntityInput } from '@common/schemas/entities';
import type { Version } from '@common/schemas/versions';
import { api } from '@/api/api';

export const entityDefinitionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    createEntity: build.mutation<Entity, EntityInput>({
      query: (body) => ({ url: '/api/entities', method: 'POST', body }),
      invalidatesTags: [{ type: 'Entity', id: 'LIST' }],
    }),
    updateEntity: build.mutation<Entity, EntityInput & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/api/entities/${id}`,
        method: 'PUT',
        body: { entityId: id, ...body },
      }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Entity', id: 'LIST' },
        { type: 'Entity', id },
      ],
    }),
    deleteEntity: build.mutation<void, string>({
      query: (id) => ({ url: `/api/entities/${id}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Entity', id: 'LIST' }],
    }),
    listEntityVersions: build.query<Version[], string>({
      query: (id) => `/api/entities/${id}/versions`,
      providesTags: (_result, _error, id) => [{ type: 'Entity', id }],
    }),
  }),
});

export const {
  useCreateEntityMutation,
  useUpdateEntityMutation,
  useDeleteEntityMutation,
  useListEntityVersionsQuery,
} = entityDefinitionsApi;
