import { BOOK_PAGE_SIZE } from '@common/constants';
import type { Book, BookInput, BookLookupResult } from '@common/schemas/books';
import type { Version } from '@common/schemas/versions';
import { api } from '@/api/api';
import { nextBookPage } from './bookRules';

export const booksApi = api.injectEndpoints({
  endpoints: (build) => ({
    listBooks: build.infiniteQuery<Book[], void, number>({
      infiniteQueryOptions: {
        initialPageParam: 1,
        getNextPageParam: (lastPage, _allPages, lastPageParam) =>
          nextBookPage(lastPage, lastPageParam),
      },
      query: ({ pageParam }) => `/api/books?page=${pageParam}&perPage=${BOOK_PAGE_SIZE}`,
      providesTags: [{ type: 'Book', id: 'LIST' }],
    }),
    searchBook: build.query<BookLookupResult[], string>({
      query: (title) => `/api/books/search-book?title=${encodeURIComponent(title)}`,
    }),
    createBook: build.mutation<Book, BookInput>({
      query: (body) => ({ url: '/api/books/add', method: 'POST', body }),
      invalidatesTags: [{ type: 'Book', id: 'LIST' }],
    }),
    updateBook: build.mutation<Book, BookInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/api/books/${id}`, method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Book', id: 'LIST' },
        { type: 'Book', id },
      ],
    }),
    deleteBook: build.mutation<void, string>({
      query: (id) => ({ url: `/api/books/${id}`, method: 'DELETE' }),
      // The book leaves the loaded pages here, with no reload (spec section 4).
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // A refused deletion leaves the book; whoever asked for it reports why.
        }
        dispatch(
          booksApi.util.updateQueryData('listBooks', undefined, (draft) => {
            draft.pages = draft.pages.map((page) => page.filter((book) => book._id !== id));
          }),
        );
      },
    }),
    listBookVersions: build.query<Version[], string>({
      query: (id) => `/api/books/${id}/versions`,
      providesTags: (_result, _error, id) => [{ type: 'Book', id }],
    }),
  }),
});

export const {
  useListBooksInfiniteQuery,
  useLazySearchBookQuery,
  useCreateBookMutation,
  useUpdateBookMutation,
  useDeleteBookMutation,
  useListBookVersionsQuery,
} = booksApi;
