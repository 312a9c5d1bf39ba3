import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import { Box, Button, IconButton, List, ListItem, ListItemText, Paper } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import type { Role } from '@common/schemas/roles';
import { useListRolesQuery } from '@/api/roles.api';
import { useAppDispatch } from '@/app/hooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { toastQueued } from '@/ui/ui.slice';
import { useDeleteRoleMutation } from './roles.api';

/** `/roles`: the roles, each with edit (its users) and delete, and Add Role. */
export function RolesPage() {
  const rolesQuery = useListRolesQuery();
  const [deleteRole] = useDeleteRoleMutation();
  const dispatch = useAppDispatch();

  useReportedError(messages.roles.fetchContext, rolesQuery.error);

  const removal = useConfirmedAction(async (role: Role) => {
    await deleteRole(role._id).unwrap();
    dispatch(toastQueued(`Deleted the role ${role.name}`, 'success'));
  }, messages.roles.deleteContext);

  return (
    <Box>
      <PageHeader title="Roles">
        <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/role">
          Add Role
        </Button>
      </PageHeader>
      <QueryState
        query={rolesQuery}
        what="roles"
        empty="No roles yet"
        emptyAction={{ label: 'Add one', to: '/role' }}
      >
        {(roles) => (
          <Paper sx={{ maxWidth: 560 }}>
            <List aria-label="Roles">
              {roles.map((role) => (
                <ListItem
                  key={role._id}
                  divider
                  secondaryAction={
                    <>
                      <IconButton
                        component={RouterLink}
                        to={`/role/${role._id}/edit`}
                        aria-label={`Edit ${role.name}`}
                      >
                        <EditIcon />
                      </IconButton>
                      <IconButton
                        edge="end"
                        aria-label={`Delete ${role.name}`}
                        disabled={role.name === ADMIN_ROLE}
                        onClick={() => removal.ask(role)}
                      >
                        <DeleteIcon />
                      </IconButton>
                    </>
                  }
                >
                  <ListItemText primary={role.name} />
                </ListItem>
              ))}
            </List>
          </Paper>
        )}
      </QueryState>
      <ConfirmDialog
        {...removal.dialog}
        title="Delete role"
        message={`Delete the role ${removal.pending?.name ?? ''}? Its users lose it, and so do the routes that allow it.`}
      />
    </Box>
  );
}
