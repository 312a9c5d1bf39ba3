import { z } from 'zod';

/** A 1-indexed page number of a query string. */
export const pageNumberSchema = z.coerce
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1');

/** A page size of a query string, 1 to 100. */
export const pageSizeSchema = z.coerce
  .number()
  .int('must be a whole number')
  .min(1, 'must be between 1 and 100')
  .max(100, 'must be between 1 and 100');

/** A page size of a query string, 1 to 100, `size` when absent. */
export const perPageSchema = (size: number) => pageSizeSchema.default(size);
