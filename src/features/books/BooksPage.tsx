import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { EditNotices } from '@/components/EditNotices';
import { ItemHistory, RecentlyDeleted } from '@/components/ItemHistory';
import { ListPage } from '@/components/ListPage';
import { ExportMenu } from '@/components/ExportMenu';
import { ListToolbar } from '@/components/ListToolbar';
import { QueryState } from '@/components/QueryState';
import { BookCard } from './BookCard';
import { BOOK_LABELS } from './bookRules';
import { bookHistory } from './books.api';
import { useBookList } from './useBookList';
import { useT } from '@/i18n/useT';

/** The books, loaded page by page as the reader scrolls (spec section 4). */
function BookList({ mayAdd }: { mayAdd: boolean }) {
  const t = useT();
  const list = useBookList();
  const { may, edit, history, lookups, refused } = list;
  const pending = list.removal.pending;
  const { search } = list;
  return (
    <Box>
      <ListToolbar
        search={{
          value: search.typed,
          onChange: search.type,
          placeholder: t('books.searchPlaceholder'),
        }}
      >
        <ExportMenu path="/api/books/export" what={t('books.what')} params={{ q: search.q }} />
      </ListToolbar>
      <EditNotices
        edit={edit}
        nameOf={list.nameOf}
        labelOf={(field) => {
          const label = BOOK_LABELS[field];
          return label ? t(label) : field;
        }}
      />
      <QueryState
        query={list.booksQuery}
        what={t('books.what')}
        isEmpty={(loaded) => loaded.pages.every((page) => page.length === 0)}
        empty={search.q ? t('books.noMatch') : t('books.none')}
        emptyAction={mayAdd && !search.q ? { label: t('books.addOne'), to: '/book' } : undefined}
      >
        {() => (
          <>
            <Stack
              ref={list.listRef}
              spacing={2}
              component="ul"
              aria-label={t('books.title')}
              sx={{ listStyle: 'none', p: 0, m: 0 }}
            >
              {list.books.map((book) => (
                <BookCard
                  key={book._id}
                  book={book}
                  may={may}
                  editors={edit.editors[book._id] ?? []}
                  showsLookup={lookups.isOpen(book._id)}
                  onLookUp={() => lookups.open(book._id)}
                  onUse={(result) => list.use(book, result)}
                  refusal={
                    refused?.id === book._id
                      ? { reason: refused.reason, onCorrect: list.correctRefused }
                      : undefined
                  }
                  onVersions={() => history.open(book)}
                  onDelete={() => list.removal.ask(book)}
                />
              ))}
            </Stack>
            {list.isFetching && (
              <LinearProgress
                aria-label={t('common.loading', { what: t('books.what') })}
                sx={{ mt: 2 }}
              />
            )}
            {list.nextPageFailed && !list.isFetching && (
              <Alert
                severity="error"
                sx={{ mt: 2 }}
                action={
                  <Button color="inherit" size="small" onClick={list.loadMore}>
                    {t('common.retry')}
                  </Button>
                }
              >
                {t('common.loadFailed', { what: t('books.whatNextPage') })}
              </Alert>
            )}
            {!list.hasNextPage && (
              <Typography color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
                {t('books.everyBook')}
              </Typography>
            )}
          </>
        )}
      </QueryState>
      {history.of && (
        <ItemHistory
          endpoints={history.endpoints}
          item={history.of._id}
          title={t('books.versionsOf', { title: history.of.title })}
          onClose={history.close}
        />
      )}
      <ConfirmDialog
        {...list.removal.dialog}
        title={t('books.deleteTitle')}
        message={t('books.deleteQuestion', { title: pending?.title ?? '' })}
        editors={pending && edit.editors[pending._id]}
      />
    </Box>
  );
}

/** `/books`: the library; a user whose role may not read it is told so. */
export function BooksPage() {
  const t = useT();
  return (
    <ListPage
      title={t('books.title')}
      read={{ path: '/api/books', what: t('books.read') }}
      add={{ label: t('books.add'), to: '/book', path: '/api/books/add' }}
      actions={
        <RecentlyDeleted
          endpoints={bookHistory}
          title={t('books.recentlyDeleted')}
          nameOf={(item) => String(item.document.title)}
        />
      }
    >
      {(mayAdd) => <BookList mayAdd={mayAdd} />}
    </ListPage>
  );
}
