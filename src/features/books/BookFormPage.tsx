import { Alert, Button, Paper, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { bookInputSchema } from '@common/schemas/books';
import { useAppDispatch } from '@/lib/store';
import { PermissionGate } from '@/auth/PermissionGate';
import { FormTextField } from '@/components/FormTextField';
import { PageHeader } from '@/components/PageHeader';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { toastQueued } from '@/ui/ui.slice';
import { useT } from '@/i18n/useT';
import { useCreateBookMutation } from './books.api';

/** The new book's form; only the title is required. */
function BookForm() {
  const t = useT();
  const [createBook, { isLoading }] = useCreateBookMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const form = useSchemaForm(bookInputSchema, {
    defaultValues: { title: '', author: '', isbn: '' },
    errorContext: messages.books.addContext,
  });

  const save = form.submit(async (input) => {
    const book = await createBook(input).unwrap();
    dispatch(toastQueued(t('books.added', { title: book.title }), 'success'));
    void navigate('/books');
  });

  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PageHeader title={t('books.add')} />
      <Stack
        component="form"
        spacing={2}
        onSubmit={save}
        noValidate
        aria-label={t('books.addForm')}
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
          <Button type="submit" variant="contained" disabled={isLoading}>
            {t('books.add')}
          </Button>
          <Button onClick={() => void navigate('/books')}>{t('common.cancel')}</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}

/** `/book`: a new book, for a user who may add one (others are told so; nothing is sent). */
export function BookFormPage() {
  const t = useT();
  return (
    <PermissionGate verb="POST" path="/api/books/add" what={t('books.adding')}>
      <BookForm />
    </PermissionGate>
  );
}
