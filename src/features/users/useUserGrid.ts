import { useGridApiRef } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { ADMIN_USERNAME } from '@common/constants';
import { messages } from '@common/messages';
import type { User } from '@common/schemas/users';
import { useCan } from '@/auth/useCan';
import { selectCurrentUser } from '@/auth/auth.slice';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useRuleRefusal } from '@/hooks/useRuleRefusal';
import { useVersionedRowEdit } from '@/hooks/useVersionedRowEdit';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';
import { useDeleteUserMutation, useUpdateUserMutation } from './users.api';

/** What a row's edit changes. */
type UserValues = Pick<User, 'username' | 'email'>;
const valuesOf = ({ username, email }: User): UserValues => ({ username, email });

/** What the signed-in user may do to users, from the permissions call. */
function useUserPermissions() {
  const mayEdit = useCan('PUT', '/api/users/:id');
  const mayDelete = useCan('DELETE', '/api/users/:id');
  const maySetPassword = useCan('PUT', '/api/users/:id/password');
  return useMemo(
    () => ({ mayEdit, mayDelete, maySetPassword }),
    [mayEdit, mayDelete, maySetPassword],
  );
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
    onSaved: (user) => dispatch(toastQueued(`Saved ${user.username}`, 'success')),
    onFailed: refusal.explain,
  });

  /** A user as a sentence names them: by the name the edit started from, if one is open. */
  const nameOf = useCallback(
    (id: string) =>
      `the user ${edit.bases[id]?.values.username ?? users.find((user) => user._id === id)?.username ?? ''}`,
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
    dispatch(toastQueued(`Deleted ${user.username}`, 'success'));
    if (neighbour !== undefined) apiRef.current?.setCellFocus(neighbour, 'username');
  }, messages.users.deleteContext);

  const { ask } = removal;
  const askToDelete = useCallback(
    (user: User) => {
      if (user.username === ADMIN_USERNAME) {
        console.log(messages.users.cannotDeleteAdmin);
        dispatch(toastQueued(messages.users.cannotDeleteAdmin, 'warning'));
        return;
      }
      ask(user);
    },
    [ask, dispatch],
  );

  return {
    may,
    apiRef,
    edit,
    myId,
    nameOf,
    removal,
    askToDelete,
    refusal,
    password: { for: passwordFor, open: setPasswordFor, close: () => setPasswordFor(undefined) },
  };
}

export type UserGridController = ReturnType<typeof useUserGrid>;
