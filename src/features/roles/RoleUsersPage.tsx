import { List, ListItem, ListItemText, Paper, Switch } from '@mui/material';
import { useParams } from 'react-router-dom';
import { messages } from '@common/messages';
import type { RoleUser } from '@common/schemas/roles';
import { reportError } from '@/api/errors';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useGetRoleQuery, useListRoleUsersQuery, useToggleRoleUserMutation } from './roles.api';

/** `/role/:id/edit`: every user, with a switch for whether they hold the role. */
export function RoleUsersPage() {
  const { id = '' } = useParams();
  const { data: role, error: roleError } = useGetRoleQuery(id);
  const usersQuery = useListRoleUsersQuery(id);
  const [toggle, { isLoading: isSaving }] = useToggleRoleUserMutation();

  useReportedError(messages.roles.fetchOneContext, roleError);
  useReportedError(messages.users.fetchOneContext, usersQuery.error);

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
      <QueryState query={usersQuery} what="users" empty="No users yet">
        {(users) => (
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
        )}
      </QueryState>
    </Paper>
  );
}
