import type { ApiPathOf, ApiVerb } from '@common/apiRoutes';
import type { Permissions } from '@common/schemas/permissions';
import { useAppSelector } from '@/lib/store';
import { selectIsAuthenticated } from './auth.slice';
import { useGetPermissionsQuery } from './permissions.api';

/** Whether `permissions` allow `verb` on `path` (a route of the routes table: `/api/books/:id`). */
export function can<V extends ApiVerb>(
  permissions: Permissions | undefined,
  verb: V,
  path: ApiPathOf<V>,
): boolean {
  return Boolean(
    permissions?.allowed.some((route) => route.routeVerb === verb && route.routePath === path),
  );
}

/**
 * The signed-in user's permissions, from the one cached permissions call (none while
 * signed out). `isKnown` is false while loading and when the call failed.
 */
export function usePermissions() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  // Asked again when the window regains focus: the rights may have changed meanwhile.
  const { currentData, error } = useGetPermissionsQuery(undefined, {
    skip: !isAuthenticated,
    refetchOnFocus: true,
  });
  // Failed until an answer comes, retries included: a gate that showed its children on the
  // failure and hid them during the retry their mounting started would flip for ever.
  return {
    permissions: currentData,
    isKnown: currentData !== undefined,
    isError: currentData === undefined && error !== undefined,
  };
}

/**
 * Whether the screens may offer an action that calls `verb` `path` (react-admin's
 * `useCanAccess`). False while the answer is unknown, so a control appears only once
 * allowed. The server stays the authority.
 * @example const canDelete = useCan('DELETE', '/api/books/:id');
 */
export function useCan<V extends ApiVerb>(verb: V, path: ApiPathOf<V>): boolean {
  return can(usePermissions().permissions, verb, path);
}

/** True once the permissions say the user holds no role at all (false while unknown). */
export function useHasNoRole(): boolean {
  const { permissions } = usePermissions();
  return permissions !== undefined && permissions.roles.length === 0;
}
