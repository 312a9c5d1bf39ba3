import { z } from 'zod';
import { type Entity, entitySchema } from '@common/schemas/entities';
import { api } from './api';
import { responseSchema } from './responseSchema';

/**
 * The entity definitions' reads, shared by the navigation (ui/), the entity screens and
 * the record grid: kept out of the feature folders, since features never import each
 * other. The definitions' writes live in features/entities/entities.api.ts.
 */
export const entitiesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listEntities: build.query<Entity[], void>({
      query: () => '/api/entities',
      providesTags: (result = []) => [
        { type: 'Entity', id: 'LIST' },
        ...result.map((entity) => ({ type: 'Entity' as const, id: entity._id })),
      ],
      ...responseSchema(z.array(entitySchema)),
    }),
    getEntity: build.query<Entity, string>({
      query: (idOrName) => `/api/entities/${encodeURIComponent(idOrName)}`,
      // "No such entity" is an answer about the list: asked again when the list changes
      // (the entity defined or restored, here or by someone else).
      providesTags: (result) => [{ type: 'Entity', id: result ? result._id : 'LIST' }],
      ...responseSchema(entitySchema),
    }),
  }),
});

export const { useListEntitiesQuery, useGetEntityQuery } = entitiesApi;
