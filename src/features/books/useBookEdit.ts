import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { messages } from '@common/messages';
import { type Book, type BookInput, bookInputSchema } from '@common/schemas/books';
import { errorCode } from '@/api/errors';
import { useCan } from '@/auth/useCan';
import { useSchemaForm } from '@/hooks/useSchemaForm';
import { useVersionedEdit } from '@/hooks/useVersionedEdit';
import { useAppDispatch } from '@/lib/store';
import { t } from '@/i18n/useT';
import { toastQueued } from '@/ui/ui.slice';
import { bookValues } from './bookRules';
import {
  bookHistory,
  useGetBookQuery,
  useRestoreBookVersionMutation,
  useUpdateBookMutation,
} from './books.api';

/** What the list hands the form: values typed elsewhere, over the version they build on. */
interface EditFurther {
  values: BookInput;
  version: number;
}

const isEditFurther = (state: unknown): state is EditFurther =>
  typeof state === 'object' && state !== null && 'values' in state && 'version' in state;

/**
 * The book edit form's controller (ra-core's `useEditController`): the form over the
 * book's values, saved on the one edit machine (its version as `If-Match`, a conflict or
 * a deletion meanwhile told and resolved in the form), and back to the list once saved.
 * Opened from the list's Edit further or "Correct and save", it starts with those values.
 */
export function useBookEdit(book: Book) {
  const bookQuery = useGetBookQuery(book._id);
  const [updateBook, { isLoading }] = useUpdateBookMutation();
  const [restoreBook] = useRestoreBookVersionMutation();
  const mayRestoreVersion = useCan('POST', '/api/books/:id/versions/:versionId/restore');
  // Bringing a deleted book back finds its last version first.
  const mayReadVersions = useCan('GET', '/api/books/:id/versions');
  const mayRestore = mayReadVersions && mayRestoreVersion;
  const [showsHistory, setShowsHistory] = useState(false);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { state } = useLocation();
  const further = isEditFurther(state) ? state : undefined;

  const form = useSchemaForm(bookInputSchema, {
    defaultValues: further?.values ?? bookValues(book),
    errorContext: messages.books.updateContext,
  });

  // Editing is having typed something: an untouched form takes another person's save as it is.
  const { isDirty } = form.formState;
  const edit = useVersionedEdit<Book, BookInput>({
    resource: 'books',
    editingId: isDirty ? book._id : undefined,
    startsFrom: further ? { ...book, _version: further.version } : book,
    itemOf: () => bookQuery.data,
    valuesOf: bookValues,
    typedValues: () => form.getValues(),
    send: (id, values, version) => updateBook({ id, ...values, _version: version }).unwrap(),
    restore: mayRestore ? (id) => restoreBook({ id }).unwrap() : undefined,
    isGone: () => errorCode(bookQuery.error) === 'NOT_FOUND',
    errorContext: messages.books.updateContext,
    onSettled: (_id, stored, kept) => {
      form.reset(bookValues(stored));
      if (kept === 'mine') done(stored);
    },
    onDiscarded: () => void navigate('/books'),
    show: (_id, values) => form.reset(values, { keepDefaultValues: true }),
    isDirty: () => form.formState.isDirty,
    focus: () => form.setFocus('title'),
  });

  // Values brought from elsewhere (a refused Use This) may not be valid: say so at once,
  // the keyboard on the first field to correct.
  const { trigger } = form;
  useEffect(() => {
    if (further) void trigger(undefined, { shouldFocus: true });
  }, [further, trigger]);

  /** Saved: said so, and back to the list, on the book. */
  function done(stored: Book) {
    dispatch(toastQueued(t('books.updated', { title: stored.title }), 'success'));
    void navigate('/books', { state: { focusBook: stored._id } });
  }

  const save = form.submit(async (input) => {
    const stored = await edit.submit(book._id, input);
    // A conflict or a deletion: the form's notices say so.
    if (stored) done(stored);
  });

  return {
    form,
    edit,
    save,
    isSaving: isLoading,
    cancel: () => void navigate('/books'),
    history: {
      endpoints: bookHistory,
      mayRead: mayReadVersions,
      shows: showsHistory,
      open: () => setShowsHistory(true),
      close: () => setShowsHistory(false),
      /** The form takes the restored book. */
      restored: (restored: Book) => {
        form.reset(bookValues(restored));
        edit.rebase(restored);
      },
    },
  };
}
