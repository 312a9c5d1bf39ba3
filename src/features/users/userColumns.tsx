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
import { useT } from '@/i18n/useT';
import type { UserGridController } from './useUserGrid';

/** The user grid's columns: name and email (edited inline), roles, and the row's actions. */
export function useUserColumns(grid: UserGridController): GridColDef<User>[] {
  const { may, myId, askToDelete } = grid;
  const { isEditing, startEdit, saveEdit, cancelEdit } = grid.edit;
  const openPassword = grid.password.open;
  const askToResetFactors = grid.factorsReset.ask;
  const t = useT();
  return useMemo(
    () => [
      {
        field: 'username',
        headerName: t('users.fieldUsername'),
        flex: 1,
        minWidth: 160,
        editable: true,
        renderEditCell: LabelledEditCell,
      },
      {
        field: 'email',
        headerName: t('users.fieldEmail'),
        flex: 1,
        minWidth: 200,
        editable: true,
        renderEditCell: LabelledEditCell,
      },
      {
        field: 'roles',
        headerName: t('users.fieldRoles'),
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
        saveLabel: (row) => t('users.saveRow', { name: row.username }),
        onSave: (row) => saveEdit(row._id),
        cancelLabel: (row) => t('users.cancelRow', { name: row.username }),
        onCancel: (row) => cancelEdit(row._id),
        actions: [
          {
            icon: <EditIcon />,
            label: (row) => t('users.editRow', { name: row.username }),
            onClick: startEdit,
            shows: () => may.mayEdit,
          },
          {
            icon: <LockResetIcon />,
            label: (row) => t('users.setPasswordFor', { name: row.username }),
            onClick: openPassword,
            shows: (row) => may.maySetPassword && row._id !== myId,
          },
          {
            icon: <PhonelinkEraseIcon />,
            label: (row) => t('users.resetRow', { name: row.username }),
            onClick: askToResetFactors,
            // One's own are changed on the Security page, with a code.
            shows: (row) => may.mayResetFactors && row._id !== myId,
          },
          {
            icon: <DeleteIcon />,
            label: (row) => t('users.deleteRow', { name: row.username }),
            onClick: askToDelete,
            shows: () => may.mayDelete,
          },
        ],
      }),
    ],
    [
      t,
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
