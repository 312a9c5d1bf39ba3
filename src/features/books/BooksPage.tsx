import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import HistoryIcon from '@mui/icons-material/History';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useCallback, useRef, useState } from 'react';
import { messages } from '@common/messages';
import type { Book, BookLookupResult } from '@common/schemas/books';
import type { DeletedItem, Version } from '@common/schemas/versions';
import { conflictCurrent, errorMessage, isRequestCanceled, reportError } from '@/api/errors';
import { useAppDispatch } from '@/lib/store';
import { useCan } from '@/auth/useCan';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { ConflictDialog } from '@/components/ConflictDialog';
import { ListPage } from '@/components/ListPage';
import { QueryState } from '@/components/QueryState';
import { RecentlyDeletedButton } from '@/components/RecentlyDeletedButton';
import { RecentlyDeletedDialog, failedTo, restored } from '@/components/RecentlyDeletedDialog';
import { useReportedError } from '@/hooks/useReportedError';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { VersionHistoryDialog } from '@/components/VersionHistoryDialog';
import { useNearBottom } from '@/hooks/useNearBottom';
import { focusNeighbourLater } from '@/lib/focusNeighbour';
import { toastQueued } from '@/ui/ui.slice';
import { joinAuthors } from './bookRules';
import {
  useDeleteBookMutation,
  useLazySearchBookQuery,
  useListBookVersionsInfiniteQuery,
  useListBooksInfiniteQuery,
  useListDeletedBooksQuery,
  useRestoreBookVersionMutation,
  useUpdateBookMutation,
} from './books.api';

const RESTORE_PATH = '/api/books/:id/versions/:versionId/restore';

function BookVersions({ book, onClose }: { book: Book; onClose(): void }) {
  const history = useListBookVersionsInfiniteQuery(book._id);
  const mayRestore = useCan('POST', RESTORE_PATH);
  const [restoreVersion] = useRestoreBookVersionMutation();
  const restore = (version: Version, current?: number) =>
    restoreVersion({ id: book._id, versionId: version._id, version: current })
      .unwrap()
      .catch((error: unknown) => reportError(messages.books.restoreContext, error));
  return (
    <VersionHistoryDialog
      title={`Versions of ${book.title}`}
      history={history}
      onClose={onClose}
      onRestore={mayRestore ? restore : undefined}
    />
  );
}

function DeletedBooks({ onClose }: { onClose(): void }) {
  const { data, isLoading, isError } = useListDeletedBooksQuery();
  const mayRestore = useCan('POST', RESTORE_PATH);
  const [restoreVersion] = useRestoreBookVersionMutation();
  const restore = (item: DeletedItem) =>
    restoreVersion({ id: item._id, versionId: item.versionId })
      .unwrap()
      .then(restored, failedTo(messages.books.restoreContext));
  return (
    <RecentlyDeletedDialog
      title="Recently deleted books"
      items={data}
      isLoading={isLoading}
      isError={isError}
      nameOf={(item) => String(item.document.title)}
      onClose={onClose}
      onRestore={mayRestore ? restore : undefined}
    />
  );
}

function LookupResults({
  results,
  onUse,
}: {
  results: BookLookupResult[];
  /** Absent when the user may not update books: no Use This. */
  onUse?(result: BookLookupResult): void;
}) {
  if (results.length === 0)
    return <Typography color="text.secondary">No book found with this title.</Typography>;
  return (
    <Stack
      spacing={1}
      component="ul"
      sx={{ listStyle: 'none', p: 0, m: 0 }}
      aria-label="Search results"
    >
      {results.map((result, index) => (
        <Box
          component="li"
          key={`${result.isbn ?? ''}-${index}`}
          // A border, not a grey ground: the blue Use This reads at 4.2:1 on grey.
          sx={{ p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}
        >
          <Typography variant="subtitle1" component="p">
            {result.title}
          </Typography>
          <Typography variant="body2">Authors: {joinAuthors(result.authors)}</Typography>
          <Typography variant="body2">ISBN: {result.isbn ?? 'none'}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ my: 0.5 }}>
            {result.description}
          </Typography>
          {onUse && (
            <Button size="small" variant="outlined" onClick={() => onUse(result)}>
              Use This
            </Button>
          )}
        </Box>
      ))}
    </Stack>
  );
}

/** A book's values, as a save sends them and a comparison shows them. */
type BookFields = Pick<Book, 'title' | 'author' | 'isbn'>;
const fieldsOf = ({ title, author, isbn }: Book): BookFields => ({ title, author, isbn });

/** What the signed-in user may do to the books, from the permissions call. */
function useBookPermissions() {
  return {
    mayLookUp: useCan('GET', '/api/books/search-book'),
    mayUpdate: useCan('PUT', '/api/books/:id'),
    mayDelete: useCan('DELETE', '/api/books/:id'),
    mayReadVersions: useCan('GET', '/api/books/:id/versions'),
  };
}

interface BookCardProps {
  book: Book;
  may: ReturnType<typeof useBookPermissions>;
  /** Whether this book's lookup results show (they clear after any Use This). */
  showsLookup: boolean;
  onLookUp(): void;
  /** Applies `result` to the book; resolves whether it was saved. */
  onUse(result: BookLookupResult): Promise<boolean>;
  onVersions(): void;
  onDelete(): void;
}

/**
 * One book, with the actions the user may take. Its lookup's results stay in the cache
 * (one entry per title), read here through the hook: nothing is copied into state.
 */
function BookCard({
  book,
  may,
  showsLookup,
  onLookUp,
  onUse,
  onVersions,
  onDelete,
}: BookCardProps) {
  const [searchBook, lookup] = useLazySearchBookQuery();
  useReportedError(messages.books.lookupContext, lookup.error);
  // The catch-all toast would mislead when the lookup service is down
  // (BOOK_LOOKUP_UNAVAILABLE): the card says what happened.
  const failure =
    showsLookup && lookup.error && !isRequestCanceled(lookup.error) && !lookup.isFetching
      ? errorMessage(lookup.error)
      : undefined;
  const results = showsLookup && !lookup.isError ? lookup.currentData : undefined;
  const hasActions = may.mayReadVersions || may.mayDelete;
  const titleRef = useRef<HTMLButtonElement>(null);

  // Use This goes away with the results it sat in: the keyboard goes back to the title.
  async function applyResult(result: BookLookupResult) {
    if (await onUse(result)) titleRef.current?.focus();
  }

  return (
    <Card component="li" aria-label={book.title} tabIndex={-1}>
      <CardContent>
        {may.mayLookUp ? (
          <Button
            ref={titleRef}
            onClick={() => {
              onLookUp();
              void searchBook(book.title);
            }}
            sx={{
              textTransform: 'none',
              fontSize: '1.15rem',
              p: 0,
              justifyContent: 'flex-start',
              textAlign: 'left',
              // A long title without spaces wraps instead of running off the card.
              overflowWrap: 'anywhere',
            }}
            title="Look this title up"
          >
            {book.title}
          </Button>
        ) : (
          <Typography sx={{ fontSize: '1.15rem', overflowWrap: 'anywhere' }}>
            {book.title}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary">
          {book.author ?? 'Unknown author'}
          {book.isbn ? ` · ISBN ${book.isbn}` : ''}
        </Typography>
        {failure && (
          <Alert severity="warning" sx={{ mt: 1.5 }}>
            {failure}
          </Alert>
        )}
        {results && (
          <Box sx={{ mt: 1.5 }}>
            <LookupResults
              results={results}
              onUse={may.mayUpdate ? (result) => void applyResult(result) : undefined}
            />
          </Box>
        )}
      </CardContent>
      {hasActions && (
        <CardActions>
          {may.mayReadVersions && (
            <Button size="small" startIcon={<HistoryIcon />} onClick={onVersions}>
              Versions
            </Button>
          )}
          {may.mayDelete && (
            <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={onDelete}>
              Delete
            </Button>
          )}
        </CardActions>
      )}
    </Card>
  );
}

/** The books, loaded page by page as the reader scrolls (spec section 4). */
function BookList({ mayAdd }: { mayAdd: boolean }) {
  const booksQuery = useListBooksInfiniteQuery();
  const { data, error, fetchNextPage, hasNextPage, isFetching, isFetchNextPageError } = booksQuery;
  const [updateBook] = useUpdateBookMutation();
  const [deleteBook] = useDeleteBookMutation();
  const may = useBookPermissions();
  // Which books show their lookup results: what the reader opened, not server data.
  const [openLookups, setOpenLookups] = useState<ReadonlySet<string>>(() => new Set());
  const [historyOf, setHistoryOf] = useState<Book>();
  const dispatch = useAppDispatch();

  useReportedError(messages.books.fetchContext, error);

  // A next page that failed stops the scrolling loads (else each scroll asks again and
  // toasts again); Retry asks for it. The duplicate-request rejection is ignored.
  const nextPageFailed = isFetchNextPageError && !isRequestCanceled(error);
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  useNearBottom(loadMore, hasNextPage && !isFetching && !nextPageFailed, data?.pages.length);

  // A Use This that met a newer version of the book: theirs against the lookup's values.
  const [conflict, setConflict] = useState<{ base: Book; mine: BookFields; theirs: Book }>();

  /** Saves `fields` over version `base._version` of the book; resolves whether it was saved. */
  async function save(base: Book, fields: BookFields, version = base._version): Promise<boolean> {
    try {
      await updateBook({ id: base._id, ...fields, _version: version }).unwrap();
      setOpenLookups(new Set());
      setConflict(undefined);
      dispatch(toastQueued(`Updated ${fields.title}`, 'success'));
      return true;
    } catch (failure) {
      const theirs = conflictCurrent<Book>(failure);
      if (theirs) setConflict({ base, mine: fields, theirs });
      else reportError(messages.books.updateContext, failure);
      return false;
    }
  }

  const use = (book: Book, result: BookLookupResult) =>
    save(book, {
      title: result.title,
      author: joinAuthors(result.authors),
      isbn: result.isbn ?? null,
    });

  const listRef = useRef<HTMLUListElement>(null);
  const removal = useConfirmedAction(async (book: Book) => {
    const index = (data?.pages.flat() ?? []).findIndex((listed) => listed._id === book._id);
    const focusNeighbour = focusNeighbourLater(listRef.current, index);
    await deleteBook(book._id).unwrap();
    dispatch(toastQueued(`Deleted ${book.title}`, 'success'));
    focusNeighbour();
  }, messages.books.deleteContext);

  return (
    <Box>
      <QueryState
        query={booksQuery}
        what="books"
        isEmpty={(loaded) => loaded.pages.every((page) => page.length === 0)}
        empty="No books yet"
        emptyAction={mayAdd ? { label: 'Add one', to: '/book' } : undefined}
      >
        {(loaded) => {
          const books = loaded.pages.flat();
          return (
            <>
              <Stack
                ref={listRef}
                spacing={2}
                component="ul"
                aria-label="Books"
                sx={{ listStyle: 'none', p: 0, m: 0 }}
              >
                {books.map((book) => (
                  <BookCard
                    key={book._id}
                    book={book}
                    may={may}
                    showsLookup={openLookups.has(book._id)}
                    onLookUp={() => setOpenLookups((open) => new Set(open).add(book._id))}
                    onUse={(result) => use(book, result)}
                    onVersions={() => setHistoryOf(book)}
                    onDelete={() => removal.ask(book)}
                  />
                ))}
              </Stack>
              {isFetching && (
                <LinearProgress aria-label={messages.client.loading('books')} sx={{ mt: 2 }} />
              )}
              {nextPageFailed && !isFetching && (
                <Alert
                  severity="error"
                  sx={{ mt: 2 }}
                  action={
                    <Button color="inherit" size="small" onClick={loadMore}>
                      {messages.client.retry}
                    </Button>
                  }
                >
                  {messages.client.loadFailed('next page of books')}
                </Alert>
              )}
              {!hasNextPage && (
                <Typography color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
                  That is every book.
                </Typography>
              )}
            </>
          );
        }}
      </QueryState>
      {historyOf && <BookVersions book={historyOf} onClose={() => setHistoryOf(undefined)} />}
      {conflict && (
        <ConflictDialog
          what={`the book ${conflict.base.title}`}
          base={fieldsOf(conflict.base)}
          theirs={fieldsOf(conflict.theirs)}
          mine={conflict.mine}
          labelOf={(field) => ({ title: 'Title', author: 'Author', isbn: 'ISBN' })[field] ?? field}
          onKeepTheirs={() => setConflict(undefined)}
          onEditFurther={() => setConflict(undefined)}
          onApplyMine={() => void save(conflict.base, conflict.mine, conflict.theirs._version)}
        />
      )}
      <ConfirmDialog
        {...removal.dialog}
        title="Delete book"
        message={`Delete ${removal.pending?.title ?? ''}?`}
      />
    </Box>
  );
}

/** `/books`: the library; a user whose role may not read it is told so. */
export function BooksPage() {
  const mayListDeleted = useCan('GET', '/api/books/recently-deleted');
  return (
    <ListPage
      title="Books"
      read={{ path: '/api/books', what: 'reading the books' }}
      add={{ label: 'Add Book', to: '/book', path: '/api/books/add' }}
      actions={
        mayListDeleted && (
          <RecentlyDeletedButton dialog={(onClose) => <DeletedBooks onClose={onClose} />} />
        )
      }
    >
      {(mayAdd) => <BookList mayAdd={mayAdd} />}
    </ListPage>
  );
}
