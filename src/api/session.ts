/**
 * The two session calls that must not go through the base query (it would refresh on
 * their 401s): refreshing the access token, single-flight for all callers, and revoking a
 * refresh token at logout.
 */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { refreshResponseSchema } from '@common/schemas/auth';
import { type AuthState, loggedOut, tokenRefreshed } from '@/auth/auth.slice';
import { API_HOST } from './apiHost';

type Dispatch = ThunkDispatch<unknown, unknown, UnknownAction>;
type GetState = () => unknown;

const post = (path: string, body: unknown) =>
  fetch(`${API_HOST}${path}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function performRefresh(dispatch: Dispatch, getState: GetState): Promise<boolean> {
  const { refreshToken } = (getState() as { auth: AuthState }).auth;
  try {
    if (!refreshToken) throw new Error('No refresh token');
    const response = await post('/api/auth/refresh-token', { refreshToken });
    if (!response.ok) throw new Error(`Refresh answered ${response.status}`);
    dispatch(tokenRefreshed(refreshResponseSchema.parse(await response.json())));
    return true;
  } catch {
    dispatch(loggedOut());
    return false;
  }
}

let pending: Promise<boolean> | undefined;

/**
 * Exchanges the refresh token for a new access token. Concurrent callers share one
 * request. On failure (or with no refresh token) the user is logged out; telling them is
 * the caller's part.
 * @returns whether a new access token was stored.
 */
export function refreshAccessToken(dispatch: Dispatch, getState: GetState): Promise<boolean> {
  // `finally` runs asynchronously, so `pending` is cleared only after it was set.
  pending ??= performRefresh(dispatch, getState).finally(() => {
    pending = undefined;
  });
  return pending;
}

/** Revokes a refresh token on the server; a failure changes nothing for the user. */
export async function revokeRefreshToken(refreshToken: string): Promise<void> {
  await post('/api/auth/logout', { refreshToken }).catch(() => undefined);
}
