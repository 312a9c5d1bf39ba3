import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { messages } from '@common/messages';
import { AppError } from '../lib/errors';
import { isApiPath } from './spa';

/** How long an overloaded server asks clients to wait. */
const RETRY_AFTER_S = 5;

/**
 * Sheds load before the event loop stalls: once the loop's delay passes
 * `maxEventLoopDelayMs` (sampled every 250 ms), API requests answer 503 OVERLOADED with
 * Retry-After at once, rather than queueing behind work the server cannot finish in time.
 * The web app's own files are still served: they cost next to nothing (compressed at build
 * time), and a script refused midway left the app on its error page until a reload.
 */
export const overloadPlugin = fp(
  async (app: FastifyInstance, { maxEventLoopDelayMs }: { maxEventLoopDelayMs: number }) => {
    if (maxEventLoopDelayMs === 0) return;
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      sampleInterval: 250,
      pressureHandler: async (request) => {
        if (!isApiPath(request.url)) return;
        throw new AppError(503, 'OVERLOADED', messages.server.overloaded, {
          headers: { 'retry-after': String(RETRY_AFTER_S) },
        });
      },
    });
  },
  { name: 'overload' },
);
