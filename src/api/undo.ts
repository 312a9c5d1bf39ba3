import { restoreItem } from '@/lib/versions';
import type { TagDescription } from '@reduxjs/toolkit/query';
import { messages } from '@common/messages';
import type { AppStartListening } from '@/lib/store';
import { toastQueued, undoRequested } from '@/ui/ui.slice';
import { api, type TagType } from './api';
import { reportError } from './errors';
import { t } from '@/i18n/useT';

/**
 * How a delete is undone: the restore to ask for (POST `url` with `body`, or the item at
 * `itemUrl` as it was deleted), and the tags the answer changes. Data, not a callback: it
 * rides in a toast (ui.slice).
 */
export interface UndoRequest {
  url?: string;
  body?: unknown;
  itemUrl?: string;
  invalidates: TagDescription<TagType>[];
}

const undoApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Undoes a delete through the restore routes; the lists it changes are asked again. */
    undoDelete: build.mutation<unknown, UndoRequest>({
      queryFn: ({ url, body, itemUrl }, _api, _extra, baseQuery) =>
        itemUrl
          ? restoreItem(baseQuery, itemUrl, undefined)
          : baseQuery({ url: url!, method: 'POST', body }),
      invalidatesTags: (_result, error, { invalidates }) => (error ? [] : invalidates),
    }),
  }),
});

/** Carries out Undo on a delete's toast: the restore, then a toast saying how it went. */
export function addUndoListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: undoRequested,
    effect: async ({ payload }, listenerApi) => {
      try {
        await listenerApi.dispatch(undoApi.endpoints.undoDelete.initiate(payload)).unwrap();
        listenerApi.dispatch(toastQueued(t('common.undone'), 'success'));
      } catch (error) {
        reportError(messages.client.undoContext, error);
      }
    },
  });
}
