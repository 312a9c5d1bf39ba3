import type { GridApi } from '@mui/x-data-grid';
import { type RefObject, useState } from 'react';
import { BULK_MAX_ITEMS } from '@common/constants';
import { messages } from '@common/messages';
import type { Entity, RecordPage, RecordSelection } from '@common/schemas/entities';
import type { FieldValue } from '@common/schemas/fieldValues';
import { reportError } from '@/api/errors';
import { useCan } from '@/auth/useCan';
import type { RecordPolicy } from './useRecordPolicy';
import { useRowSelection } from '@/hooks/useRowSelection';
import { useRuleRefusal } from '@/hooks/useRuleRefusal';
import { focusGridHeading } from '@/lib/gridFocus';
import { useAppDispatch } from '@/lib/store';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import { bulkSettable } from './BulkSetDialog';
import {
  undoRecordsDelete,
  useBulkDeleteRecordsMutation,
  useBulkUpdateRecordsMutation,
} from './records.api';
import type { RecordListController } from './useRecordList';
import { undoable, useT } from '@/i18n/useT';

/**
 * The record grid's actions on many rows (ra-core's bulk actions): the selection (ticked
 * rows, or all the search and filter match), a delete with Undo, and "Set a field". Each is
 * one request and one transaction, offered only to whoever may do it to one record; a
 * refusal names each record refused and why.
 */
export function useRecordBulk(
  entity: Entity,
  list: RecordListController,
  page: RecordPage,
  /** A record of the page as a sentence names it: `the record «Car»`. */
  nameOfShown: (id: string) => string,
  apiRef: RefObject<GridApi | null>,
  policy: RecordPolicy,
) {
  const t = useT();
  const mayDelete = useCan('DELETE', '/api/entity-records/:entityName/:id');
  const mayUpdate = useCan('PUT', '/api/entity-records/:entityName/:id');
  const mayRestore = useCan(
    'POST',
    '/api/entity-records/:entityName/:id/versions/:versionId/restore',
  );
  // A field the policies keep the user from setting on a record is not offered for many.
  const settable = bulkSettable(entity.fields).filter((field) =>
    policy.maySet({ values: {} }, field.name),
  );
  const { q, filter } = list.view;
  const selection = useRowSelection({
    viewKey: JSON.stringify([q, filter]),
    total: page.total,
    pageIds: page.records.map((record) => record._id),
    // An estimated total, or one past what one request may change, cannot be taken whole.
    mayWidenToAll: !page.totalIsEstimate && page.total <= BULK_MAX_ITEMS,
  });
  const [bulkDelete] = useBulkDeleteRecordsMutation();
  const [bulkUpdate] = useBulkUpdateRecordsMutation();
  const dispatch = useAppDispatch();
  const refusal = useRuleRefusal();
  const [asking, setAsking] = useState<'delete' | 'set'>();
  const entityName = entity.name;

  /** The selection as the server takes it: the ids, or the list's search and filter. */
  const chosen = (): RecordSelection => {
    if (!selection.allMatching) return { ids: selection.ids };
    const { sort: _sort, ...matching } = list.exportParams;
    return { matching: Object.fromEntries(Object.entries(matching).filter(([, v]) => v)) };
  };
  // A refused record on another page is named by its id (its values are not loaded).
  const nameOf = (id: string) =>
    page.records.some((record) => record._id === id)
      ? nameOfShown(id)
      : t('records.theRecordId', { id });

  async function run(action: () => Promise<void>, context: string) {
    setAsking(undefined);
    refusal.clear();
    try {
      await action();
      selection.clear();
      focusGridHeading(apiRef);
    } catch (error) {
      refusal.explain(error, nameOf);
      reportError(context, error);
    }
  }

  const remove = () =>
    run(async () => {
      const { ids } = await bulkDelete({ entityName, selection: chosen() }).unwrap();
      const deleted = t('records.deleted', { count: ids.length });
      dispatch(
        mayRestore
          ? undoOffered(deleted, undoRecordsDelete(entityName, ids))
          : toastQueued(deleted, 'success'),
      );
    }, messages.records.deleteContext);

  const set = (name: string, value: FieldValue | null) =>
    run(async () => {
      const { ids } = await bulkUpdate({
        entityName,
        selection: chosen(),
        fields: { [name]: value },
      }).unwrap();
      const label = entity.fields.find((field) => field.name === name)?.label || name;
      dispatch(toastQueued(t('records.setOn', { label, count: ids.length }), 'success'));
    }, messages.records.saveContext);

  return {
    selection,
    refusal: refusal.alert,
    /** Selection is offered only to whoever may act on what is selected. */
    mayAct: mayDelete || (mayUpdate && settable.length > 0),
    mayDelete,
    maySet: mayUpdate && settable.length > 0,
    settable,
    asking,
    ask: setAsking,
    cancel: () => setAsking(undefined),
    remove,
    set,
    deleteQuestion: undoable(t('records.deleteQuestion', { count: selection.count }), mayRestore),
  };
}

export type RecordBulkController = ReturnType<typeof useRecordBulk>;
