import { z } from 'zod';
import { exportOptionsSchema, quickSearchSchema } from './exports';
import { BOOK_PAGE_SIZE } from '../constants';
import { isValidIsbn, normaliseIsbn } from '../isbn';
import { baseVersionField, itemVersionSchema } from './itemVersion';
import { pageNumberSchema, perPageSchema } from './paging';
import { singleLineText } from './text';
import { versionIdSchema } from './versions';

/** A book (spec section 3). */
export const bookSchema = z.object({
  _id: z.string(),
  title: z.string(),
  author: z.string().nullable(),
  isbn: z.string().nullable(),
  _version: itemVersionSchema,
});

const emptyAsNull = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : value;

/** `POST /api/books/add` and `PUT /api/books/{id}`: only the title is required. */
export const bookInputSchema = z.object({
  title: singleLineText({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(300, 'must be at most 300 characters'),
  author: z.preprocess(
    emptyAsNull,
    singleLineText().trim().max(300, 'must be at most 300 characters').nullable().optional(),
  ),
  isbn: z.preprocess(
    emptyAsNull,
    singleLineText()
      .refine(isValidIsbn, 'must be a valid ISBN-10 or ISBN-13')
      .transform(normaliseIsbn)
      .nullable()
      .optional(),
  ),
  ...baseVersionField,
});

/** `GET /api/books?page&perPage`: 1-indexed pages. */
export const bookListQuerySchema = z.object({
  page: pageNumberSchema.default(1),
  perPage: perPageSchema(BOOK_PAGE_SIZE),
  /** Every word in the title, author or ISBN (case-insensitive). */
  q: quickSearchSchema,
});

/** `GET /api/books/export`: the list's search, newest first, and the export's options. */
export const bookExportQuerySchema = exportOptionsSchema.extend({ q: quickSearchSchema });

/** `GET /api/books/search-book?title=`. */
export const bookSearchQuerySchema = z.object({
  title: singleLineText({ error: 'is required' }).trim().min(1, 'is required').max(300),
});

/** A book found by the lookup service (spec section 3). */
export const bookLookupResultSchema = z.object({
  title: z.string(),
  authors: z.array(z.string()),
  isbn: z.string().nullable(),
  description: z.string(),
});

export const bookIdParamsSchema = z.object({ id: z.uuid('must be a book id') });

/** `POST /api/books/{id}/versions/{versionId}/restore`. */
export const bookVersionParamsSchema = bookIdParamsSchema.extend({ versionId: versionIdSchema });

export type Book = z.infer<typeof bookSchema>;
export type BookInput = z.input<typeof bookInputSchema>;
export type BookLookupResult = z.infer<typeof bookLookupResultSchema>;
