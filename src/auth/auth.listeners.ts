import { isAnyOf } from '@reduxjs/toolkit';
import { t } from '@/i18n/useT';
import { type AppStartListening, appStarted } from '@/lib/store';
import { toastQueued } from '@/ui/ui.slice';
import { loggedIn, loggedOut, tokenRefreshed } from './auth.slice';
import {
  ACCESS_TOKEN_KEY,
  isTokenExpired,
  msUntilExpiry,
  noteTokenArrived,
  REFRESH_TOKEN_KEY,
} from './session';

/** How long before the access token expires the next refresh starts. */
export const REFRESH_MARGIN_MS = 30_000;

/**
 * The session, saga-style (DESIGN "Client"):
 * - keeps both tokens in browser storage in step with the auth slice;
 * - on start, login and each refresh, checks the access token and schedules the next
 *   refresh at its expiry minus a margin (at once when it has expired); a failed refresh,
 *   or none possible, logs out;
 * - logout cancels the timer and revokes the refresh token on the server;
 * - other tabs' logins, refreshes and logouts are followed through the storage event.
 * The session calls load only when a session needs them, so a visitor's first page does
 * without them; how the cached server data follows the session is in `api/api.ts`.
 */
export function addAuthListeners(startListening: AppStartListening): void {
  startListening({
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

  startListening({
    matcher: isAnyOf(appStarted, loggedIn, tokenRefreshed, loggedOut),
    effect: async (action, listenerApi) => {
      // Only the latest session event counts: a new one replaces the pending timer.
      listenerApi.cancelActiveListeners();
      // A token just issued tells the server's time (a stored one, at start, does not).
      if (!appStarted.match(action)) noteTokenArrived(listenerApi.getState().auth.accessToken);
      if (loggedOut.match(action)) {
        const { refreshToken } = listenerApi.getOriginalState().auth;
        if (refreshToken) await (await import('@/api/session')).revokeRefreshToken(refreshToken);
        return;
      }
      const { accessToken, refreshToken } = listenerApi.getState().auth;
      if (!accessToken && !refreshToken) return;
      const wait = isTokenExpired(accessToken)
        ? 0
        : msUntilExpiry(accessToken!) - REFRESH_MARGIN_MS;
      if (wait > 0) await listenerApi.delay(wait);
      const { refreshAccessToken } = await import('@/api/session');
      const refreshed = await refreshAccessToken(listenerApi.dispatch, listenerApi.getState);
      if (!refreshed && refreshToken) {
        listenerApi.dispatch(toastQueued(t('toast.sessionExpired'), 'error'));
      }
    },
  });

  startListening({
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
