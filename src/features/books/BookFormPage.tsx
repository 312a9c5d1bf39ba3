import { Alert, Button, Paper, Stack, TextField } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { bookInputSchema } from '@common/schemas/books';
import { useAppDispatch } from '@/app/hooks';
import { PageHeader } from '@/components/PageHeader';
import { useCreateForm } from '@/hooks/useCreateForm';
import { toastQueued } from '@/ui/ui.slice';
import { useCreateBookMutation } from './books.api';

/** `/book`: a new book; only the title is required. */
export function BookFormPage() {
  const [createBook, { isLoading }] = useCreateBookMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { field, failure, submit } = useCreateForm({
    initial: { title: '', author: '', isbn: '' },
    schema: bookInputSchema,
    send: async (input) => {
      const book = await createBook(input).unwrap();
      dispatch(toastQueued(`Added ${book.title}`, 'success'));
      void navigate('/books');
    },
    errorContext: messages.books.addContext,
  });

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
