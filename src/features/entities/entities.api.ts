import type { TagDescription } from '@reduxjs/toolkit/query';
import { z } from 'zod';
import {
  type DefinitionReport,
  type Entity,
  type EntityInput,
  definitionReportSchema,
  entityFieldSchema,
  entitySchema,
} from '@common/schemas/entities';
import {
  type DeletedItem,
  type Version,
  deletedItemSchema,
  versionSchema,
} from '@common/schemas/versions';
import { messages } from '@common/messages';
import type { RolePolicy } from '@common/schemas/policies';
import { type TagType, api } from '@/api/api';
import type { UndoRequest } from '@/api/undo';
import { responseSchema } from '@/api/responseSchema';
import type { HistoryEndpoints } from '@/components/ItemHistory';
import type { MessageId } from '@/i18n/i18n';
import { t } from '@/i18n/useT';
import {
  deletedEntitiesTag,
  deletedRecordsTag,
  entityVersionsTag,
  recordListTag,
} from '@/api/tags';
import { restoreItem, versionPageQuery, versionPages } from '@/lib/versions';

/**
 * What a restored definition changes: it may be back from a delete or have other fields, so
 * the list and the definition reload, and so do its records and what is listed as deleted.
 */
const restoredEntityTags = (id: string, name: string): TagDescription<TagType>[] => [
  { type: 'Entity', id: 'LIST' },
  { type: 'Entity', id },
  entityVersionsTag(id),
  recordListTag(name),
  deletedEntitiesTag,
  deletedRecordsTag(name),
];

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
    createEntity: build.mutation<Entity, EntityInput>({
      query: (body) => ({ url: '/api/entities', method: 'POST', body }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [{ type: 'Entity', id: 'LIST' }]),
      ...responseSchema(entitySchema),
    }),
    /**
     * Answers the stored definition, which replaces the cached one (in the list and as read
     * by id or by name: the name never changes); its versions change, and so do its
     * records (fields removed).
     */
    updateEntity: build.mutation<Entity, EntityInput & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/api/entities/${id}`,
        method: 'PUT',
        body: { entityId: id, ...body },
      }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error, { id, name }) =>
        error ? [] : [entityVersionsTag(id), recordListTag(name)],
      ...responseSchema(entitySchema),
      async onQueryStarted({ id, name }, { dispatch, queryFulfilled }) {
        let stored: Entity;
        try {
          stored = (await queryFulfilled).data;
        } catch {
          return; // Refused: the form says why.
        }
        for (const update of storedEntityUpdates(id, name, stored)) dispatch(update);
      },
    }),
    /** What a change of the definition would do to its records (`?dryRun=true`): nothing changes. */
    checkEntityChange: build.mutation<DefinitionReport, EntityInput & { id: string }>({
      query: ({ id, ...body }) => ({
        url: `/api/entities/${id}?dryRun=true`,
        method: 'PUT',
        body: { entityId: id, ...body },
      }),
      extraOptions: { shownInForm: true },
      ...responseSchema(definitionReportSchema),
    }),
    /**
     * Sets who may see and change which records and fields (admins by default). Answers the
     * stored definition, which replaces the cached one; its versions change, and so do its
     * records for anyone the policies narrow (their lists reload).
     */
    updateEntityPolicies: build.mutation<
      Entity,
      { id: string; name: string; policies: RolePolicy[]; _version: number }
    >({
      query: ({ id, policies, _version }) => ({
        url: `/api/entities/${id}/policies`,
        method: 'PUT',
        body: { policies, _version },
      }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error, { id, name }) =>
        error ? [] : [entityVersionsTag(id), recordListTag(name), 'Permissions'],
      ...responseSchema(entitySchema),
      async onQueryStarted({ id, name }, { dispatch, queryFulfilled }) {
        let stored: Entity;
        try {
          stored = (await queryFulfilled).data;
        } catch {
          return; // Refused: the form says why.
        }
        for (const update of storedEntityUpdates(id, name, stored)) dispatch(update);
      },
    }),
    /** Its records go with it (one transaction on the server); it leaves the cached list. */
    deleteEntity: build.mutation<void, Pick<Entity, '_id' | 'name'>>({
      query: ({ _id }) => ({ url: `/api/entities/${_id}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { _id, name }) =>
        error
          ? []
          : [
              entityVersionsTag(_id),
              recordListTag(name),
              deletedEntitiesTag,
              deletedRecordsTag(name),
            ],
      async onQueryStarted({ _id }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // Refused: whoever asked for it reports why.
        }
        dispatch(
          entitiesApi.util.updateQueryData('listEntities', undefined, (draft) =>
            draft.filter((entity) => entity._id !== _id),
          ),
        );
      },
    }),
    restoreEntityVersion: build.mutation<
      Entity,
      { id: string; name: string; versionId?: string; version?: number }
    >({
      // Without `versionId`: the definition as it was deleted.
      queryFn: ({ id, versionId, version }, _api, _extra, baseQuery) =>
        restoreItem(baseQuery, `/api/entities/${id}`, versionId, version),
      invalidatesTags: (_result, error, { id, name }) =>
        error ? [] : restoredEntityTags(id, name),
      ...responseSchema(entitySchema),
    }),
    listEntityVersions: build.infiniteQuery<Version[], string, number>({
      infiniteQueryOptions: versionPages,
      query: ({ queryArg: id, pageParam }) =>
        `/api/entities/${id}/versions${versionPageQuery(pageParam)}`,
      providesTags: (_result, _error, id) => [entityVersionsTag(id)],
      ...responseSchema(z.array(versionSchema)),
    }),
    listDeletedEntities: build.query<DeletedItem[], void>({
      query: () => '/api/entities/recently-deleted',
      providesTags: [deletedEntitiesTag],
      ...responseSchema(z.array(deletedItemSchema)),
    }),
  }),
});

/** The stored definition replaces the cached one: in the list, and as read by id or by name. */
const storedEntityUpdates = (id: string, name: string, stored: Entity) => [
  entitiesApi.util.updateQueryData('listEntities', undefined, (draft) =>
    draft.map((entity) => (entity._id === id ? stored : entity)),
  ),
  ...[id, name].map((idOrName) =>
    entitiesApi.util.updateQueryData('getEntity', idOrName, () => stored),
  ),
];

export const {
  useListEntitiesQuery,
  useGetEntityQuery,
  useCreateEntityMutation,
  useUpdateEntityMutation,
  useUpdateEntityPoliciesMutation,
  useCheckEntityChangeMutation,
  useDeleteEntityMutation,
  useListEntityVersionsInfiniteQuery,
  useListDeletedEntitiesQuery,
  useRestoreEntityVersionMutation,
} = entitiesApi;

/** A definition as its history endpoints need it: its id, and its name (for its records). */
export type EntityKey = Pick<Entity, '_id' | 'name'>;

/** The entity form's labels of a definition's parts, in its order, for its history. */
const entityLabels: Record<string, MessageId> = {
  name: 'entities.name',
  description: 'entities.description',
  category: 'entities.category',
  fields: 'entities.fields',
  displayField: 'entities.displayField',
};

/** A definition's fields as its history reads them: `Title (Text, required); Status (Choice: a / b)`. */
function fieldsRead(value: unknown): string | undefined {
  const parsed = z.array(entityFieldSchema).safeParse(value);
  if (!parsed.success) return undefined;
  return parsed.data
    .map(({ name, label, type = 'text', required, unique, options, target }) => {
      const choices = options?.join(' / ') ?? target;
      return t('history.entityField', {
        label: label || name,
        type: t(`entities.type.${type}`),
        hasChoices: choices ? 'yes' : 'no',
        choices: choices ?? '',
        required: required ? 'yes' : 'no',
        unique: unique ? 'yes' : 'no',
      });
    })
    .join(t('history.entityFieldSeparator'));
}

/** The definitions' history, for the shared history components. */
export const entityHistory: HistoryEndpoints<EntityKey, Entity> = {
  useVersions: (entity) => useListEntityVersionsInfiniteQuery(entity._id),
  useRestore() {
    const [restore] = useRestoreEntityVersionMutation();
    return (entity, versionId, version) =>
      restore({ id: entity._id, name: entity.name, versionId, version }).unwrap();
  },
  useDeleted: () => useListDeletedEntitiesQuery(),
  keyOfDeleted: (item) => ({ _id: item._id, name: String(item.document.name) }),
  deletedPath: '/api/entities/recently-deleted',
  restorePath: '/api/entities/:id/versions/:versionId/restore',
  restoreContext: messages.entities.restoreContext,
  fields: {
    order: Object.keys(entityLabels),
    labelOf: (field) => (field in entityLabels ? t(entityLabels[field]!) : field),
    show: (field, value) => (field === 'fields' ? fieldsRead(value) : undefined),
  },
};

/** The Undo of a definition's delete: its restore, which brings back the records deleted with it. */
export const undoEntityDelete = ({ _id, name }: EntityKey): UndoRequest => ({
  itemUrl: `/api/entities/${_id}`,
  invalidates: restoredEntityTags(_id, name),
});
