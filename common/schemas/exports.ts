import { z } from 'zod';
import { singleLineText } from './text';

/** The formats a grid exports to. */
export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * What every export takes besides its list's own filter and sort: the format, and the
 * columns to write (names, comma-separated, in order; all of the list's when absent).
 */
export const exportOptionsSchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: 'must be csv or json' }).default('csv'),
  columns: singleLineText().max(2000, 'must be at most 2000 characters').optional(),
  /** A download link's ticket (`POST /api/auth/download-link`), in place of the access token. */
  ticket: z.string().max(4000).optional(),
});

/** `POST /api/auth/download-link`: the export to download, as a path with its query. */
export const downloadLinkRequestSchema = z.object({
  path: singleLineText()
    .max(4000, 'must be at most 4000 characters')
    .regex(/^\/api\/[^?#]*\/export(\?[^#]*)?$/, 'must be an export of the API'),
});

/**
 * A link that downloads the export as the signed-in user for a minute, without a header:
 * the browser saves it straight to a file.
 */
export const downloadLinkSchema = z.object({ url: z.string() });

/**
 * A list's `sort` parameter: `field:asc` or `field:desc`, for one of the list's sortable
 * fields; its default order when absent.
 */
export const sortParamSchema = <const Field extends string>(fields: readonly Field[]) =>
  z
    .enum(
      fields.flatMap((field) => [`${field}:asc`, `${field}:desc`] as const),
      {
        error: `must be one of ${fields.map((field) => `${field}:asc, ${field}:desc`).join(', ')}`,
      },
    )
    .optional();

/** A list's quick search: every word a case-insensitive substring of one of its text fields. */
export const quickSearchSchema = singleLineText()
  .trim()
  .max(200, 'must be at most 200 characters')
  .optional();
export type DownloadLink = z.infer<typeof downloadLinkSchema>;
