/**
 * The signed-in user's preferences on the server (`/api/auth/preferences`): called by the
 * language's listeners, which run before any screen has joined RTK Query to the store.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { type Preferences, preferencesSchema } from '@common/schemas/preferences';
import { API_HOST } from '@/api/apiHost';
import { refreshAccessToken } from '@/api/session';
import type { RootState } from '@/lib/store';

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;

/** One call as the signed-in user; an expired access token is refreshed once, as by the base query. */
async function call(dispatch: Dispatch, getState: () => RootState, init: RequestInit = {}) {
  for (let refreshed = false; ; refreshed = true) {
    const response = await fetch(`${API_HOST}/api/auth/preferences`, {
      ...init,
      credentials: 'include',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${getState().auth.accessToken}`,
      },
    });
    if (response.status === 401 && !refreshed && (await refreshAccessToken(dispatch, getState)))
      continue;
    if (!response.ok) throw new Error(`Preferences answered ${response.status}`);
    return preferencesSchema.parse(await response.json());
  }
}

export const loadPreferences = (dispatch: Dispatch, getState: () => RootState) =>
  call(dispatch, getState);

export const savePreferences = (
  preferences: Preferences,
  dispatch: Dispatch,
  getState: () => RootState,
) => call(dispatch, getState, { method: 'PUT', body: JSON.stringify(preferences) });
