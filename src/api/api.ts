import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

/** The one API slice; each feature injects its endpoints (`api.injectEndpoints`). */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Book', 'User', 'Role', 'Entity', 'Record', 'Route', 'Job', 'Permissions'],
  // A schema failure is a contract bug: say which endpoint, loudly, in development and tests.
  onSchemaFailure: (error, info) => {
    console.error(`The answer of ${info.endpoint} does not match its schema`, error.issues);
  },
  endpoints: () => ({}),
});
