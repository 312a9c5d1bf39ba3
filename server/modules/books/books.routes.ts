import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@common/schemas/apiError';
import {
  bookExportQuerySchema,
  bookIdParamsSchema,
  bookInputSchema,
  bookListQuerySchema,
  bookLookupResultSchema,
  bookSchema,
  bookSearchQuerySchema,
  bookVersionParamsSchema,
} from '@common/schemas/books';
import { deletedItemSchema, versionListQuerySchema, versionSchema } from '@common/schemas/versions';
import type { Config } from '../../config';
import { lookUpBooks } from './bookLookup';
import {
  createBook,
  deleteBook,
  exportBooks,
  getBook,
  listBooks,
  listBookVersions,
  listDeletedBooks,
  restoreBook,
  updateBook,
} from './books.service';
import { actorOf } from '../../lib/audit';
import { baseVersions } from '../../lib/concurrency';
import { exportCompression, exportResponse, sendExport } from '../../lib/exports';

const errors = { 400: apiErrorSchema, 404: apiErrorSchema };
/** A write based on a stale version (VERSION_CONFLICT) too. */
const writeErrors = { ...errors, 409: apiErrorSchema };

/** The book library's API. */
export const booksRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    '/books',
    {
      schema: {
        querystring: bookListQuerySchema,
        response: { 200: z.array(bookSchema), ...errors },
      },
    },
    async (request) => listBooks(app.db, request.query),
  );

  app.get(
    '/books/export',
    {
      compress: exportCompression,
      config: { exportOf: '/api/books' },
      schema: {
        querystring: bookExportQuerySchema,
        response: {
          200: exportResponse('The books of the search, newest first'),
          400: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { format, columns, q } = request.query;
      const exported = exportBooks(app.db, { q });
      return sendExport(reply, exported, { format, columns });
    },
  );

  app.get(
    '/books/search-book',
    {
      schema: {
        querystring: bookSearchQuerySchema,
        response: {
          200: z.array(bookLookupResultSchema),
          400: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request) => lookUpBooks(request.query.title, config.booksApi),
  );

  app.get(
    '/books/:id',
    { schema: { params: bookIdParamsSchema, response: { 200: bookSchema, ...errors } } },
    async (request) => getBook(app.db, request.params.id),
  );

  app.post(
    '/books/add',
    { schema: { body: bookInputSchema, response: { 201: bookSchema, ...errors } } },
    async (request, reply) =>
      reply.status(201).send(await createBook(app.db, request.body, actorOf(request))),
  );

  app.put(
    '/books/:id',
    {
      schema: {
        params: bookIdParamsSchema,
        body: bookInputSchema,
        response: { 200: bookSchema, ...writeErrors },
      },
    },
    async (request) =>
      updateBook(app.db, request.params.id, request.body, actorOf(request), baseVersions(request)),
  );

  app.delete(
    '/books/:id',
    { schema: { params: bookIdParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteBook(app.db, request.params.id, actorOf(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/books/:id/versions',
    {
      schema: {
        params: bookIdParamsSchema,
        querystring: versionListQuerySchema,
        response: { 200: z.array(versionSchema), ...errors },
      },
    },
    async (request) => listBookVersions(app.db, request.params.id, request.query),
  );

  app.get(
    '/books/recently-deleted',
    { schema: { response: { 200: z.array(deletedItemSchema) } } },
    async () => listDeletedBooks(app.db),
  );

  app.post(
    '/books/:id/versions/:versionId/restore',
    { schema: { params: bookVersionParamsSchema, response: { 200: bookSchema, ...writeErrors } } },
    async (request) =>
      restoreBook(
        app.db,
        request.params.id,
        request.params.versionId,
        actorOf(request),
        baseVersions(request),
      ),
  );
};
