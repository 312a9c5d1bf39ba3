import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Button } from '@mui/material';
import { useState } from 'react';
import type { ApiPathOf } from '@common/apiRoutes';
import type { DeletedItem } from '@common/schemas/versions';
import { reportError } from '@/api/errors';
import { useCan } from '@/auth/useCan';
import { useT } from '@/i18n/useT';
import type { HistoryFields } from '@/lib/versions';
import { RecentlyDeletedDialog } from './RecentlyDeletedDialog';
import { type VersionHistory, VersionHistoryDialog } from './VersionHistoryDialog';

/**
 * A resource's history, as its api file offers it: the versions of an item (by `Key`: its
 * id, or what its endpoints need), a restore, and the items deleted and not restored since.
 */
export interface HistoryEndpoints<Key, Item> {
  /** The item's versions, newest first, a page at a time (an infinite query hook). */
  useVersions(key: Key): VersionHistory;
  /** A restore of version `versionId` of an item, naming `current`: resolves the item. */
  useRestore(): (key: Key, versionId: string, current?: number) => Promise<Item>;
  /** The items deleted and not restored since (a query hook). */
  useDeleted(): { data?: DeletedItem[]; isLoading: boolean; isError: boolean };
  /** The key of a deleted item. */
  keyOfDeleted(item: DeletedItem): Key;
  /** The routes of the deleted list and of a restore, for what the user may do. */
  deletedPath: ApiPathOf<'GET'>;
  restorePath: ApiPathOf<'POST'>;
  /** The shared handler's context for a failed restore. */
  restoreContext: string;
  /** How the item's fields read in its history: labels, types, its own values. */
  fields?: HistoryFields;
}

interface ItemHistoryProps<Key, Item> {
  endpoints: HistoryEndpoints<Key, Item>;
  item: Key;
  title: string;
  onClose(): void;
  /** The restored item, for a screen that shows it (a form takes it). */
  onRestored?(item: Item): void;
}

/**
 * The endpoints' restore, for a user who may restore (else undefined): a failure is
 * reported with the resource's context, and resolves to undefined.
 */
function useRestore<Key, Item>(endpoints: HistoryEndpoints<Key, Item>) {
  const mayRestore = useCan('POST', endpoints.restorePath);
  const restore = endpoints.useRestore();
  if (!mayRestore) return undefined;
  return (key: Key, versionId: string, current?: number) =>
    restore(key, versionId, current).catch((error: unknown) => {
      reportError(endpoints.restoreContext, error);
      return undefined;
    });
}

/** One item's version history (`VersionHistoryDialog`), with Restore where the user may. */
export function ItemHistory<Key, Item>({
  endpoints,
  item,
  title,
  onClose,
  onRestored,
}: ItemHistoryProps<Key, Item>) {
  const history = endpoints.useVersions(item);
  const restore = useRestore(endpoints);
  return (
    <VersionHistoryDialog
      title={title}
      history={history}
      fields={endpoints.fields}
      onClose={onClose}
      onRestore={
        restore &&
        (async (version, current) => {
          const restored = await restore(item, version._id, current);
          if (restored) onRestored?.(restored);
        })
      }
    />
  );
}

function DeletedItems<Key, Item>({
  endpoints,
  title,
  nameOf,
  onClose,
}: {
  endpoints: HistoryEndpoints<Key, Item>;
  title: string;
  nameOf(item: DeletedItem): string;
  onClose(): void;
}) {
  const { data, isLoading, isError } = endpoints.useDeleted();
  const restore = useRestore(endpoints);
  return (
    <RecentlyDeletedDialog
      title={title}
      items={data}
      isLoading={isLoading}
      isError={isError}
      nameOf={nameOf}
      onClose={onClose}
      onRestore={
        restore &&
        (async (deleted) =>
          (await restore(endpoints.keyOfDeleted(deleted), deleted.versionId)) !== undefined)
      }
    />
  );
}

/**
 * "Recently deleted", for a user who may list them: opens the list (asked for only then),
 * each item with Restore; the focus comes back to the button when it closes.
 */
export function RecentlyDeleted<Key, Item>(props: {
  endpoints: HistoryEndpoints<Key, Item>;
  title: string;
  /** What a reader calls a deleted item: a book's title, an entity's name… */
  nameOf(item: DeletedItem): string;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!useCan('GET', props.endpoints.deletedPath)) return null;
  return (
    <>
      <Button startIcon={<RestoreFromTrashIcon />} onClick={() => setOpen(true)}>
        {t('history.recentlyDeleted')}
      </Button>
      {open && <DeletedItems {...props} onClose={() => setOpen(false)} />}
    </>
  );
}
