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
import { useT } from '@/i18n/useT';
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
  const t = useT();
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
      <QueryState query={usersQuery} what={t('users.what')} empty={t('users.none')}>
        {(users) => (
          <List aria-label={t('users.title')}>
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
                    slotProps={{
                      input: { 'aria-label': t('roles.hasRole', { name: user.username }) },
                    }}
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
  const t = useT();
  const [setRequired, { isLoading }] = useSetRoleSecondFactorMutation();
  const dispatch = useAppDispatch();
  const mayChange = useCan('PUT', '/api/roles/:id/second-factor');
  return (
    <FormControlLabel
      sx={{ mb: 1 }}
      label={t('roles.requireSecondFactor')}
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
                      ? t('roles.secondFactorOn', { name: role.name })
                      : t('roles.secondFactorOff', { name: role.name }),
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
  const t = useT();
  const roleQuery = useGetRoleQuery(id);
  const role = roleQuery.data;

  useReportedError(messages.roles.fetchOneContext, roleQuery.error);

  return (
    <>
      <PageHeader
        title={role ? t('roles.usersWith', { name: role.name }) : t('roles.usersWithLoading')}
      />
      <QueryState
        query={roleQuery}
        what={t('roles.whatOne')}
        notFound={{
          message: t('roles.notFound'),
          back: { label: t('roles.seeAll'), to: '/roles' },
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
  const t = useT();
  const { id = '' } = useParams();
  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PermissionGate verb="GET" path="/api/roles/:id/users" what={t('roles.readHolders')}>
        <PermissionGate verb="GET" path="/api/roles/:id" what={t('roles.read')}>
          <RoleUsers key={id} id={id} />
        </PermissionGate>
      </PermissionGate>
    </Paper>
  );
}
