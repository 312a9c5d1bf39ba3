import {
  Box,
  Button,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { messages } from '@common/messages';
import type { RoutePermission } from '@common/schemas/permissions';
import type { Role } from '@common/schemas/roles';
import { reportError } from '@/api/errors';
import { useAppDispatch } from '@/lib/store';
import { PermissionGate } from '@/auth/PermissionGate';
import { useCan } from '@/auth/useCan';
import { EditNotices } from '@/components/EditNotices';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useVersionedEdit } from '@/hooks/useVersionedEdit';
import { useT } from '@/i18n/useT';
import { toastQueued } from '@/ui/ui.slice';
import { useListRoutesQuery, useUpdateRouteMutation } from './permissions.api';

interface RouteItemProps {
  route: RoutePermission;
  /** The roles to offer in edit mode; undefined when the user may not edit routes. */
  roleNames?: string[];
}

/** What a route's edit changes: its allowed roles, in order. */
const grantsOf = (route: RoutePermission) => ({ allowedRoles: [...route.allowedRoles].sort() });

/** A route's read and edit modes, whichever way it is laid out, on the one edit machine. */
function useRouteEditor(route: RoutePermission) {
  const [editing, setEditing] = useState(false);
  const [selected, setSelected] = useState(route.allowedRoles);
  const [updateRoute, { isLoading }] = useUpdateRouteMutation();
  const dispatch = useAppDispatch();
  const t = useT();

  const versioned = useVersionedEdit<RoutePermission, { allowedRoles: string[] }>({
    resource: 'routes',
    editingId: editing ? route._id : undefined,
    itemOf: () => route,
    valuesOf: grantsOf,
    typedValues: () => ({ allowedRoles: [...selected].sort() }),
    send: (id, { allowedRoles }, version) => updateRoute({ id, allowedRoles, version }).unwrap(),
    errorContext: messages.permissions.editContext,
    onSettled: (id, stored, kept) => {
      if (kept === 'mine')
        dispatch(toastQueued(t('routes.saved', { route: routeLabel(stored) }), 'success'));
      versioned.end(id);
      setSelected(stored.allowedRoles);
      setEditing(false);
    },
    onDiscarded: () => setEditing(false),
    show: (_id, values) => setSelected(values.allowedRoles),
  });

  const toggle = (name: string) =>
    setSelected((current) =>
      current.includes(name) ? current.filter((n) => n !== name) : [...current, name],
    );

  async function save() {
    const stored = await versioned
      .submit(route._id, { allowedRoles: selected })
      .catch((error: unknown) => void reportError(messages.permissions.editContext, error));
    if (!stored) return;
    dispatch(toastQueued(t('routes.saved', { route: routeLabel(route) }), 'success'));
    versioned.end(route._id);
    setEditing(false);
  }

  const edit = (on: boolean) => {
    setSelected(route.allowedRoles);
    if (on) versioned.begin(route);
    else versioned.end(route._id);
    setEditing(on);
  };

  /** A conflict or another person's change meanwhile: their grants against mine. */
  const notices = (
    <EditNotices
      edit={versioned}
      nameOf={() => t('routes.nameOf', { route: routeLabel(route) })}
      labelOf={() => t('routes.allowedRoles')}
    />
  );
  return { editing, selected, toggle, save: () => void save(), edit, isLoading, notices };
}

type RouteEditor = ReturnType<typeof useRouteEditor>;

const routeLabel = (route: RoutePermission) => `${route.routeVerb} ${route.routePath}`;

/** The allowed roles: badges to read, or badges to toggle in edit mode. */
function RoleBadges({ route, roleNames, editor }: RouteItemProps & { editor: RouteEditor }) {
  const t = useT();
  return (
    <Stack
      direction="row"
      sx={{ flexWrap: 'wrap', gap: 1 }}
      role="group"
      aria-label={t('routes.rolesAllowedOn', { route: routeLabel(route) })}
    >
      {editor.editing && roleNames
        ? roleNames.map((name) => {
            const on = editor.selected.includes(name);
            return (
              <Chip
                key={name}
                label={name}
                color={on ? 'primary' : 'default'}
                variant={on ? 'filled' : 'outlined'}
                onClick={() => editor.toggle(name)}
                aria-pressed={on}
                role="button"
              />
            );
          })
        : route.allowedRoles.map((name) => <Chip key={name} label={name} size="small" />)}
    </Stack>
  );
}

function RouteActions({ route, editor }: { route: RoutePermission; editor: RouteEditor }) {
  const t = useT();
  const label = routeLabel(route);
  return editor.editing ? (
    <>
      <Button
        onClick={editor.save}
        disabled={editor.isLoading}
        aria-label={t('routes.saveRow', { route: label })}
      >
        {t('common.save')}
      </Button>
      <Button
        onClick={() => editor.edit(false)}
        aria-label={t('routes.cancelRow', { route: label })}
      >
        {t('common.cancel')}
      </Button>
      {editor.notices}
    </>
  ) : (
    <Button onClick={() => editor.edit(true)} aria-label={t('routes.editRow', { route: label })}>
      {t('routes.edit')}
    </Button>
  );
}

function RouteRow({ route, roleNames }: RouteItemProps) {
  const editor = useRouteEditor(route);
  return (
    <TableRow>
      <TableCell sx={{ fontFamily: 'monospace', width: 80 }}>{route.routeVerb}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>{route.routePath}</TableCell>
      <TableCell>
        <RoleBadges route={route} roleNames={roleNames} editor={editor} />
      </TableCell>
      {roleNames && (
        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
          <RouteActions route={route} editor={editor} />
        </TableCell>
      )}
    </TableRow>
  );
}

/** On a phone a route is a card: its verb and path, its roles, then its buttons. */
function RouteCard({ route, roleNames }: RouteItemProps) {
  const editor = useRouteEditor(route);
  return (
    <Box component="li" sx={{ p: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' } }}>
      <Typography sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', mb: 1 }}>
        {routeLabel(route)}
      </Typography>
      <RoleBadges route={route} roleNames={roleNames} editor={editor} />
      {roleNames && (
        <Box sx={{ mt: 1, display: 'flex', justifyContent: 'flex-end' }}>
          <RouteActions route={route} editor={editor} />
        </Box>
      )}
    </Box>
  );
}

/** The routes table, read-only unless the user may edit routes. */
function RouteTables({ roles }: { roles?: Role[] }) {
  const t = useT();
  const routesQuery = useListRoutesQuery();
  const mayEdit = useCan('PUT', '/api/routes/:id');
  // A table of four columns does not fit a phone: there each route is a card.
  const asCards = useMediaQuery((theme) => theme.breakpoints.down('sm'));

  useReportedError(messages.permissions.fetchContext, routesQuery.error);

  const groups = useMemo(() => {
    const byEntity = new Map<string, RoutePermission[]>();
    for (const route of routesQuery.data ?? []) {
      byEntity.set(route.routeEntity, [...(byEntity.get(route.routeEntity) ?? []), route]);
    }
    return [...byEntity];
  }, [routesQuery.data]);
  // Without the role list, a route can still be edited among the roles it names.
  const roleNames = useMemo(() => {
    if (!mayEdit) return undefined;
    const granted = (routesQuery.data ?? []).flatMap((route) => route.allowedRoles);
    return [...new Set([...(roles ?? []).map((role) => role.name), ...granted])];
  }, [mayEdit, roles, routesQuery.data]);

  return (
    <QueryState query={routesQuery} what={t('routes.what')} empty={t('routes.none')}>
      {() =>
        groups.map(([entity, rows]) => (
          <Box component="section" key={entity} aria-labelledby={`routes-${entity}`}>
            <Typography id={`routes-${entity}`} variant="h6" component="h2" gutterBottom>
              {t('routes.group', { key: entity.replace(/-/g, '_'), entity })}
            </Typography>
            {asCards ? (
              <Paper
                component="ul"
                aria-labelledby={`routes-${entity}`}
                sx={{ m: 0, p: 0, listStyle: 'none' }}
              >
                {rows.map((route) => (
                  <RouteCard key={route._id} route={route} roleNames={roleNames} />
                ))}
              </Paper>
            ) : (
              <Paper>
                <Table size="small" aria-labelledby={`routes-${entity}`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('routes.verb')}</TableCell>
                      <TableCell>{t('routes.path')}</TableCell>
                      <TableCell>{t('routes.allowedRoles')}</TableCell>
                      {mayEdit && <TableCell align="right">{t('routes.actions')}</TableCell>}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {rows.map((route) => (
                      <RouteRow key={route._id} route={route} roleNames={roleNames} />
                    ))}
                  </TableBody>
                </Table>
              </Paper>
            )}
          </Box>
        ))
      }
    </QueryState>
  );
}

/**
 * `/routes`: which roles may call which API route, grouped by resource, edited row by row.
 * `roles`, the roles to offer in edit mode, come from the roles feature (composed in app/).
 */
export function RoutesPage({ roles }: { roles?: Role[] }) {
  const t = useT();
  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1">
        {t('routes.title')}
      </Typography>
      <PermissionGate verb="GET" path="/api/routes" what={t('routes.read')}>
        <RouteTables roles={roles} />
      </PermissionGate>
    </Stack>
  );
}
