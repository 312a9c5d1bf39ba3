import AddIcon from '@mui/icons-material/Add';
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
import { useCallback, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Book, BookLookupResult } from '@common/schemas/books';
import { errorMessage, isRequestCanceled, reportError } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { PermissionGate } from '@/auth/PermissionGate';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageHeader } from '@/components/PageHeader';
import { useReportedError } from '@/hooks/useReportedError';
import { useConfirmedAction } from '@/hooks/useConfirmedAction';
import { VersionHistoryDialog } from '@/components/VersionHistoryDialog';
import { useNearBottom } from '@/hooks/useNearBottom';
import { toastQueued } from '@/ui/ui.slice';
import { joinAuthors } from './bookRules';
import {
  useDeleteBookMutation,
  useLazySearchBookQuery,
  useListBookVersionsQuery,
  useListBooksInfiniteQuery,
  useUpdateBookMutation,
} from './books.api';

function BookVersions({ book, onClose }: { book: Book; onClose(): void }) {
  const { data, isLoading, isError } = useListBookVersionsQuery(book._id);
  return (
    <VersionHistoryDialog
      title={`Versions of ${book.title}`}
      versions={data}
      isLoading={isLoading}
      failed={isError}
      onClose={onClose}
    />
  );
}

function LookupResults({
  results,
  onUse,
}: {
  results: BookLookupResult[];
  onUse(result: BookLookupResult): void;
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
          sx={{ p: 1.5, bgcolor: 'grey.100', borderRadius: 1 }}
        >
          <Typography variant="subtitle1">{result.title}</Typography>
          <Typography variant="body2">Authors: {joinAuthors(result.authors)}</Typography>
          <Typography variant="body2">ISBN: {result.isbn ?? 'none'}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ my: 0.5 }}>
            {result.description}
          </Typography>
          <Button size="small" variant="outlined" onClick={() => onUse(result)}>
            Use This
          </Button>
        </Box>
      ))}
    </Stack>
  );
}

/** The books, loaded page by page as the reader scrolls. */
function BookList() {
  const { data, error, fetchNextPage, hasNextPage, isFetching } = useListBooksInfiniteQuery();
  const [searchBook] = useLazySearchBookQuery();
  const [updateBook] = useUpdateBookMutation();
  const [deleteBook] = useDeleteBookMutation();
  const [results, setResults] = useState<Record<string, BookLookupResult[]>>({});
  // Why a lookup failed, per book: the toast's catch-all would not say the service is down.
  const [lookupFailures, setLookupFailures] = useState<Record<string, string>>({});
  const [historyOf, setHistoryOf] = useState<Book>();
  const dispatch = useAppDispatch();

  useReportedError(messages.books.fetchContext, error);

  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const books = data?.pages.flat() ?? [];
  useNearBottom(loadMore, hasNextPage && !isFetching, data?.pages.length);

  async function lookUp(book: Book) {
    setLookupFailures((current) =>
      Object.fromEntries(Object.entries(current).filter(([id]) => id !== book._id)),
    );
    try {
      const found = await searchBook(book.title).unwrap();
      setResults((current) => ({ ...current, [book._id]: found }));
    } catch (failure) {
      reportError(messages.books.lookupContext, failure);
      if (!isRequestCanceled(failure)) {
        setLookupFailures((current) => ({ ...current, [book._id]: errorMessage(failure) }));
      }
    }
  }

  async function use(book: Book, result: BookLookupResult) {
    try {
      await updateBook({
        id: book._id,
        title: result.title,
        author: joinAuthors(result.authors),
        isbn: result.isbn ?? undefined,
      }).unwrap();
      setResults({});
      dispatch(toastQueued(`Updated ${result.title}`, 'success'));
    } catch (failure) {
      reportError(messages.books.updateContext, failure);
    }
  }

  const removal = useConfirmedAction(async (book: Book) => {
    await deleteBook(book._id).unwrap();
    dispatch(toastQueued(`Deleted ${book.title}`, 'success'));
  }, messages.books.deleteContext);

  return (
    <Box>
      {error && !isRequestCanceled(error) && (
        <Alert severity="error" sx={{ mb: 2 }}>
          The books could not be loaded.
        </Alert>
      )}
      <Stack spacing={2} component="ul" aria-label="Books" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {books.map((book) => (
          <Card component="li" key={book._id} aria-label={book.title}>
            <CardContent>
              <Button
                onClick={() => void lookUp(book)}
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
              <Typography variant="body2" color="text.secondary">
                {book.author ?? 'Unknown author'}
                {book.isbn ? ` · ISBN ${book.isbn}` : ''}
              </Typography>
              {lookupFailures[book._id] && (
                <Alert severity="warning" sx={{ mt: 1.5 }}>
                  {lookupFailures[book._id]}
                </Alert>
              )}
              {results[book._id] && (
                <Box sx={{ mt: 1.5 }}>
                  <LookupResults
                    results={results[book._id]!}
                    onUse={(result) => void use(book, result)}
                  />
                </Box>
              )}
            </CardContent>
            <CardActions>
              <Button size="small" startIcon={<HistoryIcon />} onClick={() => setHistoryOf(book)}>
                Versions
              </Button>
              <Button
                size="small"
                color="error"
                startIcon={<DeleteIcon />}
                onClick={() => removal.ask(book)}
              >
                Delete
              </Button>
            </CardActions>
          </Card>
        ))}
      </Stack>
      {isFetching && <LinearProgress aria-label="Loading books" sx={{ mt: 2 }} />}
      {!hasNextPage && books.length > 0 && (
        <Typography color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
          That is every book.
        </Typography>
      )}
      {historyOf && <BookVersions book={historyOf} onClose={() => setHistoryOf(undefined)} />}
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
  return (
    <Box>
      <PageHeader title="Books">
        <Button variant="contained" startIcon={<AddIcon />} component={RouterLink} to="/book">
          Add Book
        </Button>
      </PageHeader>
      <PermissionGate verb="GET" path="/api/books" what="reading the books">
        <BookList />
      </PermissionGate>
    </Box>
  );
}
