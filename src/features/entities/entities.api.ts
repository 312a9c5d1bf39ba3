import { z } from 'zod';
import { type Entity, type EntityInput, entitySchema } from '@common/schemas/entities';
import { type Version, versionSchema } from '@common/schemas/versions';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';
import { recordListTag } from '@/api/tags';

export const entityDefinitionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    createEntity: build.mutation<Entity, EntityInput>({
      query: (body) => ({ url: '/api/entities', method: 'POST', body }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [{ type: 'Entity', id: 'LIST' }]),
      ...responseSchema(entitySchema),
    }),
    /** The definition, its versions and the list change; so do its records (fields removed). */
    updateEntity: build.mutation<Entity, EntityInput & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/api/entities/${id}`,
        method: 'PUT',
        body: { entityId: id, ...body },
      }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error, { id, name }) =>
        error ? [] : [{ type: 'Entity', id }, recordListTag(name)],
      ...responseSchema(entitySchema),
    }),
    /** Its records go with it (one transaction on the server). */
    deleteEntity: build.mutation<void, Pick<Entity, '_id' | 'name'>>({
      query: ({ _id }) => ({ url: `/api/entities/${_id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { _id, name }) =>
        error ? [] : [{ type: 'Entity', id: _id }, recordListTag(name)],
    }),
    listEntityVersions: build.query<Version[], string>({
      query: (id) => `/api/entities/${id}/versions`,
      providesTags: (_result, _error, id) => [{ type: 'Entity', id }],
      ...responseSchema(z.array(versionSchema)),
    }),
  }),
});

export const {
  useCreateEntityMutation,
  useUpdateEntityMutation,
  useDeleteEntityMutation,
  useListEntityVersionsQuery,
} = entityDefinitionsApi;
