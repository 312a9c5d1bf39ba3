import type { z } from 'zod';

/**
 * An endpoint's `responseSchema` (RTK Query validates each answer against it and keeps
 * what the schema outputs), in development and tests only: a server that drifts from the
 * `common/` contract fails a test, and production builds skip the work (webpack replaces
 * `process.env.NODE_ENV`, so the branch is dropped).
 * @example getBook: build.query<Book, string>({ query: …, ...responseSchema(bookSchema) })
 */
export function responseSchema<T>(schema: z.ZodType<T>) {
  // RTK types the schema's input as the result type; the wire carries the output's shape.
  return process.env.NODE_ENV === 'production'
    ? {}
    : { responseSchema: schema as unknown as z.ZodType<T, T> };
}
