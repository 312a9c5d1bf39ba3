import { createHash } from 'node:crypto';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { COLOR_SCHEME_SCRIPT } from '@common/colorScheme';
import type { Config } from '../config';

/** The one inline script index.html runs (its colour scheme's), by its hash. */
const COLOR_SCHEME_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(COLOR_SCHEME_SCRIPT).digest('base64')}'`;

/**
 * Security headers on every response, and CORS for the configured origins only.
 * Scripts may come from our own origin alone, but for index.html's colour-scheme script
 * (named by its hash); MUI's emotion injects <style> tags,
 * hence 'unsafe-inline' for styles (and only for styles).
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    // Built once (the Fastify wrapper rebuilt it on every request, 3 % of the server's time).
    const securityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", COLOR_SCHEME_SCRIPT_SOURCE],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'https:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'", ...config.corsOrigins],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      referrerPolicy: { policy: 'no-referrer' },
      frameguard: { action: 'deny' },
      // Same-origin SPA: nothing of ours is embedded cross-origin.
      crossOriginEmbedderPolicy: false,
    });
    app.addHook('onRequest', (request, reply, done) => {
      securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined));
    });
    const allowedOrigins = new Set(config.corsOrigins);
    await app.register(cors, {
      // A request from any other origin (or none) gets no CORS header at all: with a list,
      // the plugin still told every origin `Access-Control-Allow-Credentials: true`.
      origin: (origin, allow) => allow(null, origin !== undefined && allowedOrigins.has(origin)),
      credentials: true,
      // Every method our routes use (the default stops at GET, HEAD and POST).
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      // A cross-origin client reads an item's version for its next If-Match.
      exposedHeaders: ['ETag'],
    });
  },
  { name: 'security' },
);
