import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Paper, Stack, TextField } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { type BookInput, bookInputSchema } from '@common/schemas/books';
import { reportError } from '@/api/errors';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { setServerErrors } from '@/lib/serverFieldErrors';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateBookMutation } from './books.api';

/**
 * `/book`: a new book; only the title is required. The form pattern the others follow:
 * react-hook-form checks the common schema in the browser (its messages under the
 * inputs, nothing sent), and a refusal puts the server's field errors there too.
 */
export function BookFormPage() {
  const [createBook, { isLoading }] = useCreateBookMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const form = useForm<BookInput>({
    // `raw`: the form sends what was typed; the server applies the schema's own clean-up.
    resolver: zodResolver(bookInputSchema, undefined, { raw: true }),
    defaultValues: { title: '', author: '', isbn: '' },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      const book = await createBook(values).unwrap();
      dispatch(toastQueued(`Added ${book.title}`, 'success'));
      void navigate('/books');
    } catch (error) {
      reportError(messages.books.addContext, error);
      setServerErrors(form.setError, error, values);
    }
  });

  const field = (name: keyof BookInput) => ({
    ...form.register(name),
    error: Boolean(errors[name]),
    helperText: errors[name]?.message,
  });

  return (
    <Paper component="section" sx={{ maxWidth: 560, p: 3 }}>
      <PageHeader title="Add Book" />
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Add book">
        {errors.root?.server && <Alert severity="error">{errors.root.server.message}</Alert>}
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
