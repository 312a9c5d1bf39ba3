import { LinearProgress, List, ListItem, ListItemText, Paper, Switch } from '@mui/material';
import { useParams } from 'react-router-dom';
import { messages } from '@common/messages';
import type { RoleUser } from '@common/schemas/roles';
import { reportError } from '@/api/errors';
import { PageHeader } from '@/components/PageHeader';
import { useReportedError } from '@/hooks/useReportedError';
import { useGetRoleQuery, useListRoleUsersQuery, useToggleRoleUserMutation } from './roles.api';

/** `/role/:id/edit`: every user, with a switch for whether they hold the role. */
export function RoleUsersPage() {
  const { id = '' } = useParams();
  const { data: role, error: roleError } = useGetRoleQuery(id);
  const { data: users = [], error: usersError, isLoading } = useListRoleUsersQuery(id);
  const [toggle, { isLoading: isSaving }] = useToggleRoleUserMutation();

  useReportedError(messages.roles.fetchOneContext, roleError);
  useReportedError(messages.users.fetchOneContext, usersError);

  async function flip(user: RoleUser) {
    try {
      await toggle({ roleId: id, userId: user._id }).unwrap();
    } catch (error) {
      reportError(messages.roles.editUsersContext, error);
    }
  }

  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PageHeader title={role ? `Users with the role ${role.name}` : 'Users with the role'} />
      {isLoading && <LinearProgress aria-label="Loading users" />}
      <List aria-label="Users">
        {users.map((user) => (
          <ListItem
            key={user._id}
            divider
            secondaryAction={
              <Switch
                edge="end"
                checked={user.hasRole}
                disabled={isSaving}
                onChange={() => void flip(user)}
                slotProps={{ input: { 'aria-label': `${user.username} has the role` } }}
              />
            }
          >
            <ListItemText primary={user.username} />
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
