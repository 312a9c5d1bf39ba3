import { createAction, createListenerMiddleware } from '@reduxjs/toolkit';
import type { AppDispatch, RootState } from './store';

/** The listener middleware that runs the app's side effects (session, storage). */
export const listenerMiddleware = createListenerMiddleware();

export const startAppListening = listenerMiddleware.startListening.withTypes<
  RootState,
  AppDispatch
>();
export type AppStartListening = typeof startAppListening;

/** The app has started in a browser tab (dispatched once, by index.tsx). */
export const appStarted = createAction('app/started');
