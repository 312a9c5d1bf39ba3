/**
 * The base query every endpoint goes through (DESIGN "Client"): the bearer header,
 * credentials included, the duplicate-request rejection 'Request canceled', one refresh
 * and retry on a 401, the status-to-toast mapping of spec section 8, and a word to the
 * listeners when a 403 says the screens' picture of the user's rights is stale.
 */
import type {
  BaseQueryFn,
  FetchArgs,
  FetchBaseQueryError,
  FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query';
import { createAction } from '@reduxjs/toolkit';
import { fetchBaseQuery } from '@reduxjs/toolkit/query/react';
import type { AuthState } from '@/auth/auth.slice';
import { PREVIEW_ROLE_HEADER } from '@common/constants';
import { toastQueued } from '@/ui/ui.slice';
import { API_HOST } from './apiHost';
import { errorCode, requestCanceledError, toastForError } from './errors';
import { refreshAccessToken } from './session';

const fetchFromApi = fetchBaseQuery({
  baseUrl: API_HOST,
  credentials: 'include',
  prepareHeaders: (headers, { getState }) => {
    const { accessToken, previewRole } = (getState() as { auth: AuthState }).auth;
    if (accessToken) headers.set('authorization', `Bearer ${accessToken}`);
    if (previewRole) headers.set(PREVIEW_ROLE_HEADER, previewRole);
    return headers;
  },
});

/** Requests on their way, by method and URL. */
const inFlight = new Set<string>();

const urlOf = (args: string | FetchArgs) => (typeof args === 'string' ? args : args.url);

function requestKey(args: string | FetchArgs): string {
  if (typeof args === 'string') return `GET ${args}`;
  const query = args.params ? `?${new URLSearchParams(args.params).toString()}` : '';
  return `${(args.method ?? 'GET').toUpperCase()} ${args.url}${query}`;
}

/** Sign-in calls answer 401 for bad credentials (or codes): their pages say so themselves. */
const SIGN_IN_CALLS = [
  '/api/auth/login',
  '/api/auth/login/second-factor',
  '/api/auth/login/authenticator',
  '/api/auth/passkey/options',
  '/api/auth/passkey',
  '/api/auth/register',
  '/api/auth/google',
];
const isSignInCall = (args: string | FetchArgs) =>
  SIGN_IN_CALLS.some((path) => urlOf(args).split('?')[0] === path);

/**
 * Per endpoint (`extraOptions`): `quiet` calls show no toast when they fail; `shownInForm`
 * calls are a form's submission, and the form shows a 400 or 409 itself (under the fields
 * it names, or above them), so a toast would only say it twice.
 */
export interface BaseQueryOptions {
  quiet?: boolean;
  shownInForm?: boolean;
  /**
   * A save of the edit machine (`useVersionedEdit`), which shows a VERSION_CONFLICT (the
   * conflict dialog) and a NOT_FOUND (deleted meanwhile) itself: no toast for them.
   */
  editorShown?: boolean;
}

/**
 * A request other than the permissions call itself was refused with 403 FORBIDDEN: the
 * screens' picture of the user's rights is stale (auth.listeners refetches it).
 */
export const requestForbidden = createAction('api/requestForbidden');

const isFormError = (error: FetchBaseQueryError) => error.status === 400 || error.status === 409;

export const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  BaseQueryOptions,
  FetchBaseQueryMeta
> = async (args, api, extraOptions) => {
  const key = requestKey(args);
  if (inFlight.has(key)) {
    return { error: requestCanceledError() };
  }
  inFlight.add(key);
  try {
    let result = await fetchFromApi(args, api, extraOptions);
    if (isSignInCall(args)) return result;
    if (result.error?.status === 401 && (await refreshAccessToken(api.dispatch, api.getState))) {
      result = await fetchFromApi(args, api, extraOptions);
    }
    if (errorCode(result.error) === 'FORBIDDEN' && api.endpoint !== 'getPermissions') {
      api.dispatch(requestForbidden());
    }
    const { quiet, shownInForm, editorShown } = extraOptions ?? {};
    const shownOnScreen = (error: FetchBaseQueryError) =>
      (shownInForm && isFormError(error)) ||
      (editorShown && ['VERSION_CONFLICT', 'NOT_FOUND'].includes(errorCode(error) ?? ''));
    // A preview's start asks again for what the screens hold, as the role: the screen being
    // left may ask for what the role may not read before it closes. Its refusal is the
    // role's view catching up, not an error of the admin's.
    const previewCatchingUp =
      result.error?.status === 403 &&
      api.type === 'query' &&
      Boolean((api.getState() as { auth: AuthState }).auth.previewRole);
    if (result.error && !quiet && !previewCatchingUp && !shownOnScreen(result.error)) {
      const toast = toastForError(result.error);
      if (toast) api.dispatch(toastQueued(toast, 'error'));
    }
    return result;
  } finally {
    inFlight.delete(key);
  }
};
