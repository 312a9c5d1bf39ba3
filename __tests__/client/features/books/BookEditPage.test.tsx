import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { t } from '@/i18n/useT';
import type { Book } from '@common/schemas/books';
import { apiError, setupNetwork } from '../../helpers/network';
import { renderApp, signedInAs } from '../../helpers/render';

const ID = '0f0e0d0c-0000-4000-8000-000000000001';
const book: Book = { _id: ID, _version: 1, title: 'Dune', author: 'Frank Herbert', isbn: null };
const theirs: Book = { ...book, _version: 2, title: 'Dune (their edition)' };

/** A 409 VERSION_CONFLICT as the server answers it, with `current`. */
const conflict = (current: Book) =>
  HttpResponse.json(
    { statusCode: 409, error: 'Conflict', code: 'VERSION_CONFLICT', message: 'no', current },
    { status: 409 },
  );

const network = setupNetwork(
  http.get(`/api/books/${ID}`, () => HttpResponse.json(book)),
  http.get('/api/books', () => HttpResponse.json([book])),
  http.put(`/api/books/${ID}`, async ({ request }) =>
    HttpResponse.json({ ...book, ...((await request.json()) as object), _version: 2 }),
  ),
);

const asContributor = signedInAs('contributor', ['contributor']);
const lastPut = async () => network.calls(`PUT /api/books/${ID}`).at(-1)!.json();

describe('/book/:id/edit', () => {
  it("shows the book's values and saves them over its version, then goes back to the list", async () => {
    const { router } = renderApp(`/book/${ID}/edit`, asContributor);
    const form = await screen.findByRole('form', { name: 'Edit book' });
    const title = within(form).getByLabelText(/Title/);
    expect(title).toHaveValue('Dune');
    expect(title).toHaveFocus();
    await userEvent.clear(title);
    await userEvent.type(title, 'Dune Messiah');
    await userEvent.type(within(form).getByLabelText('ISBN'), '0-306-40615-2');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/books'));
    expect(await lastPut()).toEqual({
      title: 'Dune Messiah',
      author: 'Frank Herbert',
      isbn: '0306406152',
      _version: 1,
    });
    expect(await screen.findByText('Updated Dune Messiah')).toBeInTheDocument();
  });

  it('shows a save that met a newer version; Keep theirs puts theirs in the form', async () => {
    network.use(http.put(`/api/books/${ID}`, () => conflict(theirs)));
    renderApp(`/book/${ID}/edit`, asContributor);
    const form = await screen.findByRole('form', { name: 'Edit book' });
    const title = within(form).getByLabelText(/Title/);
    await userEvent.clear(title);
    await userEvent.type(title, 'Mine');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', {
      name: 'Someone else changed the book «Dune» while you were editing',
    });
    expect(within(dialog).getByText('Dune → Dune (their edition)')).toBeInTheDocument();
    expect(within(dialog).getByText('Dune → Mine')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep theirs' }));
    expect(title).toHaveValue('Dune (their edition)');
  });

  it('tells a viewer that their role does not allow it, and asks for nothing', async () => {
    renderApp(`/book/${ID}/edit`, signedInAs('viewer', ['viewer']));
    expect(await screen.findByRole('status')).toHaveTextContent(
      t('common.roleDoesNotAllow', { what: 'editing books' }),
    );
    expect(network.calls(`GET /api/books/${ID}`)).toHaveLength(0);
  });

  it('says so when there is no such book, with a way back to the list', async () => {
    network.use(http.get(`/api/books/${ID}`, () => apiError(404, 'NOT_FOUND')));
    jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp(`/book/${ID}/edit`, asContributor);
    const said = await screen.findByRole('status');
    expect(said).toHaveTextContent('There is no book with this id.');
    expect(within(said).getByRole('link', { name: 'See the books' })).toHaveAttribute(
      'href',
      '/books',
    );
  });

  it('says there is no such book for an id that is not one, with no Retry that cannot help', async () => {
    network.use(
      http.get('/api/books/not-an-id', () =>
        HttpResponse.json(
          { statusCode: 400, error: 'Bad Request', code: 'VALIDATION_FAILED', message: 'no' },
          { status: 400 },
        ),
      ),
    );
    jest.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/book/not-an-id/edit', asContributor);
    expect(await screen.findByRole('status')).toHaveTextContent('There is no book with this id.');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('restores a version from its history: the form takes it', async () => {
    network.use(
      http.get(`/api/books/${ID}/versions`, () =>
        HttpResponse.json([
          {
            _id: 'v2',
            action: 'update',
            updatedBy: 'ada',
            versionDate: '2026-11-20T10:00:00.000Z',
            document: { ...book, title: 'Dune', _version: 1 },
            changes: [],
          },
          {
            _id: 'v1',
            action: 'create',
            updatedBy: 'ada',
            versionDate: '2026-11-19T10:00:00.000Z',
            document: { ...book, title: 'Dune (draft)', _version: 0 },
            changes: [],
          },
        ]),
      ),
      http.post(`/api/books/${ID}/versions/v1/restore`, () =>
        HttpResponse.json({ ...book, title: 'Dune (draft)', _version: 2 }),
      ),
    );
    renderApp(`/book/${ID}/edit`, signedInAs('admin', ['admin']));
    await userEvent.click(await screen.findByRole('button', { name: 'Version history' }));
    const history = await screen.findByRole('dialog', { name: 'Versions of Dune' });
    const restores = await within(history).findAllByRole('button', {
      name: /^Restore the version/,
    });
    await userEvent.click(restores.at(-1)!);
    await userEvent.click(within(history).getByRole('button', { name: 'Close' }));
    const form = screen.getByRole('form', { name: 'Edit book' });
    await waitFor(() => expect(within(form).getByLabelText(/Title/)).toHaveValue('Dune (draft)'));
    // The next save builds on the restored version.
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.calls(`PUT /api/books/${ID}`)).toHaveLength(1));
    expect(await lastPut()).toMatchObject({ title: 'Dune (draft)', _version: 2 });
  });
});

describe("/books: a lookup's Use This that cannot be saved as it is", () => {
  beforeEach(() => {
    network.use(
      http.get('/api/books/search-book', () =>
        HttpResponse.json([
          { title: 'Dune (lookup)', authors: ['F. H.'], isbn: null, description: 'Sand.' },
        ]),
      ),
    );
  });
  const useTheLookup = async () => {
    const { router } = renderApp('/books', asContributor);
    const card = await screen.findByRole('listitem', { name: 'Dune' });
    await userEvent.click(within(card).getByRole('button', { name: 'Dune' }));
    await userEvent.click(await within(card).findByRole('button', { name: 'Use This' }));
    return { router, card };
  };

  it('Edit further after a conflict opens the edit form with the lookup, over their version', async () => {
    network.use(http.put(`/api/books/${ID}`, () => conflict(theirs), { once: true }));
    const { router } = await useTheLookup();
    const dialog = await screen.findByRole('dialog', {
      name: 'Someone else changed the book «Dune» while you were editing',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit further' }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/book/${ID}/edit`));
    const form = await screen.findByRole('form', { name: 'Edit book' });
    expect(within(form).getByLabelText(/Title/)).toHaveValue('Dune (lookup)');
    expect(within(form).getByLabelText('Author')).toHaveValue('F. H.');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.calls(`PUT /api/books/${ID}`)).toHaveLength(2));
    expect(await lastPut()).toMatchObject({ title: 'Dune (lookup)', _version: 2 });
  });

  it('a refusal says why in the card, and Correct and save opens the form with those values', async () => {
    network.use(
      http.put(`/api/books/${ID}`, () =>
        HttpResponse.json(
          {
            statusCode: 400,
            error: 'Bad Request',
            code: 'VALIDATION_FAILED',
            message: 'Isbn must be a valid ISBN-10 or ISBN-13.',
            fields: [{ field: 'body.isbn', message: 'must be a valid ISBN-10 or ISBN-13' }],
          },
          { status: 400 },
        ),
      ),
    );
    const { router, card } = await useTheLookup();
    const refusal = await within(card).findByText(/The book was not updated/);
    expect(refusal).toHaveTextContent('Isbn must be a valid ISBN-10 or ISBN-13.');
    await userEvent.click(within(card).getByRole('button', { name: 'Correct and save' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/book/${ID}/edit`));
    const form = await screen.findByRole('form', { name: 'Edit book' });
    expect(within(form).getByLabelText(/Title/)).toHaveValue('Dune (lookup)');
  });
});
