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
} from '@mui/material';
import { useMemo, useState } from 'react';
import { messages } from '@common/messages';
import type { RoutePermission } from '@common/schemas/permissions';
import { reportError } from '@/api/errors';
import { useListRolesQuery } from '@/api/roles.api';
import { useAppDispatch } from '@/app/hooks';
import { PermissionGate } from '@/auth/PermissionGate';
import { useCan } from '@/auth/useCan';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { toastQueued } from '@/ui/ui.slice';
import { useListRoutesQuery, useUpdateRouteMutation } from './permissions.api';

interface RouteRowProps {
  route: RoutePermission;
  /** The roles to offer in edit mode; undefined when the user may not edit routes. */
  roleNames?: string[];
}

function RouteRow({ route, roleNames }: RouteRowProps) {
  const [editing, setEditing] = useState(false);
  const [selected, setSelected] = useState(route.allowedRoles);
  const [updateRoute, { isLoading }] = useUpdateRouteMutation();
  const dispatch = useAppDispatch();

  const toggle = (name: string) =>
    setSelected((current) =>
      current.includes(name) ? current.filter((n) => n !== name) : [...current, name],
    );

  async function save() {
    try {
      await updateRoute({ id: route._id, allowedRoles: selected }).unwrap();
      dispatch(toastQueued(`Saved ${route.routeVerb} ${route.routePath}`, 'success'));
      setEditing(false);
    } catch (error) {
      reportError(messages.permissions.editContext, error);
    }
  }

  const label = `${route.routeVerb} ${route.routePath}`;
  return (
    <TableRow>
      <TableCell sx={{ fontFamily: 'monospace', width: 80 }}>{route.routeVerb}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>{route.routePath}</TableCell>
      <TableCell>
        <Stack
          direction="row"
          spacing={1}
          sx={{ flexWrap: 'wrap' }}
          role="group"
          aria-label={`Roles allowed on ${label}`}
        >
          {editing && roleNames
            ? roleNames.map((name) => {
                const on = selected.includes(name);
                return (
                  <Chip
                    key={name}
                    label={name}
                    color={on ? 'primary' : 'default'}
                    variant={on ? 'filled' : 'outlined'}
                    onClick={() => toggle(name)}
                    aria-pressed={on}
                    role="button"
                  />
                );
              })
            : route.allowedRoles.map((name) => <Chip key={name} label={name} size="small" />)}
        </Stack>
      </TableCell>
      {roleNames && (
        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
          {editing ? (
            <>
              <Button onClick={save} disabled={isLoading} aria-label={`Save ${label}`}>
                Save
              </Button>
              <Button
                onClick={() => {
                  setSelected(route.allowedRoles);
                  setEditing(false);
                }}
                aria-label={`Cancel ${label}`}
              >
                Cancel
              </Button>
            </>
          ) : (
            <Button
              onClick={() => {
                setSelected(route.allowedRoles);
                setEditing(true);
              }}
              aria-label={`Edit ${label}`}
            >
              Edit
            </Button>
          )}
        </TableCell>
      )}
    </TableRow>
  );
}

/** The routes table, read-only unless the user may edit routes. */
function RouteTables() {
  const routesQuery = useListRoutesQuery();
  const mayEdit = useCan('PUT', '/api/routes/:id');
  const mayListRoles = useCan('GET', '/api/roles');
  // The role names are only needed to edit, which needs the routes first.
  const { data: roles } = useListRolesQuery(undefined, {
    skip: !routesQuery.data || !mayEdit || !mayListRoles,
  });

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
    <QueryState query={routesQuery} what="routes" empty="No routes yet">
      {() =>
        groups.map(([entity, rows]) => (
          <Box component="section" key={entity} aria-labelledby={`routes-${entity}`}>
            <Typography id={`routes-${entity}`} variant="h6" component="h2" gutterBottom>
              {entity}
            </Typography>
            <Paper>
              <Table size="small" aria-labelledby={`routes-${entity}`}>
                <TableHead>
                  <TableRow>
                    <TableCell>Verb</TableCell>
                    <TableCell>Path</TableCell>
                    <TableCell>Allowed roles</TableCell>
                    {mayEdit && <TableCell align="right">Actions</TableCell>}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((route) => (
                    <RouteRow key={route._id} route={route} roleNames={roleNames} />
                  ))}
                </TableBody>
              </Table>
            </Paper>
          </Box>
        ))
      }
    </QueryState>
  );
}

/** `/routes`: which roles may call which API route, grouped by resource, edited row by row. */
export function RoutesPage() {
  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1">
        Routes
      </Typography>
      <PermissionGate verb="GET" path="/api/routes" what="reading the routes">
        <RouteTables />
      </PermissionGate>
    </Stack>
  );
}
