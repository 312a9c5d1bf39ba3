import { z } from 'zod';
import type { BookLookupResult } from '@common/schemas/books';
import { AppError } from '../../lib/errors';

/** The part of a Google Books volumes answer that a lookup reads. */
const volumesSchema = z.object({
  items: z
    .array(
      z.object({
        volumeInfo: z
          .object({
            title: z.string().optional(),
            authors: z.array(z.string()).optional(),
            description: z.string().optional(),
            industryIdentifiers: z
              .array(z.object({ type: z.string(), identifier: z.string() }))
              .optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});

export const NO_DESCRIPTION = 'No description available';

export interface BookLookupOptions {
  url: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

/**
 * Looks books up by title in the Google Books volumes API (or a service answering in its
 * format): at most 10, ISBN-13 preferred over ISBN-10, a default description.
 * @throws 502 when the service is unreachable, slow past the timeout, or answers an error.
 */
export async function lookUpBooks(
  title: string,
  { url, apiKey, timeoutMs }: BookLookupOptions,
): Promise<BookLookupResult[]> {
  const query = new URL(url);
  query.searchParams.set('q', `intitle:${title}`);
  query.searchParams.set('maxResults', '10');
  if (apiKey) query.searchParams.set('key', apiKey);

  let body: unknown;
  try {
    const response = await fetch(query, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`The book service answered ${response.status}`);
    body = await response.json();
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new AppError(
      502,
      'BOOK_LOOKUP_UNAVAILABLE',
      timedOut
        ? 'The book lookup service did not answer in time'
        : 'The book lookup service could not be reached or failed',
      { cause: error },
    );
  }
  const parsed = volumesSchema.safeParse(body);
  if (!parsed.success) {
    throw new AppError(
      502,
      'BOOK_LOOKUP_UNAVAILABLE',
      'The book lookup service answered something unexpected',
    );
  }
  return (parsed.data.items ?? []).slice(0, 10).map(({ volumeInfo = {} }) => {
    const ids = volumeInfo.industryIdentifiers ?? [];
    const isbn =
      ids.find((id) => id.type === 'ISBN_13')?.identifier ??
      ids.find((id) => id.type === 'ISBN_10')?.identifier ??
      null;
    return {
      title: volumeInfo.title ?? '',
      authors: volumeInfo.authors ?? [],
      isbn,
      description: volumeInfo.description || NO_DESCRIPTION,
    };
  });
}
