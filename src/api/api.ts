import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

/** The one API slice; each feature injects its endpoints (`api.injectEndpoints`). */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Book', 'User', 'Role', 'Entity', 'Record', 'Route', 'Job'],
  endpoints: () => ({}),
});
