import CancelIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import LockResetIcon from '@mui/icons-material/LockReset';
import SaveIcon from '@mui/icons-material/Save';
import { Box, Chip, Stack, Typography } from '@mui/material';
import {
  DataGrid,
  GridActionsCell,
  GridActionsCellItem,
  type GridColDef,
  type GridRowId,
  type GridRowModesModel,
  GridRowModes,
  useGridApiRef,
} from '@mui/x-data-grid';
import { useState } from 'react';
import { ADMIN_USERNAME } from '@common/constants';
import { messages } from '@common/messages';
import type { User } from '@common/schemas/users';
import { conflictCurrent, reportError } from '@/api/errors';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { selectCurrentUser } from '@/auth/auth.slice';
import { useCan } from '@/auth/useCan';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ChangedMeanwhileAlert } from '@/components/ChangedMeanwhileAlert';
import { ConflictDialog } from '@/components/ConflictDialog';
import { ListPage } from '@/components/ListPage';
import { QueryState } from '@/components/QueryState';
import { useChangedMeanwhile } from '@/hooks/useChangedMeanwhile';
import { useEditBases } from '@/hooks/useEditBases';
import { useGridFocusRelease } from '@/hooks/useGridFocusRelease';
import { useAnnounceEditing, useEditors } from '@/hooks/usePresence';
import { useReportedError } from '@/hooks/useReportedError';
import { LabelledEditCell } from '@/components/LabelledEditCell';
import { useRuleRefusal } from '@/hooks/useRuleRefusal';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useRowEditHint } from '@/hooks/useRowEditHint';
import { toastQueued } from '@/ui/ui.slice';
import { SetPasswordDialog } from './SetPasswordDialog';
import { useDeleteUserMutation, useListUsersQuery, useUpdateUserMutation } from './users.api';

/** The users grid, with the row actions the user may take. */
function UserGrid({ mayAdd }: { mayAdd: boolean }) {
  const usersQuery = useListUsersQuery();
  const [updateUser] = useUpdateUserMutation();
  const [deleteUser] = useDeleteUserMutation();
  const [rowModes, setRowModes] = useState<GridRowModesModel>({});
  const [passwordFor, setPasswordFor] = useState<User>();
  const canSetPassword = useCan('PUT', '/api/users/:id/password');
  // Setting one's own password ends one's own sessions: never offered on one's own row.
  const myId = useAppSelector(selectCurrentUser)?._id;
  const dispatch = useAppDispatch();
  const mayEdit = useCan('PUT', '/api/users/:id');
  const mayDelete = useCan('DELETE', '/api/users/:id');
  const { explain, clear: clearRefusal, alert: refusalAlert } = useRuleRefusal();
  const apiRef = useGridApiRef();
  const releaseGridFocus = useGridFocusRelease(apiRef);

  useReportedError(messages.users.fetchContext, usersQuery.error);

  const setMode = (id: GridRowId, mode: GridRowModesModel[GridRowId]) =>
    setRowModes((current) => ({ ...current, [id]: mode }));

  // What each row's edit started from; a save over a newer version opens the dialog.
  const { bases, remember, rebase, forget } = useEditBases<User>();
  const [conflict, setConflict] = useState<{ base: User; mine: User; theirs: User }>();
  const startEdit = (user: User) => {
    remember(user._id, user);
    setMode(user._id, { mode: GridRowModes.Edit, fieldToFocus: 'username' });
  };
  const endEdit = (id: string) => {
    forget(id);
    setMode(id, { mode: GridRowModes.View, ignoreModifications: true });
  };
  const editingId = Object.keys(rowModes).find((id) => rowModes[id]?.mode === GridRowModes.Edit);
  useAnnounceEditing(editingId ? { resource: 'users', id: editingId } : undefined);
  const editors = useEditors('users');
  const changedMeanwhile = useChangedMeanwhile(
    'users',
    editingId,
    editingId ? bases[editingId]?._version : undefined,
  );
  /** The row being edited against its newest version, as a save would meet it. */
  const review = () => {
    const base = editingId ? bases[editingId] : undefined;
    const theirs = usersQuery.data?.find((user) => user._id === editingId);
    if (!editingId || !base || !theirs) return;
    const mine = apiRef.current?.getRowWithUpdatedValues(editingId, '') as User | undefined;
    setConflict({ base, mine: mine ?? base, theirs });
  };
  const nameOf = (id: string) =>
    usersQuery.data?.find((user) => user._id === id)?.username ?? 'a user';

  function askToDelete(user: User) {
    if (user.username === ADMIN_USERNAME) {
      console.log(messages.users.cannotDeleteAdmin);
      dispatch(toastQueued(messages.users.cannotDeleteAdmin, 'warning'));
      return;
    }
    removal.ask(user);
  }

  /** Saves the row's name and email over version `version`, and says so. */
  async function send(row: User, version: number): Promise<User> {
    const updated = await updateUser({
      id: row._id,
      username: row.username,
      email: row.email,
      _version: version,
    }).unwrap();
    dispatch(toastQueued(`Saved ${updated.username}`, 'success'));
    return updated;
  }

  async function saveRow(row: User, previous: User): Promise<User> {
    if (row.username === previous.username && row.email === previous.email) return row;
    clearRefusal();
    const base = bases[row._id] ?? previous;
    try {
      const updated = await send(row, base._version);
      forget(row._id);
      return updated;
    } catch (failure) {
      const theirs = conflictCurrent<User>(failure);
      if (theirs) setConflict({ base, mine: row, theirs });
      throw failure;
    }
  }

  async function applyMine(mine: User, theirs: User) {
    try {
      await send(mine, theirs._version);
      endEdit(mine._id);
      setConflict(undefined);
    } catch (failure) {
      const current = conflictCurrent<User>(failure);
      if (current) setConflict((open) => open && { ...open, theirs: current });
      else {
        explain(failure);
        reportError(messages.users.editContext, failure);
      }
    }
  }

  const columns: GridColDef<User>[] = [
    {
      field: 'username',
      headerName: 'Username',
      flex: 1,
      minWidth: 160,
      editable: true,
      renderEditCell: LabelledEditCell,
    },
    {
      field: 'email',
      headerName: 'Email',
      flex: 1,
      minWidth: 200,
      editable: true,
      renderEditCell: LabelledEditCell,
    },
    {
      field: 'roles',
      headerName: 'Roles',
      flex: 1,
      minWidth: 200,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
          {row.roles.map((role) => (
            <Chip key={role._id} label={role.name} size="small" />
          ))}
        </Stack>
      ),
    },
    {
      field: 'actions',
      type: 'actions',
      headerName: 'Actions',
      width: canSetPassword ? 160 : 120,
      getActions: () => [],
      renderCell: (params) => {
        const { id, row } = params;
        const editing = rowModes[id]?.mode === GridRowModes.Edit;
        return (
          <GridActionsCell {...params}>
            {editing ? (
              <>
                <GridActionsCellItem
                  icon={<SaveIcon />}
                  label={`Save ${row.username}`}
                  onClick={() => setMode(id, { mode: GridRowModes.View })}
                />
                <GridActionsCellItem
                  icon={<CancelIcon />}
                  label={`Cancel editing ${row.username}`}
                  onClick={() => endEdit(row._id)}
                />
              </>
            ) : (
              <>
                {mayEdit && (
                  <GridActionsCellItem
                    icon={<EditIcon />}
                    label={`Edit ${row.username}`}
                    onClick={() => startEdit(row)}
                  />
                )}
                {canSetPassword && row._id !== myId && (
                  <GridActionsCellItem
                    icon={<LockResetIcon />}
                    label={`Set password for ${row.username}`}
                    onClick={() => setPasswordFor(row)}
                  />
                )}
                {mayDelete && (
                  <GridActionsCellItem
                    icon={<DeleteIcon />}
                    label={`Delete ${row.username}`}
                    onClick={() => askToDelete(row)}
                  />
                )}
              </>
            )}
          </GridActionsCell>
        );
      },
    },
  ];

  const rowEditHint = useRowEditHint(mayEdit);

  const removal = useConfirmedAction(async (user: User) => {
    // The keyboard goes on to the next user (or the one before), not to the top of the page.
    const rowIds = apiRef.current?.getSortedRowIds() ?? [];
    const index = rowIds.indexOf(user._id);
    const neighbour = rowIds[index + 1] ?? rowIds[index - 1];
    clearRefusal();
    try {
      await deleteUser(user._id).unwrap();
    } catch (error) {
      explain(error);
      throw error;
    }
    dispatch(toastQueued(`Deleted ${user.username}`, 'success'));
    if (neighbour !== undefined) apiRef.current?.setCellFocus(neighbour, 'username');
  }, messages.users.deleteContext);

  return (
    <>
      {refusalAlert}
      {/* The first load shows the shared bar; a refetch, the grid's own overlay. */}
      <QueryState
        query={usersQuery}
        what="users"
        empty="No users yet"
        emptyAction={mayAdd ? { label: 'Add one', to: '/users/add' } : undefined}
      >
        {(users) => (
          <Box sx={{ height: 560 }} onBlur={releaseGridFocus}>
            <DataGrid
              apiRef={apiRef}
              aria-label="Users"
              rows={users}
              columns={columns}
              getRowId={(row) => row._id}
              loading={usersQuery.isFetching}
              editMode="row"
              isCellEditable={() => mayEdit}
              rowModesModel={rowModes}
              onRowModesModelChange={(next) => {
                // An edit the grid starts itself (double click) starts from the row as shown.
                for (const [id, mode] of Object.entries(next)) {
                  const row = users.find((user) => user._id === id);
                  if (mode.mode === GridRowModes.Edit && row) remember(id, row);
                }
                setRowModes(next);
              }}
              processRowUpdate={saveRow}
              onProcessRowUpdateError={(failure) => {
                // A conflict is not a fault: the ConflictDialog shows it.
                if (conflictCurrent(failure)) return;
                explain(failure);
                reportError(messages.users.editContext, failure);
              }}
              slotProps={rowEditHint.slotProps}
              disableRowSelectionOnClick
            />
          </Box>
        )}
      </QueryState>
      {rowEditHint.hint}
      {changedMeanwhile && editingId && (
        <Box sx={{ mt: 2 }}>
          <ChangedMeanwhileAlert
            by={changedMeanwhile.actor}
            what={nameOf(editingId)}
            onReview={review}
          />
        </Box>
      )}
      {Object.keys(editors).length > 0 && (
        <Box role="status">
          {Object.entries(editors).map(([id, names]) => (
            <Typography key={id} variant="body2" color="text.secondary">
              {names.join(', ')} {names.length === 1 ? 'is' : 'are'} editing {nameOf(id)}.
            </Typography>
          ))}
        </Box>
      )}
      {conflict && (
        <ConflictDialog
          what={`the user ${conflict.base.username}`}
          base={{ username: conflict.base.username, email: conflict.base.email }}
          theirs={{ username: conflict.theirs.username, email: conflict.theirs.email }}
          mine={{ username: conflict.mine.username, email: conflict.mine.email }}
          labelOf={(field) => (field === 'username' ? 'Username' : 'Email')}
          onKeepTheirs={() => {
            endEdit(conflict.mine._id);
            setConflict(undefined);
          }}
          onEditFurther={() => {
            rebase(conflict.mine._id, conflict.theirs);
            setConflict(undefined);
          }}
          onApplyMine={() => void applyMine(conflict.mine, conflict.theirs)}
        />
      )}
      <ConfirmDialog
        {...removal.dialog}
        title="Delete user"
        message={`Delete ${removal.pending?.username ?? ''}? This cannot be undone.`}
      />
      {passwordFor && (
        <SetPasswordDialog user={passwordFor} onClose={() => setPasswordFor(undefined)} />
      )}
    </>
  );
}

/** `/users`: the users, edited inline row by row, deleted after confirmation. */
export function UsersPage() {
  return (
    <ListPage
      title="Users"
      read={{ path: '/api/users', what: 'reading the users' }}
      add={{ label: 'Add User', to: '/users/add', path: '/api/users' }}
    >
      {(mayAdd) => <UserGrid mayAdd={mayAdd} />}
    </ListPage>
  );
}
