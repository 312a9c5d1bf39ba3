import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@common/schemas/apiError';

/** The contract's version: raised when a change could break a client. */
const API_VERSION = '1.0.0';

/**
 * The answers any route may give besides its own, all in the error shape: refusals of the
 * request itself, of who sends it, and what the server could not do.
 */
function commonErrors(schema: FastifySchema, access: 'public' | 'signedIn' | 'permitted') {
  return {
    // Malformed JSON, a bad parameter, or a refused value.
    400: apiErrorSchema,
    ...(access !== 'public' ? { 401: apiErrorSchema } : {}),
    // signedIn: a personal access token is refused (TOKEN_SCOPE).
    ...(access !== 'public' ? { 403: apiErrorSchema } : {}),
    ...(schema.body ? { 413: apiErrorSchema, 415: apiErrorSchema } : {}),
    // Overloaded (OVERLOADED) or without its database (DATABASE_UNAVAILABLE), with Retry-After.
    503: apiErrorSchema,
    // Anything else (500 included) answers in the error shape too.
    default: apiErrorSchema,
  };
}

/**
 * The API's contract as OpenAPI 3.1, made from the routes' own zod schemas as they are
 * registered: served at /api/openapi.json, and readable at /api/docs (Swagger UI, from
 * this server's files, under its content security policy). Every /api route is in it with
 * its request, its answers (errors included) and whether it needs a bearer token.
 * Registered before the routes: it hears of each as it is registered.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'LIMS demo API',
          version: API_VERSION,
          description:
            'Books, users, roles, dynamic entities and their records, route permissions, laboratory jobs, history and audit. Errors answer `{ statusCode, error, code, message }`.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: ({ schema, url, route, ...document }) => {
        if (!url.startsWith('/api/') || schema?.hide) return { schema: { hide: true }, url };
        const access = route.config?.public
          ? 'public'
          : route.config?.signedIn
            ? 'signedIn'
            : 'permitted';
        const withErrors = {
          ...schema,
          // Grouped by resource: the first segment after /api.
          tags: [url.split('/')[2]!],
          response: { ...commonErrors(schema ?? {}, access), ...(schema?.response ?? {}) },
          ...(access === 'public' ? {} : { security: [{ bearer: [] }] }),
        };
        return jsonSchemaTransform({ schema: withErrors, url, route, ...document });
      },
      transformObject: jsonSchemaTransformObject,
    });

    app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
      app.swagger(),
    );
    // The page and its files are public, as the document is.
    await app.register(async (docs) => {
      docs.addHook('onRoute', (route) => {
        route.config = { ...route.config, public: true };
      });
      // Its page loads its scripts from its own files, as our content security policy asks.
      await docs.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { deepLinking: true } });
    });
  },
  { name: 'openapi' },
);
