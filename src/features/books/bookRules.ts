import { BOOK_PAGE_SIZE } from '@common/constants';
import { messages } from '@common/messages';
import type { Book, BookInput } from '@common/schemas/books';
import type { MessageId } from '@/i18n/i18n';

/**
 * The next page to load after `lastPage` (spec section 4): none once a page comes back
 * with fewer books than the page size, or with no data.
 */
export function nextBookPage(
  lastPage: unknown[] | undefined,
  lastPageParam: number,
): number | undefined {
  if (!lastPage || lastPage.length < BOOK_PAGE_SIZE) return undefined;
  return lastPageParam + 1;
}

/**
 * A book's author from a lookup's authors (spec section 3): the value Use This stores, so
 * `unknown author` is the same in every language (the screens translate it when they show
 * a lookup's result or a book with no author).
 */
export function joinAuthors(authors: string[]): string {
  return authors.length > 0 ? authors.join(', ') : messages.books.unknownAuthor;
}

/** What an edit of a book changes and sends. */
export const bookValues = ({ title, author, isbn }: Book): BookInput => ({ title, author, isbn });

/** The book's fields as the forms label them (for the notices' comparisons and copies). */
export const BOOK_LABELS: Record<string, MessageId> = {
  title: 'books.fieldTitle',
  author: 'books.fieldAuthor',
  isbn: 'books.fieldIsbn',
};
