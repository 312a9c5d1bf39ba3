import type { Entity } from '@common/schemas/entities';
import { api } from './api';

/** Entity definitions, shared by the navigation, the entity screens and the record grid. */
export const entitiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listEntities: build.query<Entity[], void>({
      query: () => '/api/entities',
      providesTags: [{ type: 'Entity', id: 'LIST' }],
    }),
    getEntity: build.query<Entity, string>({
      query: (idOrName) => `/api/entities/${encodeURIComponent(idOrName)}`,
      providesTags: (result) => [{ type: 'Entity', id: result?._id ?? 'UNKNOWN' }],
    }),
  }),
});

export const { useListEntitiesQuery, useGetEntityQuery } = entitiesApi;
