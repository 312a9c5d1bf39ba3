import { Alert, Button, Paper, Stack, TextField } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { bookInputSchema } from '@common/schemas/books';
import { errorMessage, reportError } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { type FieldErrors, fieldErrorsOf, zodFieldErrors } from '@/lib/fieldErrors';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateBookMutation } from './books.api';

/** `/book`: a new book; only the title is required. */
export function BookFormPage() {
  const [form, setForm] = useState({ title: '', author: '', isbn: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const [createBook, { isLoading }] = useCreateBookMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const field = (name: keyof typeof form) => ({
    name,
    value: form[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      setForm({ ...form, [name]: e.target.value }),
    error: Boolean(fieldErrors[name]),
    helperText: fieldErrors[name],
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(undefined);
    const checked = bookInputSchema.safeParse(form);
    if (!checked.success) {
      setFieldErrors(zodFieldErrors(checked.error));
      return;
    }
    setFieldErrors({});
    try {
      const book = await createBook(form).unwrap();
      dispatch(toastQueued(`Added ${book.title}`, 'success'));
      void navigate('/books');
    } catch (error) {
      reportError(messages.books.addContext, error);
      setFieldErrors(fieldErrorsOf(error));
      setFailure(errorMessage(error));
    }
  }

  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PageHeader title="Add Book" />
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Add book">
        {failure && <Alert severity="error">{failure}</Alert>}
        <TextField label="Title" required autoFocus {...field('title')} />
        <TextField label="Author" {...field('author')} />
        <TextField label="ISBN" {...field('isbn')} />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={isLoading}>
            Add Book
          </Button>
          <Button onClick={() => void navigate('/books')}>Cancel</Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
