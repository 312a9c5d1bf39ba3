/**
 * What every part of the client knows of the store without making it: the shape of its
 * state, its typed hooks, the listener type and the app's start. `app/store.ts` makes the
 * store (one listener middleware each) and joins the lazily loaded slices to it.
 */
import {
  createAction,
  type ThunkDispatch,
  type TypedStartListening,
  type UnknownAction,
} from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { api } from '@/api/api';
import type { LiveState } from '@/api/live.slice';
import type { AuthState } from '@/auth/auth.slice';
import type { UiState } from '@/ui/ui.slice';

export interface RootState {
  auth: AuthState;
  ui: UiState;
  /** The API slice: joins with the first screen that talks to the API. */
  api?: ReturnType<typeof api.reducer>;
  /** What the event stream told: joins with the API slice. */
  live?: LiveState;
}

export type AppDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** A store's `startListening`, which each part's `addXListeners` registers its listeners with. */
export type AppStartListening = TypedStartListening<RootState, AppDispatch>;

/** The app has started in a browser tab (dispatched once, by index.tsx). */
export const appStarted = createAction('app/started');
