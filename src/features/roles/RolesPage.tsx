import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import PreviewIcon from '@mui/icons-material/VisibilityOutlined';
import { IconButton, List, ListItem, ListItemText, Paper } from '@mui/material';
import { useRef } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { ADMIN_ROLE } from '@common/constants';
import { messages } from '@common/messages';
import type { Role } from '@common/schemas/roles';
import { useAppDispatch, useAppSelector } from '@/lib/store';
import { previewStarted, selectCurrentUser } from '@/auth/auth.slice';
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
import {
  undoRoleDelete,
  useDeleteRoleMutation,
  useListRolesQuery,
  useStartPreviewMutation,
} from './roles.api';
import { undoable, useT } from '@/i18n/useT';

/** The roles, each with the actions the user may take. */
function RoleList({ mayAdd }: { mayAdd: boolean }) {
  const t = useT();
  const rolesQuery = useListRolesQuery();
  const [deleteRole] = useDeleteRoleMutation();
  const dispatch = useAppDispatch();
  const mayEditUsers = useCan('GET', '/api/roles/:id/users');
  const mayDelete = useCan('DELETE', '/api/roles/:id');
  const mayRestore = useCan('POST', '/api/roles/:id/restore');
  const refusal = useRuleRefusal();
  const listRef = useRef<HTMLUListElement>(null);
  // An admin may see the screens as another role would (the server honours it for admins).
  const mayPreview = useAppSelector(selectCurrentUser)?.roles.includes(ADMIN_ROLE) ?? false;
  const [startPreview] = useStartPreviewMutation();
  const navigate = useNavigate();
  const preview = async (role: Role) => {
    await startPreview(role.name).unwrap();
    dispatch(previewStarted(role.name));
    void navigate('/');
  };

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
    const deleted = t('roles.deleted', { name: role.name });
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
        search={{
          value: search.typed,
          onChange: search.type,
          placeholder: t('roles.searchPlaceholder'),
        }}
      >
        <ExportMenu path="/api/roles/export" what={t('roles.what')} params={{ q: search.q }} />
      </ListToolbar>
      {refusal.alert}
      <QueryState
        query={rolesQuery}
        what={t('roles.what')}
        isEmpty={(roles) => !roles.some(matches)}
        empty={search.q ? t('roles.noMatch') : t('roles.none')}
        emptyAction={mayAdd && !search.q ? { label: t('roles.addOne'), to: '/role' } : undefined}
      >
        {(roles) => (
          <Paper sx={{ maxWidth: 560 }}>
            <List aria-label={t('roles.title')} ref={listRef}>
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
                          aria-label={t('roles.editRow', { name: role.name })}
                        >
                          <EditIcon />
                        </IconButton>
                      )}
                      {mayPreview && role.name !== ADMIN_ROLE && (
                        <IconButton
                          aria-label={t('roles.previewRow', { name: role.name })}
                          onClick={() => void preview(role).catch(() => undefined)}
                        >
                          <PreviewIcon />
                        </IconButton>
                      )}
                      {mayDelete && (
                        <IconButton
                          edge="end"
                          aria-label={t('roles.deleteRow', { name: role.name })}
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
        title={t('roles.deleteTitle')}
        message={undoable(
          t('roles.deleteQuestion', { name: removal.pending?.name ?? '' }),
          mayRestore,
        )}
      />
    </>
  );
}

/** `/roles`: the roles, each with edit (its users) and delete, and Add Role. */
export function RolesPage() {
  const t = useT();
  return (
    <ListPage
      title={t('roles.title')}
      read={{ path: '/api/roles', what: t('roles.read') }}
      add={{ label: t('roles.add'), to: '/role', path: '/api/roles' }}
    >
      {(mayAdd) => <RoleList mayAdd={mayAdd} />}
    </ListPage>
  );
}
