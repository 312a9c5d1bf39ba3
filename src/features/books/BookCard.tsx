import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/Edit';
import HistoryIcon from '@mui/icons-material/History';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Stack,
  Typography,
} from '@mui/material';
import { useRef } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Book, BookLookupResult } from '@common/schemas/books';
import { errorMessage, isRequestCanceled } from '@/api/errors';
import { useReportedError } from '@/hooks/useReportedError';
import { editingSentence } from '@/lib/editing';
import { useT } from '@/i18n/useT';
import { useLazySearchBookQuery } from './books.api';
import { bookEditPath, type BookPermissions } from './useBookList';

function LookupResults({
  results,
  onUse,
}: {
  results: BookLookupResult[];
  /** Absent when the user may not update books: no Use This. */
  onUse?(result: BookLookupResult): void;
}) {
  const t = useT();
  if (results.length === 0)
    return <Typography color="text.secondary">{t('books.noResult')}</Typography>;
  return (
    <Stack
      spacing={1}
      component="ul"
      sx={{ listStyle: 'none', p: 0, m: 0 }}
      aria-label={t('books.results')}
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
          <Typography variant="body2">
            {t('books.resultAuthors', {
              authors:
                result.authors.length > 0 ? result.authors.join(', ') : t('books.unknownAuthor'),
            })}
          </Typography>
          <Typography variant="body2">
            {result.isbn ? t('books.resultIsbn', { isbn: result.isbn }) : t('books.resultNoIsbn')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ my: 0.5 }}>
            {result.description}
          </Typography>
          {onUse && (
            <Button size="small" variant="outlined" onClick={() => onUse(result)}>
              {t('books.use')}
            </Button>
          )}
        </Box>
      ))}
    </Stack>
  );
}

interface BookCardProps {
  book: Book;
  may: BookPermissions;
  /** Who else is editing the book. */
  editors: string[];
  /** Whether this book's lookup results show (they clear after any Use This). */
  showsLookup: boolean;
  onLookUp(): void;
  /** Applies `result` to the book; resolves whether it was saved. */
  onUse(result: BookLookupResult): Promise<boolean>;
  /** Why the last Use This was refused, with a way to correct its values. */
  refusal?: { reason: unknown; onCorrect(): void };
  onVersions(): void;
  onDelete(): void;
}

/**
 * One book, with the actions the user may take. Its lookup's results stay in the cache
 * (one entry per title), read here through the hook: nothing is copied into state.
 */
export function BookCard({
  book,
  may,
  editors,
  showsLookup,
  onLookUp,
  onUse,
  refusal,
  onVersions,
  onDelete,
}: BookCardProps) {
  const t = useT();
  const [searchBook, lookup] = useLazySearchBookQuery();
  useReportedError(messages.books.lookupContext, lookup.error);
  // The catch-all toast would mislead when the lookup service is down
  // (BOOK_LOOKUP_UNAVAILABLE): the card says what happened.
  const failure =
    showsLookup && lookup.error && !isRequestCanceled(lookup.error) && !lookup.isFetching
      ? errorMessage(lookup.error)
      : undefined;
  const results = showsLookup && !lookup.isError ? lookup.currentData : undefined;
  const hasActions = may.mayEdit || may.mayReadVersions || may.mayDelete;
  const titleRef = useRef<HTMLButtonElement>(null);
  // None, or the one a lookup with no authors stored (the same in every language): said in
  // the reader's.
  const author =
    book.author === null || book.author === messages.books.unknownAuthor
      ? t('books.unknownAuthor')
      : book.author;

  // Use This goes away with the results it sat in: the keyboard goes back to the title.
  async function applyResult(result: BookLookupResult) {
    if (await onUse(result)) titleRef.current?.focus();
  }

  return (
    <Card component="li" aria-label={book.title} tabIndex={-1} data-book={book._id}>
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
            title={t('books.lookUp')}
          >
            {book.title}
          </Button>
        ) : (
          <Typography sx={{ fontSize: '1.15rem', overflowWrap: 'anywhere' }}>
            {book.title}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary">
          {book.isbn ? t('books.byline', { author, isbn: book.isbn }) : author}
        </Typography>
        {editors.length > 0 && (
          <Typography role="status" variant="body2" color="text.secondary">
            {editingSentence(editors, t('books.thisBook'))}
          </Typography>
        )}
        {failure && (
          <Alert severity="warning" sx={{ mt: 1.5 }}>
            {failure}
          </Alert>
        )}
        {refusal && (
          <Alert
            severity="error"
            sx={{ mt: 1.5 }}
            action={
              may.mayEdit && (
                <Button color="inherit" size="small" onClick={refusal.onCorrect}>
                  {t('books.correct')}
                </Button>
              )
            }
          >
            {t('books.notUpdated', { reason: errorMessage(refusal.reason) })}
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
        <CardActions sx={{ flexWrap: 'wrap' }}>
          {may.mayEdit && (
            <Button
              size="small"
              startIcon={<EditIcon />}
              component={RouterLink}
              to={bookEditPath(book._id)}
              aria-label={t('books.editTitle', { title: book.title })}
            >
              {t('books.edit')}
            </Button>
          )}
          {may.mayReadVersions && (
            <Button size="small" startIcon={<HistoryIcon />} onClick={onVersions}>
              {t('books.versions')}
            </Button>
          )}
          {may.mayDelete && (
            <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={onDelete}>
              {t('common.delete')}
            </Button>
          )}
        </CardActions>
      )}
    </Card>
  );
}
