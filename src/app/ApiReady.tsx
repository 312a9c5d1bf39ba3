import { createAction, type Middleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query/react';
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { useStore } from 'react-redux';
import { addApiListeners, api } from '@/api/api';
import { liveSlice } from '@/api/live.slice';
import { addLiveListeners } from '@/api/liveUpdates';
import { addUndoListeners } from '@/api/undo';
import { addPermissionListeners } from '@/auth/permissions.api';
import { type AppStore, rootReducer } from './store';

/** The API slice has joined the store: the store's reducer makes its state on this action. */
const apiJoined = createAction('app/apiJoined');

// The window focus and network listeners that `refetchOnFocus` needs.
const focusAndNetworkListeners: Middleware = (store) => {
  setupListeners(store.dispatch);
  return (next) => (action) => next(action);
};

/** The stores the API slice has joined. */
const joined = new WeakSet<AppStore>();

/**
 * Joins the API slice to `store` (once): the API and live slices, the API's middleware, and
 * the listeners of the cached data, the permissions and the event stream. This module
 * loads with the first screen that talks to the API, so the home page does without it.
 */
export function addApiToStore(store: AppStore): void {
  if (joined.has(store)) return;
  joined.add(store);
  rootReducer.inject(api);
  rootReducer.inject(liveSlice);
  store.addMiddleware(api.middleware, focusAndNetworkListeners);
  addApiListeners(store.startListening);
  addPermissionListeners(store.startListening);
  addLiveListeners(store.startListening);
  addUndoListeners(store.startListening);
  store.dispatch(apiJoined());
}

/**
 * Renders `children` once the store holds the API slice's state (joining it first): RTK
 * Query's hooks must not run before it.
 */
export function ApiReady({ children }: { children: ReactNode }) {
  const store = useStore() as AppStore;
  // Not the slice's state alone: the reducer is shared by every store, so another store's
  // join gives this one the state before its middleware has joined.
  const ready = useSyncExternalStore(
    store.subscribe,
    () => joined.has(store) && store.getState()[api.reducerPath] !== undefined,
  );
  useEffect(() => addApiToStore(store), [store]);
  return ready ? children : null;
}
