import {
  type GridApi,
  type GridFilterModel,
  type GridSortModel,
  useGridApiRef,
} from '@mui/x-data-grid';
import { type RefObject, useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ADMIN_USERNAME } from '@common/constants';
import { messages } from '@common/messages';
import type { User } from '@common/schemas/users';
import { useCan } from '@/auth/useCan';
import { selectCurrentUser } from '@/auth/auth.slice';
import { shownColumnsOf } from '@/components/ExportMenu';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useQuickSearch, wordsOf } from '@/hooks/useQuickSearch';
import { useRowSelection } from '@/hooks/useRowSelection';
import { useRuleRefusal } from '@/hooks/useRuleRefusal';
import { reportError } from '@/api/errors';
import { useVersionedRowEdit } from '@/hooks/useVersionedRowEdit';
import { focusGridHeading } from '@/lib/gridFocus';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import {
  undoUsersDelete,
  useBulkDeleteUsersMutation,
  useDeleteUserMutation,
  useResetSecondFactorMutation,
  useUpdateUserMutation,
} from './users.api';
import { t, undoable } from '@/i18n/useT';

/** What a row's edit changes. */
type UserValues = Pick<User, 'username' | 'email'>;
const valuesOf = ({ username, email }: User): UserValues => ({ username, email });

/** What the signed-in user may do to users, from the permissions call. */
function useUserPermissions() {
  const mayEdit = useCan('PUT', '/api/users/:id');
  const mayDelete = useCan('DELETE', '/api/users/:id');
  const maySetPassword = useCan('PUT', '/api/users/:id/password');
  const mayResetFactors = useCan('DELETE', '/api/users/:id/second-factor');
  const mayRestore = useCan('POST', '/api/users/bulk-restore');
  return useMemo(
    () => ({ mayEdit, mayDelete, maySetPassword, mayResetFactors, mayRestore }),
    [mayEdit, mayDelete, maySetPassword, mayResetFactors, mayRestore],
  );
}

const USER_SORTS = ['username', 'email'] as const;

/**
 * The user list's view in the URL: the quick search (`q`, every word in the username, email
 * or role names, as the grid's quick filter matches) and the sort (`sort=email:desc`), which
 * an export takes too, with the columns on screen.
 */
function useUserList(apiRef: RefObject<GridApi | null>) {
  const search = useQuickSearch();
  const [params, setParams] = useSearchParams();
  const [field, direction] = (params.get('sort') ?? '').split(':');
  const sort =
    USER_SORTS.includes(field as (typeof USER_SORTS)[number]) &&
    (direction === 'asc' || direction === 'desc')
      ? `${field}:${direction}`
      : undefined;
  const sortModel = useMemo<GridSortModel>(() => {
    const [by, order] = (sort ?? '').split(':');
    return by ? [{ field: by, sort: order as 'asc' | 'desc' }] : [];
  }, [sort]);
  const filterModel = useMemo<GridFilterModel>(
    () => ({ items: [], quickFilterValues: wordsOf(search.q) }),
    [search.q],
  );
  const shownColumns = useMemo(
    () => shownColumnsOf(apiRef, (field) => (field === 'actions' ? undefined : field)),
    [apiRef],
  );
  return {
    search,
    exportParams: { q: search.q, sort },
    shownColumns,
    gridProps: {
      sortModel,
      onSortModelChange: (model: GridSortModel) =>
        setParams((current) => {
          const next = new URLSearchParams(current);
          const [first] = model;
          if (first?.sort) next.set('sort', `${first.field}:${first.sort}`);
          else next.delete('sort');
          return next;
        }),
      filterModel,
      // The quick search is the users' filter: what an export of them takes.
      disableColumnFilter: true,
    },
  };
}

/** Whether a user is one the quick search keeps, by the grid's rule (username, email, roles). */
const matches = (user: User, words: string[]) => {
  const text = [user.username, user.email ?? '', ...user.roles.map((r) => r.name)]
    .join('\n')
    .toLowerCase();
  return words.every((word) => text.includes(word.toLowerCase()));
};

/**
 * Deleting many users at once: the rows ticked (among those the search keeps; another
 * search clears them), one request, refused whole with a reason per user.
 */
function useUserBulk(
  users: User[],
  q: string,
  refusal: ReturnType<typeof useRuleRefusal>,
  apiRef: RefObject<GridApi | null>,
) {
  const mayDelete = useCan('DELETE', '/api/users/:id');
  const mayRestore = useCan('POST', '/api/users/bulk-restore');
  const myId = useAppSelector(selectCurrentUser)?._id;
  const dispatch = useAppDispatch();
  const [bulkDelete] = useBulkDeleteUsersMutation();
  const [asking, setAsking] = useState(false);
  // The user named admin is never deleted, nor one's own account (see userColumns): not
  // offered for selection either.
  const isSelectable = useCallback(
    (user: User) => user.username !== ADMIN_USERNAME && user._id !== myId,
    [myId],
  );
  const shown = useMemo(() => {
    const words = wordsOf(q);
    return users
      .filter((user) => isSelectable(user) && matches(user, words))
      .map((user) => user._id);
  }, [users, q, isSelectable]);
  const selection = useRowSelection({
    viewKey: q,
    total: shown.length,
    pageIds: shown,
    mayWidenToAll: false,
  });
  const nameOf = (id: string) =>
    t('users.nameOf', { name: users.find((user) => user._id === id)?.username ?? id });

  async function remove() {
    setAsking(false);
    refusal.clear();
    try {
      const { ids } = await bulkDelete(selection.ids).unwrap();
      selection.clear();
      focusGridHeading(apiRef);
      const deleted = t('users.bulkDeleted', { count: ids.length });
      dispatch(
        mayRestore ? undoOffered(deleted, undoUsersDelete(ids)) : toastQueued(deleted, 'success'),
      );
    } catch (error) {
      refusal.explain(error, nameOf);
      reportError(messages.users.deleteContext, error);
    }
  }

  return {
    mayDelete,
    selection,
    isSelectable,
    asking,
    ask: () => setAsking(true),
    cancel: () => setAsking(false),
    remove,
    question: undoable(t('users.bulkDeleteQuestion', { count: selection.count }), mayRestore),
  };
}

/**
 * The user grid's controller: the users as rows, edited inline on the one edit machine,
 * deleted after confirmation (never `admin`, refused in the browser as the spec says), and
 * an administrator's password reset. A refusal that states a rule stays in the page.
 */
export function useUserGrid(users: User[]) {
  const may = useUserPermissions();
  const [updateUser] = useUpdateUserMutation();
  const [deleteUser] = useDeleteUserMutation();
  const [resetSecondFactor] = useResetSecondFactorMutation();
  const dispatch = useAppDispatch();
  const apiRef = useGridApiRef();
  // Setting one's own password ends one's own sessions: never offered on one's own row.
  const myId = useAppSelector(selectCurrentUser)?._id;
  const [passwordFor, setPasswordFor] = useState<User>();
  const refusal = useRuleRefusal();

  const edit = useVersionedRowEdit<User, UserValues>({
    resource: 'users',
    rows: users,
    apiRef,
    fieldToFocus: 'username',
    errorContext: messages.users.editContext,
    valuesOf,
    send: (id, values, version) => {
      refusal.clear();
      return updateUser({ id, ...values, _version: version }).unwrap();
    },
    onSaved: (user) => dispatch(toastQueued(t('users.saved', { name: user.username }), 'success')),
    onFailed: refusal.explain,
  });

  /** A user as a sentence names them: by the name the edit started from, if one is open. */
  const nameOf = useCallback(
    (id: string) =>
      t('users.nameOf', {
        name:
          edit.bases[id]?.values.username ?? users.find((user) => user._id === id)?.username ?? '',
      }),
    [edit.bases, users],
  );

  const removal = useConfirmedAction(async (user: User) => {
    // The keyboard goes on to the next user (or the one before), not to the top of the page.
    const rowIds = apiRef.current?.getSortedRowIds() ?? [];
    const index = rowIds.indexOf(user._id);
    const neighbour = rowIds[index + 1] ?? rowIds[index - 1];
    refusal.clear();
    try {
      await deleteUser(user._id).unwrap();
    } catch (error) {
      refusal.explain(error);
      throw error;
    }
    const deleted = t('users.deleted', { name: user.username });
    dispatch(
      may.mayRestore && user._id !== myId
        ? undoOffered(deleted, undoUsersDelete([user._id]))
        : toastQueued(deleted, 'success'),
    );
    if (neighbour !== undefined) apiRef.current?.setCellFocus(neighbour, 'username');
  }, messages.users.deleteContext);

  const factorsReset = useConfirmedAction(async (user: User) => {
    await resetSecondFactor(user._id).unwrap();
    dispatch(toastQueued(t('users.factorsReset', { name: user.username }), 'success'));
  }, messages.users.resetFactorsContext);

  const { ask } = removal;
  const askToDelete = useCallback(
    (user: User) => {
      if (user.username === ADMIN_USERNAME) {
        console.log(messages.users.cannotDeleteAdmin);
        dispatch(toastQueued(t('users.cannotDeleteAdmin'), 'warning'));
        return;
      }
      ask(user);
    },
    [ask, dispatch],
  );

  const list = useUserList(apiRef);
  const bulk = useUserBulk(users, list.search.q, refusal, apiRef);

  return {
    may,
    apiRef,
    list,
    bulk,
    edit,
    myId,
    nameOf,
    removal,
    askToDelete,
    refusal,
    password: { for: passwordFor, open: setPasswordFor, close: () => setPasswordFor(undefined) },
    factorsReset,
  };
}

export type UserGridController = ReturnType<typeof useUserGrid>;
