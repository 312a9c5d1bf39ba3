import { useCan } from '@/auth/useCan';
import { useListRolesQuery } from '@/features/roles/roles.api';
import { UserFormPage } from '@/features/users/UserFormPage';

/**
 * `/users/add` (users), with the roles to choose from (roles), asked for only when the
 * user may both add users and list roles: a user may be added without roles.
 */
export function UserFormScreen() {
  const mayAdd = useCan('POST', '/api/users');
  const mayListRoles = useCan('GET', '/api/roles');
  const rolesQuery = useListRolesQuery(undefined, { skip: !mayAdd || !mayListRoles });
  return <UserFormPage rolesQuery={rolesQuery} />;
}
