import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  createListenerMiddleware,
  type Reducer,
  type WithSlice,
} from '@reduxjs/toolkit';
import type { Locale } from '@common/locales';
import type { api } from '@/api/api';
import type { liveSlice } from '@/api/live.slice';
import { addAuthListeners } from '@/auth/auth.listeners';
import { authSlice, loadAuthState } from '@/auth/auth.slice';
import { addLocaleListeners } from '@/i18n/locale.listeners';
import type { AppDispatch, RootState } from '@/lib/store';
import { uiSlice } from '@/ui/ui.slice';

/**
 * The store's reducer: the auth and ui slices from the start; the API and live slices join
 * when the first screen that talks to the API loads (`app/ApiReady.tsx`), so the home
 * page's first load carries no RTK Query.
 */
export const rootReducer = combineSlices(authSlice, uiSlice).withLazyLoadedSlices<
  WithSlice<typeof api> & WithSlice<typeof liveSlice>
>() satisfies Reducer<RootState, never, never>;

/**
 * Makes a store: the auth and ui slices, its own listener middleware in front (the
 * session's listeners registered), and room for the middleware that joins later. Each
 * store is fresh: a test's store shares no listener, timer or middleware with the last.
 */
export function makeStore(preloadedState?: Partial<RootState>) {
  const listeners = createListenerMiddleware();
  const joinLater = createDynamicMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault().prepend(listeners.middleware).concat(joinLater.middleware),
    devTools: process.env.NODE_ENV !== 'production',
  });
  const startListening = listeners.startListening.withTypes<RootState, AppDispatch>();
  addAuthListeners(startListening);
  addLocaleListeners(startListening);
  return Object.assign(store, { startListening, addMiddleware: joinLater.addMiddleware });
}

/**
 * The store the app starts with: the session it finds in browser storage, and the language
 * the page starts in (its texts loaded).
 */
export function makeAppStore(locale: Locale) {
  return makeStore({ auth: loadAuthState(), ui: { toasts: [], locale } });
}

export type AppStore = ReturnType<typeof makeStore>;
