import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY, type SessionUser, userFromToken } from './session';

export interface AuthState {
  accessToken: string | null;
  refreshToken: string | null;
  user: SessionUser | null;
  /**
   * The role an admin sees the product as (the preview): every API call says so
   * (PREVIEW_ROLE_HEADER) until they go back. Not kept: a reload ends it.
   */
  previewRole?: string;
}

const signedOut: AuthState = { accessToken: null, refreshToken: null, user: null };

/** The session kept in browser storage, as the store starts with it. */
export function loadAuthState(storage: Storage = window.localStorage): AuthState {
  const accessToken = storage.getItem(ACCESS_TOKEN_KEY);
  const refreshToken = storage.getItem(REFRESH_TOKEN_KEY);
  return { accessToken, refreshToken, user: userFromToken(accessToken) ?? null };
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: signedOut,
  reducers: {
    /** Login, registration or the Google callback succeeded. */
    loggedIn(state, action: PayloadAction<{ accessToken: string; refreshToken: string }>) {
      state.accessToken = action.payload.accessToken;
      state.refreshToken = action.payload.refreshToken;
      state.user = userFromToken(action.payload.accessToken) ?? null;
    },
    /** A refresh gave a new access token, and a rotated refresh token when the server sent one. */
    tokenRefreshed(state, action: PayloadAction<{ accessToken: string; refreshToken?: string }>) {
      state.accessToken = action.payload.accessToken;
      if (action.payload.refreshToken) state.refreshToken = action.payload.refreshToken;
      state.user = userFromToken(action.payload.accessToken) ?? state.user;
    },
    /** The server described the signed-in user (identify call). */
    userIdentified(state, action: PayloadAction<SessionUser>) {
      state.user = action.payload;
    },
    /** An admin chose to see the product as `role` would (its start is audited). */
    previewStarted(state, action: PayloadAction<string>) {
      state.previewRole = action.payload;
    },
    /** The admin went back to their own view. */
    previewEnded(state) {
      delete state.previewRole;
    },
    loggedOut() {
      return signedOut;
    },
  },
  selectors: {
    selectCurrentUser: (state) => state.user,
    selectIsAuthenticated: (state) => state.accessToken !== null,
    selectPreviewRole: (state) => state.previewRole,
    /** The access token, for the one request the base query cannot send (an upload). */
    selectAccessToken: (state) => state.accessToken,
  },
});

export const { loggedIn, tokenRefreshed, userIdentified, previewStarted, previewEnded, loggedOut } =
  authSlice.actions;
export const { selectCurrentUser, selectIsAuthenticated, selectAccessToken, selectPreviewRole } =
  authSlice.selectors;
