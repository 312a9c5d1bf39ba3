import { useCan } from '@/auth/useCan';
import { EntityAccessPage } from '@/features/entities/EntityAccessPage';
import { useListRolesQuery } from '@/features/roles/roles.api';

/** `/entities/edit/:entityId/access`, with the roles a policy can be written for (roles). */
export function EntityAccessScreen() {
  const mayEdit = useCan('PUT', '/api/entities/:id/policies');
  const mayListRoles = useCan('GET', '/api/roles');
  const { data: roles } = useListRolesQuery(undefined, { skip: !mayEdit || !mayListRoles });
  return <EntityAccessPage roles={roles} />;
}
