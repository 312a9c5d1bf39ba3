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
import { useGetBookQuery } from './books.api';
import { useBookEdit } from './useBookEdit';

const LABELS: Record<string, string> = { title: 'Title', author: 'Author', isbn: 'ISBN' };

/** The book's form: title (required), author and ISBN, checked before anything is sent. */
function BookEditForm({ book }: { book: Book }) {
  const { form, edit, save, isSaving, cancel, history } = useBookEdit(book);
  const nameOf = () => `the book «${book.title}»`;
  return (
    <Paper component="section" sx={{ maxWidth: 560, p: { xs: 2, sm: 3 } }}>
      <PageHeader title={`Edit ${book.title}`}>
        {history.mayRead && <Button onClick={history.open}>Version history</Button>}
      </PageHeader>
      <Editors editors={edit.editors} nameOf={() => 'this book'} ids={[book._id]} />
      <EditNotices edit={edit} nameOf={nameOf} labelOf={(field) => LABELS[field] ?? field} />
      <Stack component="form" spacing={2} onSubmit={save} noValidate aria-label="Edit book">
        {form.failure && <Alert severity="error">{form.failure}</Alert>}
        <FormTextField control={form.control} name="title" label="Title" required autoFocus />
        <FormTextField control={form.control} name="author" label="Author" />
        <FormTextField control={form.control} name="isbn" label="ISBN" />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isSaving}>
            Save
          </Button>
          <Button onClick={cancel}>Cancel</Button>
        </Stack>
      </Stack>
      {history.shows && (
        <ItemHistory
          endpoints={history.endpoints}
          item={book._id}
          title={`Versions of ${book.title}`}
          onClose={history.close}
          onRestored={history.restored}
        />
      )}
    </Paper>
  );
}

/** The book to edit, through the shared states; an unknown id says so. */
function BookToEdit({ id }: { id: string }) {
  const bookQuery = useGetBookQuery(id);
  useReportedError(messages.books.fetchContext, bookQuery.error);
  return (
    <QueryState
      query={bookQuery}
      what="book"
      notFound={{
        message: 'There is no book with this id.',
        back: { label: 'See the books', to: '/books' },
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
  const { id = '' } = useParams();
  return (
    <PermissionGate verb="PUT" path="/api/books/:id" what="editing books">
      <PermissionGate verb="GET" path="/api/books/:id" what="reading a book">
        <BookToEdit key={id} id={id} />
      </PermissionGate>
    </PermissionGate>
  );
}
