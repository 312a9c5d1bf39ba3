import { Alert, Button, Paper, Stack } from '@mui/material';
import { useParams } from 'react-router-dom';
import { messages } from '@common/messages';
import type { Book } from '@common/schemas/books';
import { PermissionGate } from '@/auth/PermissionGate';
import { EditNotices } from '@/components/EditNotices';
import { Editors } from '@/components/Editors';
import { FormTextField } from '@/components/FormTextField';
import { ItemHistory } from '@/components/ItemHistory';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { useReportedError } from '@/hooks/useReportedError';
import { useT } from '@/i18n/useT';
import { BOOK_LABELS } from './bookRules';
import { useGetBookQuery } from './books.api';
import { useBookEdit } from './useBookEdit';

/** The book's form: title (required), author and ISBN, checked before anything is sent. */
function BookEditForm({ book }: { book: Book }) {
  const t = useT();
  const { form, edit, save, isSaving, cancel, history } = useBookEdit(book);
  const nameOf = () => t('books.nameOf', { title: book.title });
  return (
    <Paper component="section" sx={{ maxWidth: 560, p: { xs: 2, sm: 3 } }}>
      <PageHeader title={t('books.editTitle', { title: book.title })}>
        {history.mayRead && <Button onClick={history.open}>{t('common.versionHistory')}</Button>}
      </PageHeader>
      <Editors editors={edit.editors} nameOf={() => t('books.thisBook')} ids={[book._id]} />
      <EditNotices
        edit={edit}
        nameOf={nameOf}
        labelOf={(field) => {
          const label = BOOK_LABELS[field];
          return label ? t(label) : field;
        }}
      />
      <Stack
        component="form"
        spacing={2}
        onSubmit={save}
        noValidate
        aria-label={t('books.editForm')}
      >
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField
          control={form.control}
          name="title"
          label={t('books.fieldTitle')}
          required
          autoFocus
        />
        <FormTextField control={form.control} name="author" label={t('books.fieldAuthor')} />
        <FormTextField control={form.control} name="isbn" label={t('books.fieldIsbn')} />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isSaving}>
            {t('common.save')}
          </Button>
          <Button onClick={cancel}>{t('common.cancel')}</Button>
        </Stack>
      </Stack>
      {history.shows && (
        <ItemHistory
          endpoints={history.endpoints}
          item={book._id}
          title={t('books.versionsOf', { title: book.title })}
          onClose={history.close}
          onRestored={history.restored}
        />
      )}
    </Paper>
  );
}

/** The book to edit, through the shared states; an unknown id says so. */
function BookToEdit({ id }: { id: string }) {
  const t = useT();
  const bookQuery = useGetBookQuery(id);
  useReportedError(messages.books.fetchContext, bookQuery.error);
  return (
    <QueryState
      query={bookQuery}
      what={t('books.whatOne')}
      notFound={{
        message: t('books.notFound'),
        back: { label: t('books.seeAll'), to: '/books' },
      }}
    >
      {(book) => <BookEditForm key={book._id} book={book} />}
    </QueryState>
  );
}

/**
 * `/book/:id/edit`: a book's title, author and ISBN, for a user who may both read and save
 * a book (others are told so; nothing is asked for).
 */
export function BookEditPage() {
  const t = useT();
  const { id = '' } = useParams();
  return (
    <PermissionGate verb="PUT" path="/api/books/:id" what={t('books.editing')}>
      <PermissionGate verb="GET" path="/api/books/:id" what={t('books.readOne')}>
        <BookToEdit key={id} id={id} />
      </PermissionGate>
    </PermissionGate>
  );
}
