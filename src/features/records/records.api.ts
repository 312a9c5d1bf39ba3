import type { EntityRecord } from '@common/schemas/entities';
import type { Version } from '@common/schemas/versions';
import { api } from '@/api/api';

interface RecordKey {
  entityName: string;
  id: string;
}

export const recordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listRecords: build.query<EntityRecord[], string>({
      query: (entityName) => `/api/entity-records/${encodeURIComponent(entityName)}`,
      providesTags: (_result, _error, entityName) => [{ type: 'Record', id: entityName }],
    }),
    createRecord: build.mutation<{ _id: string }, RecordKey & { fields: Record<string, string> }>({
      query: ({ entityName, id, fields }) => ({
        url: `/api/entity-records/${encodeURIComponent(entityName)}`,
        method: 'POST',
        body: { _id: id, entity_name: entityName, fields },
      }),
    }),
    updateRecord: build.mutation<EntityRecord, RecordKey & { fields: Record<string, string> }>({
      query: ({ entityName, id, fields }) => ({
        url: `/api/entity-records/${encodeURIComponent(entityName)}/${id}`,
        method: 'PUT',
        body: { fields },
      }),
      invalidatesTags: (_result, _error, { id }) => [{ type: 'Record', id: `${id}/versions` }],
    }),
    deleteRecord: build.mutation<void, RecordKey>({
      query: ({ entityName, id }) => ({
        url: `/api/entity-records/${encodeURIComponent(entityName)}/${id}`,
        method: 'DELETE',
      }),
    }),
    listRecordVersions: build.query<Version[], RecordKey>({
      query: ({ entityName, id }) =>
        `/api/entity-records/${encodeURIComponent(entityName)}/${id}/versions`,
      providesTags: (_result, _error, { id }) => [{ type: 'Record', id: `${id}/versions` }],
    }),
  }),
});

export const {
  useListRecordsQuery,
  useCreateRecordMutation,
  useUpdateRecordMutation,
  useDeleteRecordMutation,
  useListRecordVersionsQuery,
} = recordsApi;
