import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@common/messages';
import { apiErrorBody } from './errors';

/** Built assets carry a content hash in their name (webpack), so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Whether a request's URL is the API's (under /api), rather than the web app's. */
export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0]!;
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * Serves the built web app from `staticDir`: assets with long-lived caching, and
 * index.html (never cached, so a new deploy is picked up) for every other path outside
 * /api, which lets the SPA's router handle deep links. Unknown /api paths answer 404 JSON.
 */
export const spaPlugin = fp(
  async (app: FastifyInstance, { staticDir }: { staticDir: string }) => {
    const built = existsSync(path.join(staticDir, 'index.html'));
    if (built) {
      await app.register(fastifyStatic, {
        root: staticDir,
        wildcard: false,
        index: false,
        // The build writes a .br and a .gz beside every file: served by Accept-Encoding.
        preCompressed: true,
        setHeaders: (res, filePath) => {
          const inAssets = path.relative(staticDir, filePath).startsWith(`assets${path.sep}`);
          res.header('cache-control', inAssets ? IMMUTABLE : 'no-cache');
        },
      });
    }

    app.setNotFoundHandler((request, reply) => {
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url);
      if (!isPage) {
        return reply
          .status(404)
          .send(apiErrorBody(404, 'NOT_FOUND', messages.server.apiRouteNotFound));
      }
      if (!built)
        return reply
          .status(503)
          .send(apiErrorBody(503, 'CLIENT_NOT_BUILT', messages.server.clientNotBuilt));
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  },
  { name: 'spa' },
);
