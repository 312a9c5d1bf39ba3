import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  type WithSlice,
} from '@reduxjs/toolkit';
import type { api } from '@/api/api';
import type { liveSlice } from '@/api/live.slice';
import { addAuthListeners } from '@/auth/auth.listeners';
import { authSlice, loadAuthState } from '@/auth/auth.slice';
import { uiSlice } from '@/ui/ui.slice';
import { listenerMiddleware, startAppListening } from './listeners';

/**
 * The store's reducer: the auth and ui slices from the start; the API slice joins when the
 * first screen that talks to the API loads (`api/api.ts` injects itself), so the home
 * page's first load carries no RTK Query; the live slice with the first private screen.
 */
export const rootReducer = combineSlices(authSlice, uiSlice).withLazyLoadedSlices<
  WithSlice<typeof api> & WithSlice<typeof liveSlice>
>();
export type RootState = ReturnType<typeof rootReducer>;

/** Middleware that joins later (the API slice's), in every store made here. */
export const dynamicMiddleware = createDynamicMiddleware();

addAuthListeners(startAppListening);

/**
 * Makes the one store: the auth slice, the ui slice and, once loaded, the API slice, with
 * the listener middleware in front. Tests make a fresh one each (with the state they need).
 */
export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault().prepend(listenerMiddleware.middleware).concat(dynamicMiddleware.middleware),
    devTools: process.env.NODE_ENV !== 'production',
  });
}

/** The store the app starts with: the session it finds in browser storage. */
export function makeAppStore() {
  return makeStore({ auth: loadAuthState() });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
