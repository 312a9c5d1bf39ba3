import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import { IconButton, List, ListItem, ListItemText, Paper } from '@mui/material';
import { useRef } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import type { Role } from '@common/schemas/roles';
import { useAppDispatch } from '@/lib/store';
import { useCan } from '@/auth/useCan';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ListPage } from '@/components/ListPage';
import { ExportMenu } from '@/components/ExportMenu';
import { ListToolbar } from '@/components/ListToolbar';
import { QueryState } from '@/components/QueryState';
import { useQuickSearch, wordsOf } from '@/hooks/useQuickSearch';
import { useReportedError } from '@/hooks/useReportedError';
import { useRuleRefusal } from '@/hooks/useRuleRefusal';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { focusNeighbourLater } from '@/lib/focusNeighbour';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import { undoRoleDelete, useDeleteRoleMutation, useListRolesQuery } from './roles.api';
import { undoable } from '@/i18n/useT';

/** The roles, each with the actions the user may take. */
function RoleList({ mayAdd }: { mayAdd: boolean }) {
  const rolesQuery = useListRolesQuery();
  const [deleteRole] = useDeleteRoleMutation();
  const dispatch = useAppDispatch();
  const mayEditUsers = useCan('GET', '/api/roles/:id/users');
  const mayDelete = useCan('DELETE', '/api/roles/:id');
  const mayRestore = useCan('POST', '/api/roles/:id/restore');
  const refusal = useRuleRefusal();
  const listRef = useRef<HTMLUListElement>(null);

  useReportedError(messages.roles.fetchContext, rolesQuery.error);

  const removal = useConfirmedAction(async (role: Role) => {
    const index = (rolesQuery.data ?? []).findIndex((listed) => listed._id === role._id);
    const focusNeighbour = focusNeighbourLater(listRef.current, index);
    refusal.clear();
    try {
      await deleteRole(role._id).unwrap();
    } catch (error) {
      refusal.explain(error);
      throw error;
    }
    const deleted = `Deleted the role ${role.name}`;
    dispatch(
      mayRestore ? undoOffered(deleted, undoRoleDelete(role._id)) : toastQueued(deleted, 'success'),
    );
    focusNeighbour();
  }, messages.roles.deleteContext);

  const search = useQuickSearch();
  const words = wordsOf(search.q.toLowerCase());
  const matches = (role: Role) => words.every((word) => role.name.toLowerCase().includes(word));

  return (
    <>
      <ListToolbar
        search={{ value: search.typed, onChange: search.type, placeholder: 'Words in the name' }}
      >
        <ExportMenu path="/api/roles/export" what="roles" params={{ q: search.q }} />
      </ListToolbar>
      {refusal.alert}
      <QueryState
        query={rolesQuery}
        what="roles"
        isEmpty={(roles) => !roles.some(matches)}
        empty={search.q ? 'No roles match the search' : 'No roles yet'}
        emptyAction={mayAdd && !search.q ? { label: 'Add one', to: '/role' } : undefined}
      >
        {(roles) => (
          <Paper sx={{ maxWidth: 560 }}>
            <List aria-label="Roles" ref={listRef}>
              {roles.filter(matches).map((role) => (
                <ListItem
                  key={role._id}
                  tabIndex={-1}
                  divider
                  secondaryAction={
                    <>
                      {mayEditUsers && (
                        <IconButton
                          component={RouterLink}
                          to={`/role/${role._id}/edit`}
                          aria-label={`Edit ${role.name}`}
                        >
                          <EditIcon />
                        </IconButton>
                      )}
                      {mayDelete && (
                        <IconButton
                          edge="end"
                          aria-label={`Delete ${role.name}`}
                          // The server protects the admin role (ADMIN_PROTECTED) too.
                          disabled={role.name === ADMIN_ROLE}
                          onClick={() => removal.ask(role)}
                        >
                          <DeleteIcon />
                        </IconButton>
                      )}
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
        message={undoable(
          `Delete the role ${removal.pending?.name ?? ''}? Its users lose it, and so do the routes that allow it.`,
          mayRestore,
        )}
      />
    </>
  );
}

/** `/roles`: the roles, each with edit (its users) and delete, and Add Role. */
export function RolesPage() {
  return (
    <ListPage
      title="Roles"
      read={{ path: '/api/roles', what: 'reading the roles' }}
      add={{ label: 'Add Role', to: '/role', path: '/api/roles' }}
    >
      {(mayAdd) => <RoleList mayAdd={mayAdd} />}
    </ListPage>
  );
}
