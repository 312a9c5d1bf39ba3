import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '@/api/api';
import { addAuthListeners } from '@/auth/auth.listeners';
import { authSlice, loadAuthState } from '@/auth/auth.slice';
import { uiSlice } from '@/ui/ui.slice';
import { listenerMiddleware, startAppListening } from './listeners';

const rootReducer = combineSlices(authSlice, uiSlice, api);
export type RootState = ReturnType<typeof rootReducer>;

addAuthListeners(startAppListening);

/**
 * Makes the one store: the auth slice, the ui slice and the API slice, with the listener
 * middleware in front. Tests make a fresh one each (with the state they need).
 */
export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault().prepend(listenerMiddleware.middleware).concat(api.middleware),
    devTools: process.env.NODE_ENV !== 'production',
  });
  setupListeners(store.dispatch);
  return store;
}

/** The store the app starts with: the session it finds in browser storage. */
export function makeAppStore() {
  return makeStore({ auth: loadAuthState() });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
