import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { type ReactNode, useState } from 'react';
import type { Book, BookInput } from '@common/schemas/books';
import { useLiveUpdates } from '@/api/liveUpdates';
import { ApiReady } from '@/app/ApiReady';
import { AppProviders } from '@/app/App';
import { makeStore } from '@/app/store';
import { bookValues } from '@/features/books/bookRules';
import { useRestoreBookVersionMutation, useUpdateBookMutation } from '@/features/books/books.api';
import { useVersionedEdit } from '@/hooks/useVersionedEdit';
import { apiError, liveEvents, setupNetwork } from '../helpers/network';
import { signedInAs } from '../helpers/render';

const ID = '6f1c1f1e-0000-4000-8000-000000000001';
const dune: Book = { _id: ID, title: 'Dune', author: 'Frank Herbert', isbn: null, _version: 1 };

/** The server's book, as a PUT with a stale `_version` finds it. */
let stored: Book | undefined;
const versionCheckingPut = http.put(`/api/books/${ID}`, async ({ request }) => {
  const body = (await request.json()) as Book;
  if (!stored) return apiError(404, 'NOT_FOUND');
  if (body._version !== stored._version)
    return HttpResponse.json(
      {
        statusCode: 409,
        error: 'Conflict',
        code: 'VERSION_CONFLICT',
        message: 'no',
        current: stored,
      },
      { status: 409 },
    );
  const { title, author, isbn } = body;
  stored = { ...stored, title, author, isbn, _version: stored._version + 1 };
  return HttpResponse.json(stored);
});

const network = setupNetwork(versionCheckingPut);

/** Another person saved the book with `change`: the server has it, the stream says so. */
function theySave(change: string | Partial<Book>, eventId = 1) {
  const values = typeof change === 'string' ? { title: change } : change;
  stored = { ...stored!, ...values, _version: stored!._version + 1 };
  liveEvents.send('change', {
    eventId,
    resource: 'books',
    id: ID,
    entityName: null,
    action: 'update',
    version: stored._version,
    actorId: 'id-bo',
    actor: 'bo',
  });
}

/** Another person deleted the book: the server has it no more, the stream says so. */
function theyDelete(eventId = 1) {
  const version = stored!._version;
  stored = undefined;
  liveEvents.send('change', {
    eventId,
    resource: 'books',
    id: ID,
    entityName: null,
    action: 'delete',
    version,
    actorId: 'id-bo',
    actor: 'bo',
  });
}

/**
 * The edit machine on a book, as a form would drive it: `typed` is what the form holds,
 * the book's PUT and restore go over the (stubbed) network, the stream is followed.
 */
async function editBook() {
  const store = makeStore(signedInAs('ada', ['contributor']));
  const settled: [Book, string][] = [];
  const discarded: string[] = [];
  const shown: BookInput[] = [];
  let typed: BookInput = bookValues(dune);
  // Whether anything is typed: an untouched form takes their saves as they come.
  let dirty = true;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <AppProviders store={store}>
      <ApiReady>{children}</ApiReady>
    </AppProviders>
  );
  const { result } = renderHook(
    () => {
      useLiveUpdates();
      const [updateBook] = useUpdateBookMutation();
      const [restoreBook] = useRestoreBookVersionMutation();
      const [editingId, setEditingId] = useState<string | undefined>(ID);
      const edit = useVersionedEdit<Book, BookInput>({
        resource: 'books',
        editingId,
        startsFrom: dune,
        itemOf: () => stored,
        valuesOf: bookValues,
        typedValues: () => typed,
        send: (id, values, version) => updateBook({ id, ...values, _version: version }).unwrap(),
        restore: (id) => restoreBook({ id }).unwrap(),
        errorContext: 'Error updating book',
        onSettled: (_id, item, kept) => settled.push([item, kept]),
        onDiscarded: (id) => discarded.push(id),
        show: (_id, values) => {
          shown.push(values);
          typed = values;
        },
        isDirty: () => dirty,
      });
      return { edit, setEditingId };
    },
    { wrapper },
  );
  await waitFor(() => expect(result.current).not.toBeNull());
  await liveEvents.opened();
  return {
    result,
    settled,
    discarded,
    shown,
    type: (values: Partial<BookInput>) => (typed = { ...typed, ...values }),
    untouched: () => (dirty = false),
    /** Saves what is typed, as the form's Save does. */
    save: () => act(() => result.current.edit.submit(ID, typed)),
  };
}

const puts = async () =>
  Promise.all(network.calls(`PUT /api/books/${ID}`).map((request) => request.clone().json()));

beforeEach(() => {
  stored = { ...dune };
});

describe('useVersionedEdit', () => {
  it('saves over the version the edit started from, then over the one it saved', async () => {
    const book = await editBook();
    book.type({ title: 'Dune Messiah' });
    expect(await book.save()).toMatchObject({ title: 'Dune Messiah', _version: 2 });
    book.type({ title: 'Children of Dune' });
    await book.save();
    expect((await puts()).map((body) => body._version)).toEqual([1, 2]);
  });

  describe('a save that meets a newer version', () => {
    const conflicted = async () => {
      const book = await editBook();
      theySave('Dune (revised)');
      book.type({ title: 'Dune Messiah' });
      expect(await book.save()).toBeUndefined();
      await waitFor(() => expect(book.result.current.edit.conflict).toBeDefined());
      return book;
    };

    it('opens the conflict: where the edit started, mine, theirs, and who saved theirs', async () => {
      const { result } = await conflicted();
      expect(result.current.edit.conflict).toMatchObject({
        base: { version: 1, values: { title: 'Dune' } },
        mine: { title: 'Dune Messiah' },
        theirValues: { title: 'Dune (revised)' },
        by: 'bo',
      });
    });

    it('Keep theirs drops mine and shows theirs; the next save builds on theirs', async () => {
      const book = await conflicted();
      act(() => book.result.current.edit.conflict!.keepTheirs());
      expect(book.result.current.edit.conflict).toBeUndefined();
      expect(book.settled).toEqual([
        [expect.objectContaining({ title: 'Dune (revised)' }), 'theirs'],
      ]);
      book.type({ title: 'Dune, again' });
      await book.save();
      expect((await puts()).at(-1)).toMatchObject({ title: 'Dune, again', _version: 2 });
    });

    it('Edit further keeps mine, rebased on theirs, still editing: nothing is saved or shown', async () => {
      const book = await conflicted();
      act(() => book.result.current.edit.conflict!.editFurther());
      expect(book.result.current.edit.conflict).toBeUndefined();
      expect(book.settled).toEqual([]);
      expect(await puts()).toHaveLength(1);
      expect(book.result.current.edit.bases[ID]).toEqual({
        version: 2,
        values: expect.objectContaining({ title: 'Dune (revised)' }),
      });
      await book.save();
      expect((await puts()).at(-1)).toMatchObject({ title: 'Dune Messiah', _version: 2 });
    });

    it('Apply mine saves mine over theirs', async () => {
      const book = await conflicted();
      act(() => book.result.current.edit.conflict!.applyMine());
      await waitFor(() => expect(book.settled).toHaveLength(1));
      expect(book.settled[0]).toEqual([expect.objectContaining({ title: 'Dune Messiah' }), 'mine']);
      expect((await puts()).at(-1)).toMatchObject({ title: 'Dune Messiah', _version: 2 });
      expect(book.result.current.edit.conflict).toBeUndefined();
    });

    it('Edit further and Apply mine keep their changes to the fields I left alone', async () => {
      const book = await editBook();
      theySave({ author: 'F. Herbert' });
      book.type({ title: 'Dune Messiah' });
      await book.save();
      await waitFor(() => expect(book.result.current.edit.conflict).toBeDefined());
      act(() => book.result.current.edit.conflict!.editFurther());
      expect(book.shown).toEqual([
        expect.objectContaining({ title: 'Dune Messiah', author: 'F. Herbert' }),
      ]);

      theySave({ isbn: '0441172717' }, 2);
      await book.save();
      await waitFor(() => expect(book.result.current.edit.conflict).toBeDefined());
      act(() => book.result.current.edit.conflict!.applyMine());
      await waitFor(() => expect(book.settled).toHaveLength(1));
      expect((await puts()).at(-1)).toEqual({
        title: 'Dune Messiah',
        author: 'F. Herbert',
        isbn: '0441172717',
        _version: 3,
      });
    });

    it('gives way to the deleted notice when the item is deleted meanwhile', async () => {
      const book = await conflicted();
      theyDelete(2);
      await waitFor(() => expect(book.result.current.edit.deletions).toHaveLength(1));
      expect(book.result.current.edit.conflict).toBeUndefined();
    });

    it('Apply mine that meets a newer one still keeps the conflict open, with theirs updated', async () => {
      const book = await conflicted();
      theySave('Dune (third)', 2);
      act(() => book.result.current.edit.conflict!.applyMine());
      await waitFor(() =>
        expect(book.result.current.edit.conflict?.theirValues.title).toBe('Dune (third)'),
      );
      expect(book.settled).toEqual([]);
    });
  });

  it("tells of another person's save meanwhile; Review compares theirs with what is typed", async () => {
    const book = await editBook();
    book.type({ title: 'Dune Messiah' });
    theySave('Dune (revised)');
    await waitFor(() => expect(book.result.current.edit.changedMeanwhile).toBeDefined());
    expect(book.result.current.edit.changedMeanwhile).toMatchObject({ id: ID, by: 'bo' });
    act(() => book.result.current.edit.changedMeanwhile!.review());
    expect(book.result.current.edit.conflict).toMatchObject({
      mine: { title: 'Dune Messiah' },
      theirValues: { title: 'Dune (revised)' },
    });
  });

  it("takes another person's save as it is into an edit with nothing typed: no conflict, no notice", async () => {
    const book = await editBook();
    book.untouched();
    theySave('Dune (revised)');
    await waitFor(() =>
      expect(book.settled).toEqual([
        [expect.objectContaining({ title: 'Dune (revised)', _version: 2 }), 'theirs'],
      ]),
    );
    expect(book.result.current.edit.bases[ID]?.version).toBe(2);
    expect(book.result.current.edit.conflict).toBeUndefined();
  });

  it("does not count the user's own save, heard back from the stream", async () => {
    const book = await editBook();
    book.type({ title: 'Dune Messiah' });
    await book.save();
    liveEvents.send('change', {
      eventId: 1,
      resource: 'books',
      id: ID,
      entityName: null,
      action: 'update',
      version: 2,
      actorId: 'id-ada',
      actor: 'ada',
    });
    theySave('Dune (revised)', 2);
    // Only the other person's later save counts.
    await waitFor(() => expect(book.result.current.edit.changedMeanwhile?.by).toBe('bo'));
  });

  describe('deleted meanwhile', () => {
    it('tells who deleted it, keeps what is typed, and stops announcing the edit', async () => {
      const book = await editBook();
      book.type({ title: 'Dune Messiah' });
      const lastPresence = async () =>
        network.calls('POST /api/events/presence').at(-1)?.clone().json();
      await waitFor(async () => expect(await lastPresence()).toMatchObject({ editing: true }));
      theyDelete();
      await waitFor(() =>
        expect(book.result.current.edit.deletions).toEqual([{ id: ID, by: 'bo' }]),
      );
      expect(book.result.current.edit.typedValues(ID)).toMatchObject({ title: 'Dune Messiah' });
      await waitFor(async () => expect(await lastPresence()).toMatchObject({ editing: false }));
    });

    it('is found by a save too (404) when no event said so', async () => {
      const book = await editBook();
      stored = undefined;
      expect(await book.save()).toBeUndefined();
      await waitFor(() =>
        expect(book.result.current.edit.deletions).toEqual([{ id: ID, by: null }]),
      );
    });

    it('Restore and apply mine brings it back as it was deleted, then saves mine over it', async () => {
      network.use(
        http.get(`/api/books/${ID}/versions`, () =>
          HttpResponse.json([
            {
              _id: 'v-delete',
              action: 'delete',
              updatedBy: 'bo',
              versionDate: new Date().toISOString(),
              document: { ...dune, _version: 1 },
              changes: [],
            },
          ]),
        ),
        http.post(`/api/books/${ID}/versions/v-delete/restore`, () => {
          stored = { ...dune, _version: 2 };
          return HttpResponse.json(stored);
        }),
      );
      const book = await editBook();
      book.type({ title: 'Dune Messiah' });
      theyDelete();
      await waitFor(() => expect(book.result.current.edit.deletions).toHaveLength(1));
      act(() => book.result.current.edit.restoreAndApplyMine(ID));
      await waitFor(() => expect(book.settled).toHaveLength(1));
      expect(book.settled[0]).toEqual([expect.objectContaining({ title: 'Dune Messiah' }), 'mine']);
      expect((await puts()).at(-1)).toMatchObject({ title: 'Dune Messiah', _version: 2 });
      expect(book.result.current.edit.deletions).toEqual([]);
    });

    it('Discard drops the edit', async () => {
      const book = await editBook();
      theyDelete();
      await waitFor(() => expect(book.result.current.edit.deletions).toHaveLength(1));
      act(() => book.result.current.edit.discard(ID));
      expect(book.discarded).toEqual([ID]);
      expect(book.result.current.edit.deletions).toEqual([]);
      expect(book.result.current.edit.bases).toEqual({});
    });
  });

  it('announces the item being edited, and that the edit stopped when it ends', async () => {
    const book = await editBook();
    // The last test's edit may still be saying it stopped: look at the latest only.
    const announced = async () =>
      Promise.all(
        network.calls('POST /api/events/presence').map((request) => request.clone().json()),
      );
    await waitFor(async () =>
      expect((await announced()).at(-1)).toEqual(
        expect.objectContaining({ id: ID, editing: true }),
      ),
    );
    act(() => book.result.current.setEditingId(undefined));
    await waitFor(async () =>
      expect((await announced()).at(-1)).toEqual(
        expect.objectContaining({ id: ID, editing: false }),
      ),
    );
  });
});
