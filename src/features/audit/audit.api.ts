import { type AuditPage, type AuditQuery, auditPageSchema } from '@common/schemas/audit';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';

/** A filter and page as a query string, leaving out what is not set. */
export function auditSearch(query: Partial<AuditQuery>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Not tagged: every write adds an event, so a page is always asked for afresh. */
    listAuditEvents: build.query<AuditPage, AuditQuery>({
      query: (query) => `/api/audit?${auditSearch(query)}`,
      keepUnusedDataFor: 0,
      ...responseSchema(auditPageSchema),
    }),
  }),
});

export const { useListAuditEventsQuery } = auditApi;
