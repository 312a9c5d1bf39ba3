import { z } from 'zod';
import { BOOK_PAGE_SIZE } from '@common/constants';
import {
  type Book,
  type BookInput,
  type BookLookupResult,
  bookLookupResultSchema,
  bookSchema,
} from '@common/schemas/books';
import {
  type DeletedItem,
  type Version,
  deletedItemSchema,
  versionSchema,
} from '@common/schemas/versions';
import { messages } from '@common/messages';
import { api } from '@/api/api';
import { responseSchema } from '@/api/responseSchema';
import { bookVersionsTag, deletedBooksTag } from '@/api/tags';
import type { HistoryEndpoints } from '@/components/ItemHistory';
import type { MessageId } from '@/i18n/i18n';
import { t } from '@/i18n/useT';
import { restoreItem, versionPageQuery, versionPages } from '@/lib/versions';
import { nextBookPage } from './bookRules';

export const booksApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The books, newest first, a page at a time; `q`: only those with every word (or ''). */
    listBooks: build.infiniteQuery<Book[], string, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _allPages, lastPageParam) =>
          nextBookPage(lastPage, lastPageParam),
      },
      query: ({ pageParam, queryArg: q }) =>
        `/api/books?page=${pageParam}&perPage=${BOOK_PAGE_SIZE}${q ? `&q=${encodeURIComponent(q)}` : ''}`,
      providesTags: (result) => [
        { type: 'Book', id: 'LIST' },
        ...(result?.pages.flat() ?? []).map((book) => ({ type: 'Book' as const, id: book._id })),
      ],
      ...responseSchema(z.array(bookSchema)),
    }),
    getBook: build.query<Book, string>({
      query: (id) => `/api/books/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'Book', id }],
      ...responseSchema(bookSchema),
    }),
    searchBook: build.query<BookLookupResult[], string>({
      query: (title) => `/api/books/search-book?title=${encodeURIComponent(title)}`,
      ...responseSchema(z.array(bookLookupResultSchema)),
    }),
    /** A new book is the newest: the pages shift, so the list reloads. */
    createBook: build.mutation<Book, BookInput>({
      query: (body) => ({ url: '/api/books/add', method: 'POST', body }),
      extraOptions: { shownInForm: true },
      invalidatesTags: (_result, error) => (error ? [] : [{ type: 'Book', id: 'LIST' }]),
      ...responseSchema(bookSchema),
    }),
    /**
     * The list reloads after an update (spec section 4); the book's versions changed; the
     * stored book replaces the one read alone (the edit form's).
     */
    updateBook: build.mutation<Book, BookInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/api/books/${id}`, method: 'PUT', body }),
      // A stale `_version` or a deleted book: the edit machine shows it.
      extraOptions: { editorShown: true },
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : [{ type: 'Book', id: 'LIST' }, bookVersionsTag(id)],
      ...responseSchema(bookSchema),
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        let stored: Book;
        try {
          stored = (await queryFulfilled).data;
        } catch {
          return; // Refused: whoever asked for it says why.
        }
        dispatch(booksApi.util.upsertQueryData('getBook', id, stored));
      },
    }),
    deleteBook: build.mutation<void, string>({
      query: (id) => ({ url: `/api/books/${id}`, method: 'DELETE' }),
      // Not the book's own tag, which the list provides: the book leaves the loaded pages
      // here, with no reload (spec section 4).
      invalidatesTags: (_result, error, id) =>
        error ? [] : [bookVersionsTag(id), deletedBooksTag],
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // A refused deletion leaves the book; whoever asked for it reports why.
        }
        // From every search's loaded pages.
        for (const q of booksApi.util.selectCachedArgsForQuery(getState(), 'listBooks')) {
          dispatch(
            booksApi.util.updateQueryData('listBooks', q, (draft) => {
              draft.pages = draft.pages.map((page) => page.filter((book) => book._id !== id));
            }),
          );
        }
      },
    }),
    /**
     * The restored book may be anywhere in the pages (or back from a delete): they reload.
     * Without `versionId`: the book as it was deleted.
     */
    restoreBookVersion: build.mutation<Book, { id: string; versionId?: string; version?: number }>({
      queryFn: ({ id, versionId, version }, _api, _extra, baseQuery) =>
        restoreItem(baseQuery, `/api/books/${id}`, versionId, version),
      invalidatesTags: (_result, error, { id }) =>
        error
          ? []
          : [
              { type: 'Book', id: 'LIST' },
              { type: 'Book', id },
              bookVersionsTag(id),
              deletedBooksTag,
            ],
      ...responseSchema(bookSchema),
    }),
    listBookVersions: build.infiniteQuery<Version[], string, number>({
      infiniteQueryOptions: versionPages,
      query: ({ queryArg: id, pageParam }) =>
        `/api/books/${id}/versions${versionPageQuery(pageParam)}`,
      providesTags: (_result, _error, id) => [bookVersionsTag(id)],
      ...responseSchema(z.array(versionSchema)),
    }),
    listDeletedBooks: build.query<DeletedItem[], void>({
      query: () => '/api/books/recently-deleted',
      providesTags: [deletedBooksTag],
      ...responseSchema(z.array(deletedItemSchema)),
    }),
  }),
});

export const {
  useListBooksInfiniteQuery,
  useGetBookQuery,
  useLazySearchBookQuery,
  useCreateBookMutation,
  useUpdateBookMutation,
  useDeleteBookMutation,
  useListBookVersionsInfiniteQuery,
  useListDeletedBooksQuery,
  useRestoreBookVersionMutation,
} = booksApi;

/** The book form's labels of a book's fields, in its order, for its history. */
const bookLabels: Record<string, MessageId> = {
  title: 'books.fieldTitle',
  author: 'books.fieldAuthor',
  isbn: 'books.fieldIsbn',
};

/** The books' history, for the shared history components. */
export const bookHistory: HistoryEndpoints<string, Book> = {
  useVersions: (id) => useListBookVersionsInfiniteQuery(id),
  useRestore() {
    const [restore] = useRestoreBookVersionMutation();
    return (id, versionId, version) => restore({ id, versionId, version }).unwrap();
  },
  useDeleted: () => useListDeletedBooksQuery(),
  keyOfDeleted: (item) => item._id,
  deletedPath: '/api/books/recently-deleted',
  restorePath: '/api/books/:id/versions/:versionId/restore',
  restoreContext: messages.books.restoreContext,
  fields: {
    order: Object.keys(bookLabels),
    labelOf: (field) => (field in bookLabels ? t(bookLabels[field]!) : field),
  },
};
