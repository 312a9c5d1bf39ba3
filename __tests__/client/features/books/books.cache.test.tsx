/**
 * The cache after each mutation on the books: leaving /books through the app and coming
 * back shows the new state from the cache. A new book and Use This reload the list (spec
 * section 4: the pages shift, or the list reloads after an update); a deletion does not.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Book } from '@common/schemas/books';
import { setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

let library: Book[];
beforeEach(() => {
  library = ['Emma', 'Persuasion'].map((title, i) => ({
    _id: `b${i}`,
    _version: 1,
    title,
    author: 'Jane Austen',
    isbn: null,
  }));
});
const body = async (request: Request) => (await request.json()) as Record<string, unknown>;

const network = setupNetwork(
  // One short page: the whole list.
  http.get('/api/books', () => HttpResponse.json(library)),
  http.post('/api/books/add', async ({ request }) => {
    const created = { _id: 'b-new', _version: 1, isbn: null, ...(await body(request)) } as Book;
    library = [created, ...library];
    return HttpResponse.json(created, { status: 201 });
  }),
  http.put('/api/books/b0', async ({ request }) => {
    const stored = { ...library[0]!, isbn: null, ...(await body(request)) } as Book;
    library = library.map((book) => (book._id === 'b0' ? stored : book));
    return HttpResponse.json(stored);
  }),
  http.delete('/api/books/b1', () => {
    library = library.filter((book) => book._id !== 'b1');
    return new HttpResponse(null, { status: 204 });
  }),
  http.get('/api/books/search-book', () =>
    HttpResponse.json([
      { title: 'Emma (Revised)', authors: ['J. Austen'], isbn: null, description: 'Better.' },
    ]),
  ),
);
const asContributor = signedInAs('contributor', ['contributor']);
type AppRouter = ReturnType<typeof renderApp>['router'];

/** The titles /books lists, once the list shows. */
async function titles() {
  const list = await screen.findByRole('list', { name: 'Books' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));
}

/** Goes to the home page, then back to /books. */
async function leaveAndComeBack(router: AppRouter) {
  await act(() => router.navigate('/'));
  await waitFor(() => expect(screen.queryByRole('list', { name: 'Books' })).toBeNull());
  await act(() => router.navigate('/books'));
}

describe('/books: the cache after each mutation', () => {
  it('a new book shows after the one reload the add makes, and a second visit asks for nothing', async () => {
    const { router } = renderApp('/books', asContributor);
    await screen.findByRole('listitem', { name: 'Emma' });
    await userEvent.click(screen.getByRole('link', { name: 'Add Book' }));
    await userEvent.type(await screen.findByLabelText(/Title/), 'Sanditon');
    await userEvent.click(screen.getByRole('button', { name: 'Add Book' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/books'));
    expect(await screen.findByRole('listitem', { name: 'Sanditon' })).toBeInTheDocument();
    expect(network.calls('GET /api/books')).toHaveLength(2);

    await leaveAndComeBack(router);
    expect(await titles()).toEqual(['Sanditon', 'Emma', 'Persuasion']);
    expect(network.calls('GET /api/books')).toHaveLength(2);
  });

  it('a deleted book stays out on a second visit, with no reload', async () => {
    const { router } = renderApp('/books', asContributor);
    const book = await screen.findByRole('listitem', { name: 'Persuasion' });
    await userEvent.click(within(book).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Persuasion' })).toBeNull());

    await leaveAndComeBack(router);
    expect(await titles()).toEqual(['Emma']);
    expect(network.calls('DELETE /api/books/b1')).toHaveLength(1);
    expect(network.calls('GET /api/books')).toHaveLength(1);
  });

  it('Use This reloads the list (as the spec says), and a second visit asks for nothing more', async () => {
    const { router } = renderApp('/books', asContributor);
    await userEvent.click(await screen.findByRole('button', { name: 'Emma' }));
    const results = await screen.findByRole('list', { name: 'Search results' });
    await userEvent.click(within(results).getByRole('button', { name: 'Use This' }));
    expect(await screen.findByRole('listitem', { name: 'Emma (Revised)' })).toBeInTheDocument();
    await waitFor(() => expect(network.calls('GET /api/books')).toHaveLength(2));

    await leaveAndComeBack(router);
    expect(await titles()).toEqual(['Emma (Revised)', 'Persuasion']);
    expect(network.calls('PUT /api/books/b0')).toHaveLength(1);
    expect(network.calls('GET /api/books')).toHaveLength(2);
  });
});
