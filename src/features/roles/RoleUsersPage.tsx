import { FormControlLabel, List, ListItem, ListItemText, Paper, Switch } from '@mui/material';
import { useParams } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Role, RoleUser } from '@common/schemas/roles';
import { reportError } from '@/api/errors';
import { PermissionGate } from '@/auth/PermissionGate';
import { useCan } from '@/auth/useCan';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useAppDispatch } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';
import { useRuleRefusal } from '@/hooks/useRuleRefusal';
import {
  useGetRoleQuery,
  useListRoleUsersQuery,
  useSetRoleSecondFactorMutation,
  useToggleRoleUserMutation,
} from './roles.api';

/** Every user, with a switch for whether they hold the role (read-only without the right). */
function RoleUserList({ id }: { id: string }) {
  const usersQuery = useListRoleUsersQuery(id);
  const [toggle, { isLoading: isSaving }] = useToggleRoleUserMutation();
  const mayToggle = useCan('PUT', '/api/roles/:id/users/:userId');
  const refusal = useRuleRefusal();

  useReportedError(messages.users.fetchOneContext, usersQuery.error);

  async function flip(user: RoleUser) {
    refusal.clear();
    try {
      await toggle({ roleId: id, userId: user._id }).unwrap();
    } catch (error) {
      refusal.explain(error);
      reportError(messages.roles.editUsersContext, error);
    }
  }

  return (
    <>
      {refusal.alert}
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
                    // Shown either way: who holds the role is worth reading. Not disabled
                    // while a change saves (that would take the focus from the switch just
                    // pressed): a press meanwhile is ignored instead.
                    disabled={!mayToggle}
                    onChange={() => {
                      if (!isSaving) void flip(user);
                    }}
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
    </>
  );
}

/** Whether the role's members must sign in with a second factor (read-only without the right). */
function SecondFactorSwitch({ role }: { role: Role }) {
  const [setRequired, { isLoading }] = useSetRoleSecondFactorMutation();
  const dispatch = useAppDispatch();
  const mayChange = useCan('PUT', '/api/roles/:id/second-factor');
  return (
    <FormControlLabel
      sx={{ mb: 1 }}
      label="Members must use a second factor (authenticator app or passkey)"
      control={
        <Switch
          checked={role.requireSecondFactor}
          disabled={!mayChange}
          onChange={(event) => {
            if (isLoading) return;
            setRequired({ id: role._id, required: event.target.checked })
              .unwrap()
              .then(({ requireSecondFactor }) =>
                dispatch(
                  toastQueued(
                    requireSecondFactor
                      ? `Members of ${role.name} must now use a second factor`
                      : `Members of ${role.name} no longer must use a second factor`,
                    'success',
                  ),
                ),
              )
              .catch((error: unknown) => reportError(messages.roles.secondFactorContext, error));
          }}
        />
      }
    />
  );
}

/**
 * The role, then who holds it: the users are asked for only once the role is known to
 * exist, so an unknown id makes one request and one toast, and shows no switches.
 */
function RoleUsers({ id }: { id: string }) {
  const roleQuery = useGetRoleQuery(id);
  const role = roleQuery.data;

  useReportedError(messages.roles.fetchOneContext, roleQuery.error);

  return (
    <>
      <PageHeader title={role ? `Users with the role ${role.name}` : 'Users with the role'} />
      <QueryState
        query={roleQuery}
        what="role"
        notFound={{
          message: 'There is no role with this id.',
          back: { label: 'See the roles', to: '/roles' },
        }}
      >
        {(loaded) => (
          <>
            <SecondFactorSwitch role={loaded} />
            <RoleUserList id={loaded._id} />
          </>
        )}
      </QueryState>
    </>
  );
}

/** `/role/:id/edit`: every user, with a switch for whether they hold the role. */
export function RoleUsersPage() {
  const { id = '' } = useParams();
  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PermissionGate verb="GET" path="/api/roles/:id/users" what="reading who holds a role">
        <PermissionGate verb="GET" path="/api/roles/:id" what="reading the roles">
          <RoleUsers key={id} id={id} />
        </PermissionGate>
      </PermissionGate>
    </Paper>
  );
}
