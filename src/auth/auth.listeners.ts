import { isAnyOf } from '@reduxjs/toolkit';
import type { AppStartListening } from '@/app/listeners';
import { loggedIn, loggedOut, tokenRefreshed } from './auth.slice';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from './session';

/** Keeps the tokens in browser storage in step with the auth slice. */
export function addAuthListeners(startAppListening: AppStartListening): void {
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
}
