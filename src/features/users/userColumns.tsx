import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import LockResetIcon from '@mui/icons-material/LockReset';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import { Chip, Stack } from '@mui/material';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo } from 'react';
import type { User } from '@common/schemas/users';
import { LabelledEditCell } from '@/components/LabelledEditCell';
import { rowActionsColumn } from '@/components/rowActions';
import type { UserGridController } from './useUserGrid';

/** The user grid's columns: name and email (edited inline), roles, and the row's actions. */
export function useUserColumns(grid: UserGridController): GridColDef<User>[] {
  const { may, myId, askToDelete } = grid;
  const { isEditing, startEdit, saveEdit, cancelEdit } = grid.edit;
  const openPassword = grid.password.open;
  const askToResetFactors = grid.factorsReset.ask;
  return useMemo(
    () => [
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
        // What the quick search and an export read: the role names.
        valueGetter: (roles: User['roles']) => roles.map((role) => role.name).join(', '),
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', height: '100%' }}>
            {row.roles.map((role) => (
              <Chip key={role._id} label={role.name} size="small" />
            ))}
          </Stack>
        ),
      },
      rowActionsColumn<User>({
        width: 120 + (may.maySetPassword ? 40 : 0) + (may.mayResetFactors ? 40 : 0),
        isEditing: (row) => isEditing(row._id),
        saveLabel: (row) => `Save ${row.username}`,
        onSave: (row) => saveEdit(row._id),
        cancelLabel: (row) => `Cancel editing ${row.username}`,
        onCancel: (row) => cancelEdit(row._id),
        actions: [
          {
            icon: <EditIcon />,
            label: (row) => `Edit ${row.username}`,
            onClick: startEdit,
            shows: () => may.mayEdit,
          },
          {
            icon: <LockResetIcon />,
            label: (row) => `Set password for ${row.username}`,
            onClick: openPassword,
            shows: (row) => may.maySetPassword && row._id !== myId,
          },
          {
            icon: <PhonelinkEraseIcon />,
            label: (row) => `Reset second factors of ${row.username}`,
            onClick: askToResetFactors,
            // One's own are changed on the Security page, with a code.
            shows: (row) => may.mayResetFactors && row._id !== myId,
          },
          {
            icon: <DeleteIcon />,
            label: (row) => `Delete ${row.username}`,
            onClick: askToDelete,
            shows: () => may.mayDelete,
          },
        ],
      }),
    ],
    [
      may,
      myId,
      askToDelete,
      isEditing,
      startEdit,
      saveEdit,
      cancelEdit,
      openPassword,
      askToResetFactors,
    ],
  );
}
