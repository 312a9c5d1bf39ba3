import { useCan } from '@/auth/useCan';
import { permissionsApi } from '@/features/permissions/permissions.api';
import { RoutesPage } from '@/features/permissions/RoutesPage';
import { useListRolesQuery } from '@/features/roles/roles.api';

/**
 * `/routes` (permissions), with the role names to offer (roles): only needed to edit,
 * which needs the routes first, so they are asked for once the routes have come.
 */
export function RoutesScreen() {
  const mayEdit = useCan('PUT', '/api/routes/:id');
  const mayListRoles = useCan('GET', '/api/roles');
  const routesLoaded = permissionsApi.endpoints.listRoutes.useQueryState().data !== undefined;
  const { data: roles } = useListRolesQuery(undefined, {
    skip: !routesLoaded || !mayEdit || !mayListRoles,
  });
  return <RoutesPage roles={roles} />;
}
