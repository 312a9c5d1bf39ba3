import { type Permissions, permissionsSchema } from '@common/schemas/permissions';
import { isAnyOf } from '@reduxjs/toolkit';
import { TAG_TYPES, api } from '@/api/api';
import { previewEnded, previewStarted } from './auth.slice';
import { requestForbidden } from '@/api/baseQuery';
import { responseSchema } from '@/api/responseSchema';
import type { AppStartListening, RootState } from '@/lib/store';

/**
 * What the signed-in user may call (`GET /api/auth/permissions`), for the screens to
 * offer only that. Refetched when the session changes or a request answers 403
 * (addPermissionListeners), when routes or role memberships change (their mutations invalidate
 * 'Permissions'), and when the window regains focus (`usePermissions`).
 */
export const permissionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPermissions: build.query<Permissions, void>({
      query: () => '/api/auth/permissions',
      providesTags: ['Permissions'],
      // A background call: when it fails, the screens fall back to asking the server.
      extraOptions: { quiet: true },
      ...responseSchema(permissionsSchema),
    }),
  }),
});

export const { useGetPermissionsQuery } = permissionsApi;

const selectPermissions = permissionsApi.endpoints.getPermissions.select();

/**
 * The permissions call's cache entry. The store's state types the API slice as optional
 * (it joins when its code loads); wherever this runs, that code has loaded.
 */
export const selectPermissionsResult = (state: RootState) =>
  selectPermissions(state as Parameters<typeof selectPermissions>[0]);

/**
 * A 403 means the rights changed elsewhere (the routes table, the user's roles): the
 * permissions the screens hold are asked for again, once per burst of refusals. RTK Query
 * delays an invalidation until the requests on their way have settled, merging a burst's;
 * a refusal while the permissions are on their way adds nothing. Nor does one while they
 * are unknown or failed: there is no picture to correct, and a page that asks the server
 * when they fail would otherwise ask, be refused and refetch them, again and again.
 */
export function addPermissionListeners(startListening: AppStartListening): void {
  // What the screens hold was read as the other role: a preview's start or end asks again.
  // The permissions first, so that a screen the role may not see closes before its data is
  // asked for again (rather than asked, refused and reported).
  startListening({
    matcher: isAnyOf(previewStarted, previewEnded),
    effect: async (_action, listenerApi) => {
      await listenerApi.dispatch(
        permissionsApi.endpoints.getPermissions.initiate(undefined, {
          forceRefetch: true,
          subscribe: false,
        }),
      );
      listenerApi.dispatch(
        api.util.invalidateTags(TAG_TYPES.filter((type) => type !== 'Permissions')),
      );
    },
  });
  startListening({
    actionCreator: requestForbidden,
    effect: (_action, listenerApi) => {
      const permissions = selectPermissionsResult(listenerApi.getState());
      if (!permissions.isSuccess) return;
      listenerApi.dispatch(api.util.invalidateTags(['Permissions']));
    },
  });
}
