import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Book, BookInput, BookLookupResult } from '@common/schemas/books';
import { isRequestCanceled } from '@/api/errors';
import { useCan } from '@/auth/useCan';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { useNearBottom } from '@/hooks/useNearBottom';
import { useQuickSearch } from '@/hooks/useQuickSearch';
import { useReportedError } from '@/hooks/useReportedError';
import { useVersionedEdit } from '@/hooks/useVersionedEdit';
import { focusNeighbourLater } from '@/lib/focusNeighbour';
import { useAppDispatch } from '@/lib/store';
import { bookVersionsTag, deletedBooksTag } from '@/api/tags';
import { t } from '@/i18n/useT';
import { toastQueued, undoOffered } from '@/ui/ui.slice';
import { bookValues, joinAuthors } from './bookRules';
import {
  bookHistory,
  useDeleteBookMutation,
  useListBooksInfiniteQuery,
  useRestoreBookVersionMutation,
  useUpdateBookMutation,
} from './books.api';

/** What the signed-in user may do to the books, from the permissions call. */
function useBookPermissions() {
  const mayLookUp = useCan('GET', '/api/books/search-book');
  const mayUpdate = useCan('PUT', '/api/books/:id');
  const mayRead = useCan('GET', '/api/books/:id');
  const mayDelete = useCan('DELETE', '/api/books/:id');
  const mayReadVersions = useCan('GET', '/api/books/:id/versions');
  const mayRestore = useCan('POST', '/api/books/:id/versions/:versionId/restore');
  return useMemo(
    () => ({
      mayLookUp,
      mayUpdate,
      mayEdit: mayUpdate && mayRead,
      mayDelete,
      mayReadVersions,
      mayRestore: mayRestore && mayReadVersions,
    }),
    [mayLookUp, mayUpdate, mayRead, mayDelete, mayReadVersions, mayRestore],
  );
}

export type BookPermissions = ReturnType<typeof useBookPermissions>;

/** Where the edit form of book `id` is. */
export const bookEditPath = (id: string) => `/book/${id}/edit`;

/**
 * The book list's controller: the books loaded page by page as the reader scrolls (spec
 * section 4), a lookup's "Use This" applied on the one edit machine (its conflict's Edit
 * further opens the edit form with the lookup's values), deletion after confirmation, and
 * the histories.
 */
export function useBookList() {
  const search = useQuickSearch();
  const booksQuery = useListBooksInfiniteQuery(search.q);
  const { data, error, fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = booksQuery;
  const books = useMemo(() => data?.pages.flat() ?? [], [data]);
  const [updateBook] = useUpdateBookMutation();
  const [deleteBook] = useDeleteBookMutation();
  const [restoreBook] = useRestoreBookVersionMutation();
  const may = useBookPermissions();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // Which books show their lookup results: what the reader opened, not server data.
  const [openLookups, setOpenLookups] = useState<ReadonlySet<string>>(() => new Set());
  // A Use This the server refused (not a conflict): the book, and the values it refused.
  const [refused, setRefused] = useState<{ id: string; values: BookInput; reason: unknown }>();
  const [historyOf, setHistoryOf] = useState<Book>();
  // The values each Use This tried: what a deleted book's notice offers to copy.
  const tried = useRef<Record<string, BookInput>>({});

  useReportedError(messages.books.fetchContext, error);

  // A next page that failed stops the scrolling loads (else each scroll asks again and
  // toasts again); Retry asks for it. The duplicate-request rejection is ignored.
  const nextPageFailed = isFetchNextPageError && !isRequestCanceled(error);
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  useNearBottom(loadMore, hasNextPage && !isFetching && !nextPageFailed, data?.pages.length);

  /** Opens the edit form of book `id` with `values` typed in, over version `version`. */
  const editWith = useCallback(
    (id: string, values: BookInput, version: number) =>
      void navigate(bookEditPath(id), { state: { values, version } }),
    [navigate],
  );

  const edit = useVersionedEdit<Book, BookInput>({
    resource: 'books',
    // A list edits nothing for long: Use This is one click.
    editingId: undefined,
    itemOf: (id) => books.find((book) => book._id === id),
    valuesOf: bookValues,
    typedValues: (id) => tried.current[id]!,
    send: (id, values, version) => updateBook({ id, ...values, _version: version }).unwrap(),
    restore: may.mayRestore ? (id) => restoreBook({ id }).unwrap() : undefined,
    errorContext: messages.books.updateContext,
    onSettled: (id, book, kept) => {
      edit.end(id);
      setOpenLookups(new Set());
      if (kept === 'mine')
        dispatch(toastQueued(t('books.updated', { title: book.title }), 'success'));
    },
    onDiscarded: () => undefined,
    // Use This has no edit to go on with: Edit further opens the book's form.
    onEditFurther: (id, mine, theirs) => {
      edit.end(id);
      editWith(id, mine, theirs._version);
    },
    show: () => undefined,
    focus: (id) => focusBook(id),
  });

  /** Applies a lookup's `result` to `book`; resolves whether it was saved. */
  async function use(book: Book, result: BookLookupResult): Promise<boolean> {
    const values = {
      title: result.title,
      author: joinAuthors(result.authors),
      isbn: result.isbn ?? null,
    };
    setRefused(undefined);
    tried.current[book._id] = values;
    try {
      const stored = await edit.submit(book._id, values, book);
      if (!stored) return false;
      setOpenLookups(new Set());
      dispatch(toastQueued(t('books.updated', { title: stored.title }), 'success'));
      return true;
    } catch (failure) {
      // Refused (an ISBN the server will not take): the values can be corrected in the form.
      setRefused({ id: book._id, values, reason: failure });
      return false;
    }
  }

  const listRef = useRef<HTMLUListElement>(null);
  /** Puts the keyboard on book `id`'s card. */
  const focusBook = useCallback(
    (id: string) => listRef.current?.querySelector<HTMLElement>(`[data-book="${id}"]`)?.focus(),
    [],
  );
  // Back from a book's edit form: the keyboard is on that book, once it is listed.
  const { state } = useLocation();
  const focusAfterEdit = (state as { focusBook?: string } | null)?.focusBook;
  const listed = books.some((book) => book._id === focusAfterEdit);
  useEffect(() => {
    if (focusAfterEdit && listed) focusBook(focusAfterEdit);
  }, [focusAfterEdit, listed, focusBook]);
  const removal = useConfirmedAction(async (book: Book) => {
    const index = books.findIndex((listed) => listed._id === book._id);
    const focusNeighbour = focusNeighbourLater(listRef.current, index);
    await deleteBook(book._id).unwrap();
    const deleted = t('books.deleted', { title: book.title });
    dispatch(
      may.mayRestore
        ? undoOffered(deleted, {
            itemUrl: `/api/books/${book._id}`,
            invalidates: [{ type: 'Book', id: 'LIST' }, deletedBooksTag, bookVersionsTag(book._id)],
          })
        : toastQueued(deleted, 'success'),
    );
    focusNeighbour();
  }, messages.books.deleteContext);

  return {
    search,
    booksQuery,
    books,
    may,
    edit,
    listRef,
    isFetching,
    hasNextPage,
    nextPageFailed,
    loadMore,
    /** The book `id` as a sentence names it. */
    nameOf: (id: string) =>
      t('books.nameOf', { title: books.find((book) => book._id === id)?.title ?? '' }),
    lookups: {
      isOpen: (id: string) => openLookups.has(id),
      open: (id: string) => setOpenLookups((open) => new Set(open).add(id)),
    },
    use,
    refused,
    /** Opens the edit form with the refused values, to correct them. */
    correctRefused: () => {
      const book = refused && books.find((listed) => listed._id === refused.id);
      if (book && refused) editWith(book._id, refused.values, book._version);
    },
    removal,
    history: {
      endpoints: bookHistory,
      of: historyOf,
      open: setHistoryOf,
      close: () => setHistoryOf(undefined),
    },
  };
}

export type BookListController = ReturnType<typeof useBookList>;
