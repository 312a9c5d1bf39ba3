import { createAction } from '@reduxjs/toolkit';
import { type ReactNode, useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { api } from './api';

/** The API slice's code has loaded: the store's reducer makes its state on this action. */
const apiSliceLoaded = createAction('api/sliceLoaded');

/**
 * Renders `children` once the store holds the API slice's state. The slice joins the store
 * when its code loads (with the first screen that talks to the API), and its state appears
 * with the next action; RTK Query's hooks must not run before it.
 */
export function ApiReady({ children }: { children: ReactNode }) {
  const ready = useAppSelector((state) => state[api.reducerPath] !== undefined);
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!ready) dispatch(apiSliceLoaded());
  }, [ready, dispatch]);
  return ready ? children : null;
}
