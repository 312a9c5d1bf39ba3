import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { messages } from '@common/messages';
import { t } from '@/i18n/useT';
import type { Book } from '@common/schemas/books';
import { apiError, permissionsFor, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const library: Book[] = Array.from({ length: 23 }, (_, i) => ({
  _id: `b${i}`,
  _version: 1,
  title: `Book ${i}`,
  author: `Author ${i}`,
  isbn: null,
}));

const network = setupNetwork(
  http.get('/api/books', ({ request }) => {
    const page = Number(new URL(request.url).searchParams.get('page'));
    return HttpResponse.json(library.slice((page - 1) * 10, page * 10));
  }),
  http.get('/api/books/search-book', () =>
    HttpResponse.json([
      {
        title: 'Book 0: Revised',
        authors: ['Ann', 'Bob'],
        isbn: '9780306406157',
        description: 'Better.',
      },
      {
        title: 'Book 0 abridged',
        authors: [],
        isbn: null,
        description: 'No description available',
      },
    ]),
  ),
  http.put('/api/books/b0', async ({ request }) =>
    HttpResponse.json({
      _id: 'b0',
      _version: 1,
      author: null,
      isbn: null,
      ...((await request.json()) as object),
    }),
  ),
  http.delete('/api/books/b1', () => new HttpResponse(null, { status: 204 })),
);

const asContributor = signedInAs('contributor', ['contributor']);
/** The alert that says `text` (toasts are alerts too). */
const alertSaying = (text: string) =>
  waitFor(() => {
    const alert = screen.getAllByRole('alert').find((el) => el.textContent?.includes(text));
    expect(alert).toBeDefined();
    return alert!;
  });
const pagesRequested = () =>
  network.calls('GET /api/books').map((r) => new URL(r.url).searchParams.get('page'));

describe('/books', () => {
  it('loads pages of 10 from page 1, appending them, and stops after a short page', async () => {
    renderApp('/books', asContributor);
    const list = await screen.findByRole('list', { name: 'Books' });
    // jsdom has no layout: the page is always "near the bottom", so every page loads.
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(23));
    expect(pagesRequested()).toEqual(['1', '2', '3']);
    expect(network.calls('GET /api/books')[0]!.url).toContain('perPage=10');
    expect(screen.getByText('That is every book.')).toBeInTheDocument();
  });

  it('looks a title up and shows the results under that book only', async () => {
    renderApp('/books', asContributor);
    await userEvent.click(await screen.findByRole('button', { name: 'Book 0' }));
    const book = screen.getByRole('listitem', { name: 'Book 0' });
    const results = await within(book).findByRole('list', { name: 'Search results' });
    expect(within(results).getByText('Authors: Ann, Bob')).toBeInTheDocument();
    expect(within(results).getByText('Authors: unknown author')).toBeInTheDocument();
    expect(within(results).getByText('ISBN: 9780306406157')).toBeInTheDocument();
    expect(within(results).getByText('No description available')).toBeInTheDocument();
    expect(within(screen.getByRole('listitem', { name: 'Book 1' })).queryByRole('list')).toBeNull();
    expect(
      new URL(network.calls('GET /api/books/search-book')[0]!.url).searchParams.get('title'),
    ).toBe('Book 0');
  });

  it('Use This saves the found details, reloads the list and clears the results', async () => {
    renderApp('/books', asContributor);
    await userEvent.click(await screen.findByRole('button', { name: 'Book 0' }));
    const results = await screen.findByRole('list', { name: 'Search results' });
    const before = network.calls('GET /api/books').length;
    await userEvent.click(within(results).getAllByRole('button', { name: 'Use This' })[0]!);
    await waitFor(() => expect(network.calls('PUT /api/books/b0')).toHaveLength(1));
    expect(await network.calls('PUT /api/books/b0')[0]!.json()).toEqual({
      title: 'Book 0: Revised',
      author: 'Ann, Bob',
      isbn: '9780306406157',
      _version: 1,
    });
    await waitFor(() => expect(network.calls('GET /api/books').length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull());
  });

  it('Use This sends unknown author when the result has no authors', async () => {
    renderApp('/books', asContributor);
    await userEvent.click(await screen.findByRole('button', { name: 'Book 0' }));
    const results = await screen.findByRole('list', { name: 'Search results' });
    await userEvent.click(within(results).getAllByRole('button', { name: 'Use This' })[1]!);
    await waitFor(() => expect(network.calls('PUT /api/books/b0')).toHaveLength(1));
    expect(await network.calls('PUT /api/books/b0')[0]!.json()).toEqual({
      title: 'Book 0 abridged',
      author: 'unknown author',
      isbn: null,
      _version: 1,
    });
  });

  it("says 'unknown author' for a book with none, in the words a lookup uses (spec section 3)", async () => {
    network.use(
      http.get('/api/books', () =>
        HttpResponse.json([{ _id: 'b9', _version: 1, title: 'Anon', author: null, isbn: null }]),
      ),
    );
    renderApp('/books', asContributor);
    const card = await screen.findByRole('listitem', { name: 'Anon' });
    expect(card).toHaveTextContent('unknown author');
    expect(card).not.toHaveTextContent('Unknown author');
  });

  it('deletes a book after confirmation and removes it from the list without reloading', async () => {
    renderApp('/books', asContributor);
    const book = await screen.findByRole('listitem', { name: 'Book 1' });
    await waitFor(() => expect(pagesRequested()).toHaveLength(3));
    await userEvent.click(within(book).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Book 1' })).toBeNull());
    expect(pagesRequested()).toHaveLength(3);
  });

  it('keeps a book whose deletion was refused, with no uncaught error', async () => {
    network.use(http.delete('/api/books/b1', () => apiError(403, 'FORBIDDEN', 'no')));
    const uncaught: unknown[] = [];
    const onUnhandled = (reason: unknown) => uncaught.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderApp('/books', asContributor);
      const book = await screen.findByRole('listitem', { name: 'Book 1' });
      await userEvent.click(within(book).getByRole('button', { name: 'Delete' }));
      await userEvent.click(
        within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
      );
      // The refusal has settled once the shared handler has logged it.
      await waitFor(() =>
        expect(consoleError).toHaveBeenCalledWith(messages.books.deleteContext, expect.anything()),
      );
      expect(uncaught).toEqual([]);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(screen.getByRole('listitem', { name: 'Book 1' })).toBeInTheDocument();
    } finally {
      process.off('unhandledRejection', onUnhandled);
      consoleError.mockRestore();
    }
  });

  it('shows the versions with who, when and the snapshot', async () => {
    network.use(
      http.get('/api/books/b2/versions', () =>
        HttpResponse.json([
          {
            _id: 'v2',
            action: 'update',
            updatedBy: 'ada',
            versionDate: '2026-01-02T10:00:00.000Z',
            document: { _id: 'b2', title: 'New', author: 'A' },
            changes: [
              { field: 'author', from: null, to: 'A' },
              { field: 'title', from: 'Old', to: 'New' },
            ],
          },
          {
            _id: 'v1',
            action: 'create',
            updatedBy: 'bob',
            versionDate: '2026-01-01T10:00:00.000Z',
            document: { _id: 'b2', title: 'Old' },
            changes: [{ field: 'title', from: null, to: 'Old' }],
          },
        ]),
      ),
    );
    renderApp('/books', asContributor);
    const book = await screen.findByRole('listitem', { name: 'Book 2' });
    await userEvent.click(within(book).getByRole('button', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Versions of Book 2' });
    const who = await within(dialog).findAllByRole('heading', { level: 3 });
    expect(who.map((heading) => heading.textContent)).toEqual([
      expect.stringMatching(/^ada · /),
      expect.stringMatching(/^bob · /),
    ]);
    // What each changed, old → new, then its snapshot ('No changes' where it lacks a field),
    // each field by the form's label, in the form's order.
    const changes = within(dialog).getAllByRole('list', { name: 'Changes' });
    expect(changes.map((list) => list.textContent)).toEqual([
      'Title: Old → NewAuthor: added A',
      'Title: added Old',
    ]);
    const snapshots = within(dialog).getAllByRole('table', { name: 'Snapshot' });
    expect(snapshots[1]).toHaveTextContent('AuthorNo changes');
    expect(dialog).not.toHaveTextContent('_id');
    // Compared with the current version instead.
    await userEvent.click(
      within(dialog).getByRole('switch', { name: 'Compare with the current version' }),
    );
    expect(
      within(dialog)
        .getAllByRole('list', { name: 'Differences from the current version' })
        .map((list) => list.textContent),
    ).toEqual(['Title: Old → NewAuthor: added A']);
  });

  it('restores an earlier version from the history, and the list reloads', async () => {
    const versions = [
      {
        _id: 'v2',
        action: 'update',
        updatedBy: 'ada',
        versionDate: '2026-01-02T10:00:00.000Z',
        document: { _id: 'b2', title: 'Book 2' },
        changes: [{ field: 'title', from: 'Old', to: 'Book 2' }],
      },
      {
        _id: 'v1',
        action: 'create',
        updatedBy: 'bob',
        versionDate: '2026-01-01T10:00:00.000Z',
        document: { _id: 'b2', title: 'Old' },
        changes: [{ field: 'title', from: null, to: 'Old' }],
      },
    ];
    network.use(
      http.get('/api/books/b2/versions', () => HttpResponse.json(versions)),
      http.post('/api/books/b2/versions/v1/restore', () =>
        HttpResponse.json({ _id: 'b2', title: 'Old', author: null, isbn: null, _version: 3 }),
      ),
    );
    renderApp('/books', asContributor);
    const book = await screen.findByRole('listitem', { name: 'Book 2' });
    await userEvent.click(within(book).getByRole('button', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Versions of Book 2' });
    const restores = await within(dialog).findAllByRole('button', {
      name: /^Restore the version of/,
    });
    // The latest version is the current one: only the earlier one can be restored.
    expect(restores).toHaveLength(1);
    const listLoads = network.calls('GET /api/books').length;
    await userEvent.click(restores[0]!);
    await waitFor(() =>
      expect(network.calls('POST /api/books/b2/versions/v1/restore')).toHaveLength(1),
    );
    await waitFor(() => expect(network.calls('GET /api/books').length).toBeGreaterThan(listLoads));
  });

  it('loads a long history 20 versions at a time, the keyboard going on to the older ones', async () => {
    const history = Array.from({ length: 25 }, (_, i) => ({
      _id: `v${25 - i}`,
      action: i === 24 ? 'create' : 'update',
      updatedBy: `editor${25 - i}`,
      versionDate: new Date(Date.UTC(2026, 0, 25 - i)).toISOString(),
      document: { _id: 'b2', title: `Title ${25 - i}` },
      changes: [],
    }));
    network.use(
      http.get('/api/books/b2/versions', ({ request }) => {
        const params = new URL(request.url).searchParams;
        const page = Number(params.get('page'));
        const perPage = Number(params.get('perPage'));
        return HttpResponse.json(history.slice((page - 1) * perPage, page * perPage));
      }),
    );
    renderApp('/books', asContributor);
    const book = await screen.findByRole('listitem', { name: 'Book 2' });
    await userEvent.click(within(book).getByRole('button', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Versions of Book 2' });
    const versions = await within(dialog).findByRole('list', { name: 'Versions' });
    await waitFor(() => expect(within(versions).getAllByRole('heading')).toHaveLength(20));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Show older versions' }));
    await waitFor(() => expect(within(versions).getAllByRole('heading')).toHaveLength(25));
    expect(
      network
        .calls('GET /api/books/b2/versions')
        .map((r) => new URL(r.url).searchParams.get('page')),
    ).toEqual(['1', '2']);
    // A short page is the last: nothing more to show; the focus is on the first older one.
    expect(within(dialog).queryByRole('button', { name: 'Show older versions' })).toBeNull();
    await waitFor(() =>
      expect(within(versions).getByRole('listitem', { name: /^editor5 ·/ })).toHaveFocus(),
    );
  });

  it('lists recently deleted books and brings one back', async () => {
    let deleted = [
      {
        _id: 'b99',
        _version: 1,
        versionId: 'v9',
        deletedBy: 'ada',
        deletedAt: '2026-01-02T10:00:00.000Z',
        document: { _id: 'b99', title: 'Lost book', author: null, isbn: null },
      },
    ];
    network.use(
      http.get('/api/books/recently-deleted', () => HttpResponse.json(deleted)),
      http.post('/api/books/b99/versions/v9/restore', () => {
        deleted = [];
        return HttpResponse.json({
          _id: 'b99',
          title: 'Lost book',
          author: null,
          isbn: null,
          _version: 2,
        });
      }),
    );
    renderApp('/books', asContributor);
    await userEvent.click(await screen.findByRole('button', { name: 'Recently deleted' }));
    const dialog = await screen.findByRole('dialog', { name: 'Recently deleted books' });
    expect(await within(dialog).findByText('Lost book')).toBeInTheDocument();
    expect(within(dialog).getByText(/^Deleted by ada/)).toBeInTheDocument();
    const listLoads = network.calls('GET /api/books').length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Restore Lost book' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Restored Lost book.');
    // The restored book leaves the deleted ones and joins the list, both asked again.
    expect(await within(dialog).findByText('Nothing was deleted recently.')).toBeInTheDocument();
    await waitFor(() => expect(network.calls('GET /api/books').length).toBeGreaterThan(listLoads));
  });

  it('shows a viewer what was deleted, without Restore', async () => {
    network.use(
      http.get('/api/books/recently-deleted', () =>
        HttpResponse.json([
          {
            _id: 'b99',
            _version: 1,
            versionId: 'v9',
            deletedBy: 'ada',
            deletedAt: '2026-01-02T10:00:00.000Z',
            document: { _id: 'b99', title: 'Lost book' },
          },
        ]),
      ),
    );
    renderApp('/books', signedInAs('viewer', ['viewer']));
    await userEvent.click(await screen.findByRole('button', { name: 'Recently deleted' }));
    const dialog = await screen.findByRole('dialog', { name: 'Recently deleted books' });
    expect(await within(dialog).findByText('Lost book')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^Restore/ })).toBeNull();
  });

  it('offers no restore to a viewer', async () => {
    network.use(
      http.get('/api/books/b2/versions', () =>
        HttpResponse.json([
          {
            _id: 'v1',
            action: 'create',
            updatedBy: 'bob',
            versionDate: '2026-01-01T10:00:00.000Z',
            document: { _id: 'b2', title: 'Book 2' },
            changes: [],
          },
          {
            _id: 'v0',
            action: 'create',
            updatedBy: 'bob',
            versionDate: '2025-12-01T10:00:00.000Z',
            document: { _id: 'b2', title: 'Older' },
            changes: [],
          },
        ]),
      ),
    );
    renderApp('/books', signedInAs('viewer', ['viewer']));
    const book = await screen.findByRole('listitem', { name: 'Book 2' });
    await userEvent.click(within(book).getByRole('button', { name: 'Versions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Versions of Book 2' });
    expect(await within(dialog).findByText('Older')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^Restore/ })).toBeNull();
  });

  it("logs 'Error calling book API', shows the toast and says why in the card when the lookup fails", async () => {
    network.use(
      http.get('/api/books/search-book', () =>
        apiError(502, 'BOOK_LOOKUP_UNAVAILABLE', 'The book lookup service could not be reached'),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/books', asContributor);
    await userEvent.click(await screen.findByRole('button', { name: 'Book 0' }));
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith(messages.books.lookupContext, expect.anything()),
    );
    expect(store.getState().ui.toasts.map((t) => t.message)).toEqual([t('toast.notAllowed')]);
    // The catch-all toast would mislead: the book's card says what happened.
    expect(
      await within(screen.getByRole('listitem', { name: 'Book 0' })).findByText(
        'The book lookup service could not be reached',
      ),
    ).toBeInTheDocument();
    consoleError.mockRestore();
  });

  it("logs 'Error fetching books' and shows the error block when the list fails", async () => {
    network.use(http.get('/api/books', () => apiError(500, 'INTERNAL', 'x')));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/books', asContributor);
    expect(await screen.findByText('The books could not be loaded.')).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.books.fetchContext, expect.anything());
    consoleError.mockRestore();
  });

  it('shows a progress bar while the first page loads', async () => {
    let answer: () => void = () => {};
    network.use(
      http.get(
        '/api/books',
        () =>
          new Promise<Response>((resolve) => {
            answer = () => resolve(HttpResponse.json([]));
          }),
      ),
    );
    renderApp('/books', asContributor);
    expect(await screen.findByRole('progressbar', { name: 'Loading books' })).toBeInTheDocument();
    await waitFor(() => expect(network.calls('GET /api/books')).toHaveLength(1));
    answer();
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading books' })).toBeNull();
  });

  it('Retry asks for the list again after a failed load, and shows the books', async () => {
    network.use(http.get('/api/books', () => apiError(500, 'INTERNAL', 'x'), { once: true }));
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/books', asContributor);
    const failure = await alertSaying('The books could not be loaded.');
    await userEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: 'Book 0' })).toBeInTheDocument();
    expect(screen.queryByText('The books could not be loaded.')).toBeNull();
    expect(pagesRequested().slice(0, 2)).toEqual(['1', '1']);
    consoleError.mockRestore();
  });

  it('stops loading after a next page fails, and Retry loads it and the rest', async () => {
    let failedOnce = false;
    network.use(
      http.get('/api/books', ({ request }) => {
        if (new URL(request.url).searchParams.get('page') !== '2' || failedOnce) return undefined;
        failedOnce = true;
        return apiError(500, 'INTERNAL', 'x');
      }),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/books', asContributor);
    const failure = await alertSaying('The next page of books could not be loaded.');
    // The first page stays.
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
    await userEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('That is every book.')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(23);
    // One failed request for page 2 and the one Retry asked for: no loop of reloads.
    expect(pagesRequested()).toEqual(['1', '2', '2', '3']);
    consoleError.mockRestore();
  });

  it("says 'No books yet' with 'Add one' to a user who may add books", async () => {
    network.use(http.get('/api/books', () => HttpResponse.json([])));
    renderApp('/books', asContributor);
    const empty = await screen.findByRole('status');
    expect(empty).toHaveTextContent('No books yet');
    expect(within(empty).getByRole('link', { name: 'Add one' })).toHaveAttribute('href', '/book');
    expect(screen.queryByText('That is every book.')).toBeNull();
  });

  it("says 'No books yet' without 'Add one' to a viewer", async () => {
    network.use(http.get('/api/books', () => HttpResponse.json([])));
    renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByText('No books yet')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add one' })).toBeNull();
  });
});

describe('/books: the controls each role sees', () => {
  const roles = [
    {
      who: 'an admin',
      roles: ['admin'],
      add: true,
      lookUp: true,
      use: true,
      versions: true,
      remove: true,
    },
    {
      who: 'a contributor',
      roles: ['contributor'],
      add: true,
      lookUp: true,
      use: true,
      versions: true,
      remove: true,
    },
    {
      who: 'a viewer',
      roles: ['viewer'],
      add: false,
      lookUp: true,
      use: false,
      versions: true,
      remove: false,
    },
  ];

  it.each(roles)(
    'shows $who exactly the actions their role allows',
    async ({ roles: held, add, lookUp, use, versions, remove }) => {
      renderApp('/books', signedInAs('someone', held));
      // The list shows only once the permissions are known: every control is decided.
      const book = await screen.findByRole('listitem', { name: 'Book 0' });
      expect(screen.queryAllByRole('link', { name: 'Add Book' })).toHaveLength(add ? 1 : 0);
      expect(within(book).queryAllByRole('button', { name: 'Versions' })).toHaveLength(
        versions ? 1 : 0,
      );
      expect(within(book).queryAllByRole('button', { name: 'Delete' })).toHaveLength(
        remove ? 1 : 0,
      );
      expect(within(book).queryAllByRole('button', { name: 'Book 0' })).toHaveLength(
        lookUp ? 1 : 0,
      );
      expect(within(book).getByText('Book 0')).toBeInTheDocument();
      if (!lookUp) return;
      await userEvent.click(within(book).getByRole('button', { name: 'Book 0' }));
      const results = await within(book).findByRole('list', { name: 'Search results' });
      expect(within(results).queryAllByRole('button', { name: 'Use This' })).toHaveLength(
        use ? 2 : 0,
      );
    },
  );

  it('tells a user with no role that an administrator must give one, and asks for no books', async () => {
    renderApp('/books', signedInAs('newcomer', []));
    expect(await screen.findByText(t('common.needsRole'))).toBeInTheDocument();
    expect(screen.queryByText(/Your role does not allow/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Add Book' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Books' })).toBeNull();
    expect(network.calls('GET /api/books')).toHaveLength(0);
  });

  it('offers no title lookup where the routes table refuses it, and shows the title as text', async () => {
    network.use(
      http.get('/api/auth/permissions', () => {
        const viewer = permissionsFor(['viewer']);
        return HttpResponse.json({
          ...viewer,
          allowed: viewer.allowed.filter((r) => r.routePath !== '/api/books/search-book'),
        });
      }),
    );
    renderApp('/books', signedInAs('viewer', ['viewer']));
    const book = await screen.findByRole('listitem', { name: 'Book 0' });
    expect(within(book).getByText('Book 0')).toBeInTheDocument();
    expect(within(book).queryByRole('button', { name: 'Book 0' })).toBeNull();
    expect(within(book).getByRole('button', { name: 'Versions' })).toBeInTheDocument();
  });
});

describe('/book', () => {
  it('a viewer is told adding books is closed to them: no form, nothing sent', async () => {
    renderApp('/book', signedInAs('viewer', ['viewer']));
    expect(
      await screen.findByText(t('common.roleDoesNotAllow', { what: 'adding books' })),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add book' })).toBeNull();
    expect(screen.queryByLabelText(/Title/)).toBeNull();
  });

  it('a user with no role sees the one needs-a-role line and no form', async () => {
    renderApp('/book', signedInAs('newcomer', []));
    expect(await screen.findAllByText(t('common.needsRole'))).toHaveLength(1);
    expect(screen.queryByText(/Your role does not allow/)).toBeNull();
    expect(screen.queryByRole('form', { name: 'Add book' })).toBeNull();
  });

  it('requires a title and checks the ISBN before sending', async () => {
    renderApp('/book', asContributor);
    await userEvent.type(await screen.findByLabelText(/ISBN/), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Add Book' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
    expect(screen.getByText('must be a valid ISBN-10 or ISBN-13')).toBeInTheDocument();
    expect(network.calls('POST /api/books/add')).toHaveLength(0);
  });

  it('adds the book and goes to the list', async () => {
    network.use(
      http.post('/api/books/add', async ({ request }) =>
        HttpResponse.json(
          { _id: 'new', _version: 1, ...((await request.json()) as object) },
          { status: 201 },
        ),
      ),
    );
    const { router } = renderApp('/book', asContributor);
    await userEvent.type(await screen.findByLabelText(/Title/), 'Middlemarch');
    await userEvent.type(screen.getByLabelText(/Author/), 'George Eliot');
    await userEvent.click(screen.getByRole('button', { name: 'Add Book' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/books'));
    expect(await network.calls('POST /api/books/add')[0]!.json()).toEqual({
      title: 'Middlemarch',
      author: 'George Eliot',
      // What the schema made of the empty box: no ISBN.
      isbn: null,
    });
  });

  it("shows the fields of the server's 400 under the inputs they name, keeping what was typed", async () => {
    network.use(
      http.post('/api/books/add', () =>
        apiError(400, 'VALIDATION_FAILED', 'invalid', [
          { field: 'body.author', message: 'must not contain control characters' },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/book', asContributor);
    await userEvent.type(await screen.findByLabelText(/Title/), 'Middlemarch');
    await userEvent.type(screen.getByLabelText(/Author/), 'George Eliot');
    await userEvent.click(screen.getByRole('button', { name: 'Add Book' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/Author/)).toHaveAccessibleDescription(
        'must not contain control characters',
      ),
    );
    expect(screen.getByLabelText(/Title/)).toHaveValue('Middlemarch');
    expect(consoleError).toHaveBeenCalledWith(messages.books.addContext, expect.anything());
    consoleError.mockRestore();
  });

  it("puts a refusal's field errors under the inputs they name, and in no toast", async () => {
    network.use(
      http.post('/api/books/add', () =>
        apiError(400, 'VALIDATION_FAILED', 'The request is invalid: body.title is too long', [
          { field: 'body.title', message: 'must be at most 500 characters' },
        ]),
      ),
    );
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    const { store } = renderApp('/book', asContributor);
    await userEvent.type(await screen.findByLabelText(/Title/), 'Long');
    await userEvent.click(screen.getByRole('button', { name: 'Add Book' }));
    expect(await screen.findByText('must be at most 500 characters')).toBeInTheDocument();
    expect(screen.getByLabelText(/Title/)).toHaveAttribute('aria-invalid', 'true');
    // Said once, under the field: no toast repeats it.
    expect(store.getState().ui.toasts).toEqual([]);
    expect(screen.queryByText(/The request is invalid/)).not.toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(messages.books.addContext, expect.anything());
    consoleError.mockRestore();
  });
});

describe('/books search', () => {
  it('asks the server for the books with every word, from page 1, once typing pauses', async () => {
    network.use(
      http.get('/api/books', ({ request }) => {
        const params = new URL(request.url).searchParams;
        const page = Number(params.get('page'));
        const found = params.get('q')
          ? library.filter((book) => book.title.endsWith(' 7'))
          : library;
        return HttpResponse.json(found.slice((page - 1) * 10, page * 10));
      }),
    );
    const { router } = renderApp('/books', asContributor);
    const list = await screen.findByRole('list', { name: 'Books' });
    await within(list).findByText('Book 1');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search' }), 'book 7');
    await waitFor(() => expect(within(list).queryByText('Book 1')).toBeNull());
    expect(await within(list).findByText('Book 7')).toBeInTheDocument();
    expect(within(list).queryByText('Book 1')).toBeNull();
    const searched = network.calls('GET /api/books').map((r) => new URL(r.url).searchParams);
    // One request for the words typed, not one per key.
    expect(
      searched.filter((params) => params.get('q') !== null).map((p) => [p.get('q'), p.get('page')]),
    ).toEqual([['book 7', '1']]);
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('book 7');
  });

  it('says so when no book matches', async () => {
    network.use(http.get('/api/books', () => HttpResponse.json([])));
    renderApp('/books?q=zzz', asContributor);
    expect(await screen.findByText('No books match the search')).toBeInTheDocument();
  });
});
