import { isAnyOf } from '@reduxjs/toolkit';
import { messages } from '@common/messages';
import { api } from '@/api/api';
import { requestForbidden } from '@/api/baseQuery';
import { refreshAccessToken, revokeRefreshToken } from '@/api/session';
import { type AppStartListening, appStarted } from '@/app/listeners';
import { toastQueued } from '@/ui/ui.slice';
import { loggedIn, loggedOut, tokenRefreshed, userIdentified } from './auth.slice';
import { permissionsApi } from './permissions.api';
import type { SessionUser } from './session';
import { ACCESS_TOKEN_KEY, isTokenExpired, msUntilExpiry, REFRESH_TOKEN_KEY } from './session';

/** How long before the access token expires the next refresh starts. */
export const REFRESH_MARGIN_MS = 30_000;

/**
 * The session, saga-style (DESIGN "Client"):
 * - keeps both tokens in browser storage in step with the auth slice;
 * - on start, login and each refresh, checks the access token and schedules the next
 *   refresh at its expiry minus a margin (at once when it has expired); a failed refresh,
 *   or none possible, logs out;
 * - logout cancels the timer and revokes the refresh token on the server;
 * - other tabs' logins, refreshes and logouts are followed through the storage event;
 * - the cached server data follows the session: a login, a logout or another user drops
 *   all of it (it belonged to the previous user); new roles refetch the permissions;
 * - a 403 FORBIDDEN refetches the permissions too (the rights changed elsewhere).
 */
export function addAuthListeners(startAppListening: AppStartListening): void {
  startAppListening({
    matcher: isAnyOf(loggedIn, tokenRefreshed, userIdentified, loggedOut),
    effect: (action, listenerApi) => {
      const before = listenerApi.getOriginalState().auth.user;
      const after = listenerApi.getState().auth.user;
      if (loggedIn.match(action) || loggedOut.match(action) || before?._id !== after?._id) {
        listenerApi.dispatch(api.util.resetApiState());
      } else if (rolesOf(before) !== rolesOf(after)) {
        listenerApi.dispatch(api.util.invalidateTags(['Permissions']));
      }
    },
  });

  // A 403 means the rights changed elsewhere (the routes table, the user's roles): the
  // permissions the screens hold are asked for again, once per burst of refusals. RTK Query
  // delays an invalidation until the requests on their way have settled, merging a burst's;
  // a refusal while the permissions are on their way adds nothing. Nor does one while they
  // are unknown or failed: there is no picture to correct, and a page that asks the server
  // when they fail would otherwise ask, be refused and refetch them, again and again.
  startAppListening({
    actionCreator: requestForbidden,
    effect: (_action, listenerApi) => {
      const permissions = permissionsApi.endpoints.getPermissions.select()(listenerApi.getState());
      if (!permissions.isSuccess) return;
      listenerApi.dispatch(api.util.invalidateTags(['Permissions']));
    },
  });

  startAppListening({
    matcher: isAnyOf(loggedIn, tokenRefreshed, loggedOut),
    effect: (_action, listenerApi) => {
      const { accessToken, refreshToken } = listenerApi.getState().auth;
      for (const [key, value] of [
        [ACCESS_TOKEN_KEY, accessToken],
        [REFRESH_TOKEN_KEY, refreshToken],
      ] as const) {
        if (value) window.localStorage.setItem(key, value);
        else window.localStorage.removeItem(key);
      }
    },
  });

  startAppListening({
    matcher: isAnyOf(appStarted, loggedIn, tokenRefreshed, loggedOut),
    effect: async (action, listenerApi) => {
      // Only the latest session event counts: a new one replaces the pending timer.
      listenerApi.cancelActiveListeners();
      if (loggedOut.match(action)) {
        const { refreshToken } = listenerApi.getOriginalState().auth;
        if (refreshToken) await revokeRefreshToken(refreshToken);
        return;
      }
      const { accessToken, refreshToken } = listenerApi.getState().auth;
      if (!accessToken && !refreshToken) return;
      const wait = isTokenExpired(accessToken)
        ? 0
        : msUntilExpiry(accessToken!) - REFRESH_MARGIN_MS;
      if (wait > 0) await listenerApi.delay(wait);
      const refreshed = await refreshAccessToken(listenerApi.dispatch, listenerApi.getState);
      if (!refreshed && refreshToken) {
        listenerApi.dispatch(toastQueued(messages.toast.sessionExpired, 'error'));
      }
    },
  });

  startAppListening({
    actionCreator: appStarted,
    effect: (_action, listenerApi) => {
      window.addEventListener('storage', (event) => {
        if (event.key !== ACCESS_TOKEN_KEY) return;
        const accessToken = event.newValue;
        const refreshToken = window.localStorage.getItem(REFRESH_TOKEN_KEY);
        if (!accessToken) {
          if (listenerApi.getState().auth.accessToken) listenerApi.dispatch(loggedOut());
        } else if (accessToken !== listenerApi.getState().auth.accessToken) {
          const tokens = { accessToken, refreshToken: refreshToken ?? '' };
          listenerApi.dispatch(
            listenerApi.getState().auth.accessToken ? tokenRefreshed(tokens) : loggedIn(tokens),
          );
        }
      });
    },
  });
}

const rolesOf = (user: SessionUser | null) => [...(user?.roles ?? [])].sort().join(',');
