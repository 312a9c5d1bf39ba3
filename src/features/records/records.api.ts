import { z } from 'zod';
import {
  type BulkResult,
  type RecordSelection,
  bulkResultSchema,
  type Entity,
  type EntityRecord,
  type RecordPage,
  entityRecordSchema,
  recordPageSchema,
} from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';
import {
  type DeletedItem,
  type Version,
  deletedItemSchema,
  versionSchema,
} from '@common/schemas/versions';
import { messages } from '@common/messages';
import { api } from '@/api/api';
import type { UndoRequest } from '@/api/undo';
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
    /** A page of records; `query` is its query string (page, perPage, sort, q, filters). */
    listRecordPage: build.query<RecordPage, { entityName: string; query: string }>({
      query: ({ entityName, query }) => `${recordsUrl(entityName)}?${query}`,
      providesTags: (_result, _error, { entityName }) => [recordListTag(entityName)],
      ...responseSchema(recordPageSchema),
    }),
    /** Answers only the new `_id`; the pages are asked again (it goes where the sort puts it). */
    createRecord: build.mutation<
      { _id: string },
      RecordKey & { fields: Record<string, FieldValue | null> }
    >({
      query: ({ entityName, id, fields }) => ({
        url: recordsUrl(entityName),
        method: 'POST',
        body: { _id: id, entity_name: entityName, fields },
      }),
      ...responseSchema(z.object({ _id: z.string() })),
      invalidatesTags: (_result, error, { entityName }) =>
        error ? [] : [recordListTag(entityName)],
    }),
    /**
     * Answers the stored record; the pages are asked again. `version` is the one the edit
     * started from: a newer one on the server answers VERSION_CONFLICT.
     */
    updateRecord: build.mutation<
      EntityRecord,
      RecordKey & { fields: Record<string, FieldValue | null>; version: number }
    >({
      query: ({ entityName, id, fields, version }) => ({
        url: recordUrl({ entityName, id }),
        method: 'PUT',
        body: { fields, _version: version },
      }),
      extraOptions: { editorShown: true },
      ...responseSchema(entityRecordSchema),
      invalidatesTags: (_result, error, { entityName, id }) =>
        error ? [] : [recordVersionsTag(id), recordListTag(entityName)],
    }),
    /**
     * Answers the restored record; the pages are asked again. Without `versionId`: the
     * record as it was deleted.
     */
    restoreRecordVersion: build.mutation<
      EntityRecord,
      RecordKey & { versionId?: string; version?: number }
    >({
      queryFn: ({ entityName, id, versionId, version }, _api, _extra, baseQuery) =>
        restoreItem(baseQuery, recordUrl({ entityName, id }), versionId, version),
      ...responseSchema(entityRecordSchema),
      invalidatesTags: (_result, error, { entityName, id }) =>
        error
          ? []
          : [recordVersionsTag(id), deletedRecordsTag(entityName), recordListTag(entityName)],
    }),
    deleteRecord: build.mutation<void, RecordKey>({
      query: ({ entityName, id }) => ({ url: recordUrl({ entityName, id }), method: 'DELETE' }),
      invalidatesTags: (_result, error, { entityName, id }) =>
        error
          ? []
          : [recordVersionsTag(id), deletedRecordsTag(entityName), recordListTag(entityName)],
    }),
    /** One request, one transaction: every record chosen (by id, or the list's filter) goes. */
    bulkDeleteRecords: build.mutation<
      BulkResult,
      { entityName: string; selection: RecordSelection }
    >({
      query: ({ entityName, selection }) => ({
        url: `${recordsUrl(entityName)}/bulk-delete`,
        method: 'POST',
        body: { selection },
      }),
      ...responseSchema(bulkResultSchema),
      invalidatesTags: (result, error, { entityName }) =>
        error || !result
          ? []
          : [
              ...result.ids.map(recordVersionsTag),
              deletedRecordsTag(entityName),
              recordListTag(entityName),
            ],
    }),
    /** The same values set on every record chosen. */
    bulkUpdateRecords: build.mutation<
      BulkResult,
      { entityName: string; selection: RecordSelection; fields: Record<string, FieldValue | null> }
    >({
      query: ({ entityName, ...body }) => ({
        url: `${recordsUrl(entityName)}/bulk-update`,
        method: 'POST',
        body,
      }),
      ...responseSchema(bulkResultSchema),
      invalidatesTags: (result, error, { entityName }) =>
        error || !result ? [] : [...result.ids.map(recordVersionsTag), recordListTag(entityName)],
    }),
    listRecordVersions: build.infiniteQuery<Version[], RecordKey, number>({
      infiniteQueryOptions: versionPages,
      query: ({ queryArg: { entityName, id }, pageParam }) =>
        `${recordUrl({ entityName, id })}/versions${versionPageQuery(pageParam)}`,
      providesTags: (_result, _error, { id }) => [recordVersionsTag(id)],
      ...responseSchema(z.array(versionSchema)),
    }),
    listDeletedRecords: build.query<DeletedItem[], string>({
      query: (entityName) => `${recordsUrl(entityName)}/recently-deleted`,
      providesTags: (_result, _error, entityName) => [deletedRecordsTag(entityName)],
      ...responseSchema(z.array(deletedItemSchema)),
    }),
  }),
});

export const {
  useBulkDeleteRecordsMutation,
  useBulkUpdateRecordsMutation,
  useListRecordPageQuery,
  useCreateRecordMutation,
  useUpdateRecordMutation,
  useDeleteRecordMutation,
  useListRecordVersionsInfiniteQuery,
  useListDeletedRecordsQuery,
  useRestoreRecordVersionMutation,
} = recordsApi;

/** An entity's records' history, for the shared history components: values by their type. */
export const recordHistory = ({
  name: entityName,
  fields,
}: Entity): HistoryEndpoints<string, EntityRecord> => ({
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
  fields: {
    order: fields.map((field) => field.name),
    // A field deleted since keeps its name.
    labelOf: (name) => fields.find((field) => field.name === name)?.label || name,
    typeOf: (name) => fields.find((field) => field.name === name)?.type,
  },
});

/** The Undo of a delete of records `ids`: one bulk restore, the lists they were in asked again. */
export const undoRecordsDelete = (entityName: string, ids: string[]): UndoRequest => ({
  url: `${recordsUrl(entityName)}/bulk-restore`,
  body: { ids },
  invalidates: [
    recordListTag(entityName),
    deletedRecordsTag(entityName),
    ...ids.map(recordVersionsTag),
  ],
});
