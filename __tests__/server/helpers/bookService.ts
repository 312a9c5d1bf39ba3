import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A local HTTP server answering in the Google Books volumes format, standing in for the
 * book lookup service. Each test sets how it answers; it records the queries it gets.
 */
export async function startBookService() {
  let handler: Handler = (_req, res) => res.end(JSON.stringify({ totalItems: 0 }));
  const queries: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    queries.push(new URL(req.url!, 'http://x').searchParams);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/books/v1/volumes`,
    queries,
    answer(status: number, body: unknown) {
      handler = (_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
    },
    /** Never answers (until the server closes). */
    hang() {
      handler = () => {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A volume as Google Books describes it. */
export const volume = (
  title: string,
  extra: { authors?: string[]; description?: string; ids?: Record<string, string> } = {},
) => ({
  volumeInfo: {
    title,
    authors: extra.authors,
    description: extra.description,
    industryIdentifiers: Object.entries(extra.ids ?? {}).map(([type, identifier]) => ({
      type,
      identifier,
    })),
  },
});
