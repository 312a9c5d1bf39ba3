import { z } from 'zod';
import { type EntityRecord, entityRecordSchema } from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';
import {
  type DeletedItem,
  type Version,
  deletedItemSchema,
  versionSchema,
} from '@common/schemas/versions';
import { messages } from '@common/messages';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';
import { deletedRecordsTag, recordListTag, recordVersionsTag } from '@/api/tags';
import type { HistoryEndpoints } from '@/components/ItemHistory';
import { restoreItem, versionPageQuery, versionPages } from '@/lib/versions';

interface RecordKey {
  entityName: string;
  id: string;
}

const recordsUrl = (entityName: string) => `/api/entity-records/${encodeURIComponent(entityName)}`;
const recordUrl = ({ entityName, id }: RecordKey) => `${recordsUrl(entityName)}/${id}`;

export const recordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    listRecords: build.query<EntityRecord[], string>({
      query: (entityName) => `/api/entity-records/${encodeURIComponent(entityName)}`,
      providesTags: (_result, _error, entityName) => [recordListTag(entityName)],
      ...responseSchema(z.array(entityRecordSchema)),
    }),
    /** Answers only the new `_id`; the record joins the cached list as it was sent. */
    createRecord: build.mutation<
      { _id: string },
      RecordKey & { fields: Record<string, FieldValue> }
    >({
      query: ({ entityName, id, fields }) => ({
        url: `/api/entity-records/${encodeURIComponent(entityName)}`,
        method: 'POST',
        body: { _id: id, entity_name: entityName, fields },
      }),
      ...responseSchema(z.object({ _id: z.string() })),
      async onQueryStarted({ entityName, fields }, { dispatch, queryFulfilled }) {
        let created: { _id: string };
        try {
          created = (await queryFulfilled).data;
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
        dispatch(
          recordsApi.util.updateQueryData('listRecords', entityName, (draft) => {
            draft.push({ _id: created._id, entity_name: entityName, fields, _version: 1 });
          }),
        );
      },
    }),
    /**
     * Answers the stored record, which replaces the cached one: no refetch. `version` is the
     * one the edit started from: a newer one on the server answers VERSION_CONFLICT.
     */
    updateRecord: build.mutation<
      EntityRecord,
      RecordKey & { fields: Record<string, FieldValue>; version: number }
    >({
      query: ({ entityName, id, fields, version }) => ({
        url: `/api/entity-records/${encodeURIComponent(entityName)}/${id}`,
        method: 'PUT',
        body: { fields, _version: version },
      }),
      extraOptions: { editorShown: true },
      ...responseSchema(entityRecordSchema),
      invalidatesTags: (_result, error, { id }) => (error ? [] : [recordVersionsTag(id)]),
      async onQueryStarted({ entityName, id }, { dispatch, queryFulfilled }) {
        let stored: EntityRecord;
        try {
          stored = (await queryFulfilled).data;
        } catch {
          return;
        }
        dispatch(
          recordsApi.util.updateQueryData('listRecords', entityName, (draft) =>
            draft.map((record) => (record._id === id ? stored : record)),
          ),
        );
      },
    }),
    /**
     * Answers the restored record, which replaces (or, once deleted, rejoins) the cached one.
     * Without `versionId`: the record as it was deleted.
     */
    restoreRecordVersion: build.mutation<
      EntityRecord,
      RecordKey & { versionId?: string; version?: number }
    >({
      queryFn: ({ entityName, id, versionId, version }, _api, _extra, baseQuery) =>
        restoreItem(baseQuery, recordUrl({ entityName, id }), versionId, version),
      ...responseSchema(entityRecordSchema),
      invalidatesTags: (_result, error, { entityName, id }) =>
        error ? [] : [recordVersionsTag(id), deletedRecordsTag(entityName)],
      async onQueryStarted({ entityName, id }, { dispatch, queryFulfilled }) {
        let restored: EntityRecord;
        try {
          restored = (await queryFulfilled).data;
        } catch {
          return;
        }
        dispatch(
          recordsApi.util.updateQueryData('listRecords', entityName, (draft) => {
            const at = draft.findIndex((record) => record._id === id);
            if (at >= 0) draft[at] = restored;
            else draft.push(restored);
          }),
        );
      },
    }),
    deleteRecord: build.mutation<void, RecordKey>({
      query: ({ entityName, id }) => ({
        url: `/api/entity-records/${encodeURIComponent(entityName)}/${id}`,
        method: 'DELETE',
      }),
      invalidatesTags: (_result, error, { entityName, id }) =>
        error ? [] : [recordVersionsTag(id), deletedRecordsTag(entityName)],
      async onQueryStarted({ entityName, id }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return;
        }
        dispatch(
          recordsApi.util.updateQueryData('listRecords', entityName, (draft) =>
            draft.filter((record) => record._id !== id),
          ),
        );
      },
    }),
    listRecordVersions: build.infiniteQuery<Version[], RecordKey, number>({
      infiniteQueryOptions: versionPages,
      query: ({ queryArg: { entityName, id }, pageParam }) =>
        `/api/entity-records/${encodeURIComponent(entityName)}/${id}/versions${versionPageQuery(pageParam)}`,
      providesTags: (_result, _error, { id }) => [recordVersionsTag(id)],
      ...responseSchema(z.array(versionSchema)),
    }),
    listDeletedRecords: build.query<DeletedItem[], string>({
      query: (entityName) =>
        `/api/entity-records/${encodeURIComponent(entityName)}/recently-deleted`,
      providesTags: (_result, _error, entityName) => [deletedRecordsTag(entityName)],
      ...responseSchema(z.array(deletedItemSchema)),
    }),
  }),
});

export const {
  useListRecordsQuery,
  useCreateRecordMutation,
  useUpdateRecordMutation,
  useDeleteRecordMutation,
  useListRecordVersionsInfiniteQuery,
  useListDeletedRecordsQuery,
  useRestoreRecordVersionMutation,
} = recordsApi;

/** An entity's records' history, for the shared history components. */
export const recordHistory = (entityName: string): HistoryEndpoints<string, EntityRecord> => ({
  useVersions: (id) => useListRecordVersionsInfiniteQuery({ entityName, id }),
  useRestore() {
    const [restore] = useRestoreRecordVersionMutation();
    return (id, versionId, version) => restore({ entityName, id, versionId, version }).unwrap();
  },
  useDeleted: () => useListDeletedRecordsQuery(entityName),
  keyOfDeleted: (item) => item._id,
  deletedPath: '/api/entity-records/:entityName/recently-deleted',
  restorePath: '/api/entity-records/:entityName/:id/versions/:versionId/restore',
  restoreContext: messages.records.restoreContext,
});
