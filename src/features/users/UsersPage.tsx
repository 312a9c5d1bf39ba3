import AddIcon from '@mui/icons-material/Add';
import CancelIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import LockResetIcon from '@mui/icons-material/LockReset';
import SaveIcon from '@mui/icons-material/Save';
import { Alert, Box, Button, Chip, Stack } from '@mui/material';
import {
  DataGrid,
  GridActionsCell,
  GridActionsCellItem,
  type GridColDef,
  type GridRowId,
  type GridRowModesModel,
  GridRowModes,
} from '@mui/x-data-grid';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ADMIN_USERNAME } from '@common/constants';
import { messages } from '@common/messages';
import type { User } from '@common/schemas/users';
import { isRequestCanceled, reportError } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { useCan } from '@/auth/useCan';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { useReportedError } from '@/hooks/useReportedError';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { toastQueued } from '@/ui/ui.slice';
import { SetPasswordDialog } from './SetPasswordDialog';
import { useDeleteUserMutation, useListUsersQuery, useUpdateUserMutation } from './users.api';

/** `/users`: the users, edited inline row by row, deleted after confirmation. */
export function UsersPage() {
  const { data: users = [], error, isLoading } = useListUsersQuery();
  const [updateUser] = useUpdateUserMutation();
  const [deleteUser] = useDeleteUserMutation();
  const [rowModes, setRowModes] = useState<GridRowModesModel>({});
  const [passwordFor, setPasswordFor] = useState<User>();
  const canSetPassword = useCan('PUT', '/api/users/:id/password');
  const dispatch = useAppDispatch();

  useReportedError(messages.users.fetchContext, error);

  const setMode = (id: GridRowId, mode: GridRowModesModel[GridRowId]) =>
    setRowModes((current) => ({ ...current, [id]: mode }));

  function askToDelete(user: User) {
    if (user.username === ADMIN_USERNAME) {
      console.log(messages.users.cannotDeleteAdmin);
      return;
    }
    removal.ask(user);
  }

  async function saveRow(row: User, previous: User): Promise<User> {
    if (row.username === previous.username && row.email === previous.email) return row;
    const updated = await updateUser({
      id: row._id,
      username: row.username,
      email: row.email,
    }).unwrap();
    dispatch(toastQueued(`Saved ${updated.username}`, 'success'));
    return updated;
  }

  const columns: GridColDef<User>[] = [
    { field: 'username', headerName: 'Username', flex: 1, minWidth: 160, editable: true },
    { field: 'email', headerName: 'Email', flex: 1, minWidth: 200, editable: true },
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
                  onClick={() =>
                    setMode(id, { mode: GridRowModes.View, ignoreModifications: true })
                  }
                />
              </>
            ) : (
              <>
                <GridActionsCellItem
                  icon={<EditIcon />}
                  label={`Edit ${row.username}`}
                  onClick={() => setMode(id, { mode: GridRowModes.Edit, fieldToFocus: 'username' })}
                />
                {canSetPassword && (
                  <GridActionsCellItem
                    icon={<LockResetIcon />}
                    label={`Set password for ${row.username}`}
                    onClick={() => setPasswordFor(row)}
                  />
                )}
                <GridActionsCellItem
                  icon={<DeleteIcon />}
                  label={`Delete ${row.username}`}
                  onClick={() => askToDelete(row)}
                />
              </>
            )}
          </GridActionsCell>
        );
      },
    },
  ];

  const removal = useConfirmedAction(async (user: User) => {
    await deleteUser(user._id).unwrap();
    dispatch(toastQueued(`Deleted ${user.username}`, 'success'));
  }, messages.users.deleteContext);

  return (
    <Box>
      <PageHeader title="Users">
        <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/users/add">
          Add User
        </Button>
      </PageHeader>
      {error && !isRequestCanceled(error) && (
        <Alert severity="error" sx={{ mb: 2 }}>
          The users could not be loaded.
        </Alert>
      )}
      <Box sx={{ height: 560 }}>
        <DataGrid
          aria-label="Users"
          rows={users}
          columns={columns}
          getRowId={(row) => row._id}
          loading={isLoading}
          editMode="row"
          rowModesModel={rowModes}
          onRowModesModelChange={setRowModes}
          processRowUpdate={saveRow}
          onProcessRowUpdateError={(failure) => reportError(messages.users.editContext, failure)}
          disableRowSelectionOnClick
        />
      </Box>
      <ConfirmDialog
        {...removal.dialog}
        title="Delete user"
        message={`Delete ${removal.pending?.username ?? ''}? This cannot be undone.`}
      />
      {passwordFor && (
        <SetPasswordDialog user={passwordFor} onClose={() => setPasswordFor(undefined)} />
      )}
    </Box>
  );
}
