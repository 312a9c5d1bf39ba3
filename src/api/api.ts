import { isAnyOf } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query/react';
import { loggedIn, loggedOut, tokenRefreshed, userIdentified } from '@/auth/auth.slice';
import type { SessionUser } from '@/auth/session';
import type { AppStartListening } from '@/lib/store';
import { baseQuery } from './baseQuery';

/**
 * The one API slice; each feature injects its endpoints (`api.injectEndpoints`). It joins a
 * store with the first screen that talks to the API (`app/ApiReady.tsx`).
 */
export const TAG_TYPES = [
  'Book',
  'User',
  'Role',
  'Entity',
  'Record',
  'Route',
  'Job',
  'Permissions',
  'View',
  'Factors',
  'AccessToken',
] as const;
/** What the cache's tags are of. */
export type TagType = (typeof TAG_TYPES)[number];

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  // A schema failure is a contract bug: say which endpoint, loudly, in development and tests.
  onSchemaFailure: (error, info) => {
    console.error(`The answer of ${info.endpoint} does not match its schema`, error.issues);
  },
  endpoints: () => ({}),
});

const rolesOf = (user: SessionUser | null) => [...(user?.roles ?? [])].sort().join(',');

/**
 * The cached server data follows the session: a login, a logout or another user drops all
 * of it (it belonged to the previous user); new roles refetch the permissions.
 */
export function addApiListeners(startListening: AppStartListening): void {
  startListening({
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
}
