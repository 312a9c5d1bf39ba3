import { type DownloadLink, downloadLinkSchema } from '@common/schemas/exports';
import { api } from './api';
import { API_HOST } from './apiHost';
import { responseSchema } from './responseSchema';

const downloadsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A link that downloads the export at `path` (with its query) for a minute, headerless. */
    createDownloadLink: build.mutation<DownloadLink, string>({
      query: (path) => ({ url: '/api/auth/download-link', method: 'POST', body: { path } }),
      ...responseSchema(downloadLinkSchema),
    }),
  }),
});

export const { useCreateDownloadLinkMutation } = downloadsApi;

/**
 * Has the browser download `url` (from createDownloadLink): it saves the server's stream
 * straight to a file, so no copy of the export is held by the page or the store.
 */
export function downloadFrom(url: string) {
  const link = document.createElement('a');
  link.href = `${API_HOST}${url}`;
  link.download = '';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}
