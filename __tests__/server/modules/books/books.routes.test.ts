import { randomUUID } from 'node:crypto';
import type { Book } from '@common/schemas/books';
import type { Version } from '@common/schemas/versions';
import { SEED_BOOKS } from '@server/db/seedBooks';
import { bearer, login } from '../../helpers/auth';
import { startBookService, volume } from '../../helpers/bookService';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('books on %s', (kind) => {
  let t: TestApp;
  let service: Awaited<ReturnType<typeof startBookService>>;
  let contributor: Record<string, string>;
  let viewer: Record<string, string>;
  beforeAll(async () => {
    service = await startBookService();
    t = await startTestApp(kind, {
      BOOKS_API_URL: service.url,
      BOOKS_API_KEY: 'test-key',
      BOOKS_API_TIMEOUT_MS: '300',
    });
    contributor = bearer((await login(t.app, 'contributor')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });

  const page = async (n: number, perPage = 10): Promise<Book[]> =>
    (
      await t.app.inject({ url: `/api/books?page=${n}&perPage=${perPage}`, headers: viewer })
    ).json();
  const addBook = (payload: object, headers = contributor) =>
    t.app.inject({ method: 'POST', url: '/api/books/add', headers, payload });
  const versionsOf = async (id: string): Promise<Version[]> =>
    (await t.app.inject({ url: `/api/books/${id}/versions`, headers: viewer })).json();

  describe('GET /api/books', () => {
    it('pages the seeded books newest first, 1-indexed, past the end empty', async () => {
      const first = await page(1);
      expect(first).toHaveLength(10);
      expect(first[0]).toEqual({
        _id: expect.any(String),
        title: SEED_BOOKS[0]!.title,
        author: SEED_BOOKS[0]!.author,
        isbn: SEED_BOOKS[0]!.isbn,
        _version: 1,
      });
      const all = [...first, ...(await page(2)), ...(await page(3))];
      expect(all.map((b) => b.title)).toEqual(SEED_BOOKS.map((b) => b.title));
      expect(await page(99)).toEqual([]);
    });

    it('keeps a stable order across pages when books share a creation time', async () => {
      const sizes = [1, 3, 7];
      const whole = await page(1, 100);
      for (const size of sizes) {
        const pages: Book[] = [];
        for (let n = 1; n <= Math.ceil(whole.length / size); n++)
          pages.push(...(await page(n, size)));
        expect(pages.map((b) => b._id)).toEqual(whole.map((b) => b._id));
      }
    });

    it.each(['page=0', 'page=abc', 'perPage=0', 'perPage=101', 'page=1.5'])(
      'answers 400 for %s',
      async (query) => {
        const res = await t.app.inject({ url: `/api/books?${query}`, headers: viewer });
        expect(res.statusCode).toBe(400);
      },
    );
  });

  describe('GET /api/books/:id', () => {
    it('answers one book with its version as its ETag, to a viewer', async () => {
      const added: Book = (await addBook({ title: 'Dune', author: 'Frank Herbert' })).json();
      const res = await t.app.inject({ url: `/api/books/${added._id}`, headers: viewer });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(added);
      expect(res.headers.etag).toBe('"1"');
    });

    it('answers 404 for a book that is not there, and 400 for an id that is not one', async () => {
      const missing = await t.app.inject({ url: `/api/books/${randomUUID()}`, headers: viewer });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('NOT_FOUND');
      const bad = await t.app.inject({ url: '/api/books/not-an-id', headers: viewer });
      expect(bad.statusCode).toBe(400);
    });

    it('answers 401 without a token', async () => {
      const res = await t.app.inject({ url: `/api/books/${randomUUID()}` });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /api/books/add and PUT /api/books/:id', () => {
    it('adds a book, normalising the ISBN, and lists it first', async () => {
      const res = await addBook({
        title: '  Dune Messiah ',
        author: 'Frank Herbert',
        isbn: '978-0-593-09823-3',
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ title: 'Dune Messiah', isbn: '9780593098233' });
      expect((await page(1))[0]!._id).toBe(res.json()._id);
    });

    it('takes author and ISBN as optional', async () => {
      const res = await addBook({ title: 'Anonymous', author: '', isbn: '' });
      expect(res.json()).toMatchObject({ author: null, isbn: null });
    });

    it.each([
      [{}, 'body.title'],
      [{ title: '   ' }, 'body.title'],
      [{ title: 'x'.repeat(301) }, 'body.title'],
      [{ title: 'Bad ISBN', isbn: '978-0-593-09823-6' }, 'body.isbn'],
      [{ title: 'Bad ISBN', isbn: 'not-an-isbn' }, 'body.isbn'],
      [{ title: 'Bad author', author: 42 }, 'body.author'],
    ])('answers 400 for %p', async (payload, field) => {
      const res = await addBook(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it('updates a book and keeps both versions, newest first, with who and when', async () => {
      const { _id } = (await addBook({ title: 'Draft title' })).json();
      const admin = bearer((await login(t.app, 'admin')).jwt);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/books/${_id}`,
        headers: admin,
        payload: { title: 'Final title', author: 'Someone', isbn: '0-306-40615-2' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        _id,
        title: 'Final title',
        author: 'Someone',
        isbn: '0306406152',
        _version: 2,
      });

      const history = await versionsOf(_id);
      expect(history.map((v) => [v.action, v.updatedBy, v.document.title])).toEqual([
        ['update', 'admin', 'Final title'],
        ['create', 'contributor', 'Draft title'],
      ]);
      // What each changed, against the version before it.
      expect(history[0]!.changes).toEqual([
        { field: 'author', from: null, to: 'Someone' },
        { field: 'isbn', from: null, to: '0306406152' },
        { field: 'title', from: 'Draft title', to: 'Final title' },
      ]);
      expect(history[1]!.changes).toEqual([{ field: 'title', from: null, to: 'Draft title' }]);
      expect(new Set(history.map((v) => v._id)).size).toBe(2);
      expect(Date.parse(history[0]!.versionDate)).toBeGreaterThanOrEqual(
        Date.parse(history[1]!.versionDate),
      );
    });

    it('answers 404 for an unknown book', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/books/${randomUUID()}`,
        headers: contributor,
        payload: { title: 'x' },
      });
      expect(res.statusCode).toBe(404);
    });

    it('writes nothing, neither book nor version, when the change fails', async () => {
      const before = (await page(1, 100)).length;
      const res = await addBook({ title: 'x'.repeat(301) });
      expect(res.statusCode).toBe(400);
      expect((await page(1, 100)).length).toBe(before);
    });
  });

  describe('DELETE /api/books/:id', () => {
    it('deletes the book and keeps its history', async () => {
      const { _id } = (await addBook({ title: 'Short-lived' })).json();
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/books/${_id}`,
        headers: contributor,
      });
      expect(res.statusCode).toBe(204);
      expect((await page(1, 100)).some((b) => b._id === _id)).toBe(false);
      const history = await versionsOf(_id);
      expect(history.map((v) => [v.action, v.updatedBy, v.document.title])).toEqual([
        ['delete', 'contributor', 'Short-lived'],
        ['create', 'contributor', 'Short-lived'],
      ]);
      expect(history[0]!.changes).toEqual([{ field: 'title', from: 'Short-lived', to: null }]);
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/api/books/${_id}`,
        headers: contributor,
      });
      expect(again.statusCode).toBe(404);
    });

    it('writes no version when there is nothing to delete', async () => {
      const id = randomUUID();
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/books/${id}`,
        headers: contributor,
      });
      expect(res.statusCode).toBe(404);
      expect(
        (await t.app.inject({ url: `/api/books/${id}/versions`, headers: viewer })).statusCode,
      ).toBe(404);
    });

    it('answers 404 for the versions of a book that never existed', async () => {
      const res = await t.app.inject({
        url: `/api/books/${randomUUID()}/versions`,
        headers: viewer,
      });
      expect(res.statusCode).toBe(404);
    });
  });

  describe('permissions', () => {
    it("answers 403 to a viewer's writes", async () => {
      const [book] = await page(1);
      expect((await addBook({ title: 'x' }, viewer)).statusCode).toBe(403);
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await t.app.inject({
          method,
          url: `/api/books/${book!._id}`,
          headers: viewer,
          payload: { title: 'x' },
        });
        expect(res.statusCode).toBe(403);
      }
    });

    it('answers 401 without a token', async () => {
      expect((await t.app.inject({ url: '/api/books' })).statusCode).toBe(401);
    });
  });

  describe('GET /api/books/search-book', () => {
    const search = (title: string) =>
      t.app.inject({
        url: `/api/books/search-book?title=${encodeURIComponent(title)}`,
        headers: viewer,
      });

    it('answers the volumes found, preferring ISBN-13, with the description or its fallback', async () => {
      service.answer(200, {
        totalItems: 2,
        items: [
          volume('Dune', {
            authors: ['Frank Herbert'],
            description: 'Desert planet.',
            ids: { ISBN_10: '0441172717', ISBN_13: '9780441172719' },
          }),
          volume('Dune (annotated)', { ids: { ISBN_10: '0441172717' } }),
        ],
      });
      const res = await search('Dune');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        {
          title: 'Dune',
          authors: ['Frank Herbert'],
          isbn: '9780441172719',
          description: 'Desert planet.',
        },
        {
          title: 'Dune (annotated)',
          authors: [],
          isbn: '0441172717',
          description: 'No description available',
        },
      ]);
      const query = service.queries.at(-1)!;
      expect(query.get('q')).toBe('intitle:Dune');
      expect(query.get('key')).toBe('test-key');
    });

    it('answers at most 10 results', async () => {
      service.answer(200, { items: Array.from({ length: 15 }, (_, i) => volume(`Book ${i}`)) });
      expect((await search('Book')).json()).toHaveLength(10);
    });

    it('answers an empty list when nothing is found', async () => {
      service.answer(200, { kind: 'books#volumes', totalItems: 0 });
      expect((await search('zzzz')).json()).toEqual([]);
    });

    it('copes with volumes missing their fields', async () => {
      service.answer(200, { items: [{}, { volumeInfo: {} }] });
      expect((await search('x')).json()).toEqual([
        { title: '', authors: [], isbn: null, description: 'No description available' },
        { title: '', authors: [], isbn: null, description: 'No description available' },
      ]);
    });

    it('answers 502 when the service answers an error', async () => {
      service.answer(503, { error: { message: 'backend error' } });
      const res = await search('Dune');
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/book lookup service/);
      expect(res.body).not.toContain('backend error');
    });

    it('answers 502 when the service hangs past the timeout', async () => {
      service.hang();
      const started = Date.now();
      const res = await search('Dune');
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe('The book lookup service did not answer in time');
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('answers 400 for an empty title', async () => {
      expect((await search('  ')).statusCode).toBe(400);
    });
  });

  describe('POST /api/books/:id/versions/:versionId/restore', () => {
    const restore = (id: string, versionId: string, headers = contributor) =>
      t.app.inject({
        method: 'POST',
        url: `/api/books/${id}/versions/${versionId}/restore`,
        headers,
      });

    it('makes an earlier version current again, as a new restore version', async () => {
      const { _id } = (await addBook({ title: 'First', author: 'A' })).json();
      await t.app.inject({
        method: 'PUT',
        url: `/api/books/${_id}`,
        headers: contributor,
        payload: { title: 'Second', author: 'B' },
      });
      const first = (await versionsOf(_id)).at(-1)!;
      const res = await restore(_id, first._id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ _id, title: 'First', author: 'A', isbn: null, _version: 3 });
      expect((await page(1, 100)).find((b) => b._id === _id)?.title).toBe('First');
      const [latest] = await versionsOf(_id);
      expect(latest).toMatchObject({ action: 'restore', updatedBy: 'contributor' });
      expect(latest!.changes).toEqual([
        { field: 'author', from: 'B', to: 'A' },
        { field: 'title', from: 'Second', to: 'First' },
      ]);
    });

    it('brings a deleted book back with its id', async () => {
      const { _id } = (await addBook({ title: 'Lost and found' })).json();
      await t.app.inject({ method: 'DELETE', url: `/api/books/${_id}`, headers: contributor });
      const deleted = (await versionsOf(_id))[0]!;
      expect(deleted.action).toBe('delete');
      const res = await restore(_id, deleted._id);
      expect(res.json()).toMatchObject({ _id, title: 'Lost and found' });
      expect((await page(1, 100)).some((b) => b._id === _id)).toBe(true);
      expect((await versionsOf(_id)).map((v) => v.action)).toEqual(['restore', 'delete', 'create']);
      expect((await versionsOf(_id))[0]!.changes).toEqual([
        { field: 'title', from: null, to: 'Lost and found' },
      ]);
    });

    it("answers 404 for a version that is not this book's, and 403 to a viewer", async () => {
      const one = (await addBook({ title: 'One' })).json();
      const other = (await addBook({ title: 'Other' })).json();
      const otherVersion = (await versionsOf(other._id))[0]!;
      expect((await restore(one._id, otherVersion._id)).statusCode).toBe(404);
      expect((await restore(one._id, randomUUID())).statusCode).toBe(404);
      const [own] = await versionsOf(one._id);
      expect((await restore(one._id, own!._id, viewer)).statusCode).toBe(403);
      expect((await versionsOf(one._id)).map((v) => v.action)).toEqual(['create']);
    });
  });

  describe('GET /api/books/:id/versions?page&perPage', () => {
    it('pages a long history newest first, each version compared with the one before it', async () => {
      const { _id } = (await addBook({ title: 'v0' })).json();
      for (let n = 1; n <= 24; n += 1) {
        await t.app.inject({
          method: 'PUT',
          url: `/api/books/${_id}`,
          headers: contributor,
          payload: { title: `v${n}` },
        });
      }
      const pageOf = async (n: number): Promise<Version[]> =>
        (
          await t.app.inject({ url: `/api/books/${_id}/versions?page=${n}`, headers: viewer })
        ).json();
      const first = await pageOf(1);
      expect(first.map((v) => v.document.title)).toEqual(
        Array.from({ length: 20 }, (_, i) => `v${24 - i}`),
      );
      const second = await pageOf(2);
      expect(second.map((v) => v.document.title)).toEqual(['v4', 'v3', 'v2', 'v1', 'v0']);
      // The first of a page is compared with the last of the page before it, not with nothing.
      expect(first.at(-1)!.changes).toEqual([{ field: 'title', from: 'v4', to: 'v5' }]);
      expect(second.at(-1)).toMatchObject({ action: 'create' });
      expect(await pageOf(3)).toEqual([]);
      expect(await versionsOf(_id)).toHaveLength(25);
      const tooMany = await t.app.inject({
        url: `/api/books/${_id}/versions?page=1&perPage=101`,
        headers: viewer,
      });
      expect(tooMany.statusCode).toBe(400);
    });
  });

  describe('GET /api/books/recently-deleted', () => {
    const recentlyDeleted = async (headers = viewer) =>
      (await t.app.inject({ url: '/api/books/recently-deleted', headers })).json() as {
        _id: string;
        versionId: string;
        deletedBy: string;
        document: Book;
      }[];

    it('lists deleted books, latest first, until they are restored', async () => {
      const gone = (await addBook({ title: 'Gone' })).json();
      const back = (await addBook({ title: 'Back again' })).json();
      for (const id of [gone._id, back._id]) {
        await t.app.inject({ method: 'DELETE', url: `/api/books/${id}`, headers: contributor });
      }
      const listed = await recentlyDeleted();
      expect(listed.slice(0, 2).map((item) => item.document.title)).toEqual(['Back again', 'Gone']);
      expect(listed[0]).toMatchObject({ _id: back._id, deletedBy: 'contributor' });
      const restored = await t.app.inject({
        method: 'POST',
        url: `/api/books/${back._id}/versions/${listed[0]!.versionId}/restore`,
        headers: contributor,
      });
      expect(restored.json()).toMatchObject({ _id: back._id, title: 'Back again' });
      const after = await recentlyDeleted();
      expect(after.map((item) => item._id)).not.toContain(back._id);
      expect(after.map((item) => item._id)).toContain(gone._id);
    });

    it('answers 401 without a token', async () => {
      const res = await t.app.inject({ url: '/api/books/recently-deleted' });
      expect(res.statusCode).toBe(401);
    });
  });
});

describe('the book lookup service unreachable', () => {
  it('answers 502', async () => {
    const t = await startTestApp('pglite', { BOOKS_API_URL: 'http://127.0.0.1:9/volumes' });
    const res = await t.app.inject({
      url: '/api/books/search-book?title=Dune',
      headers: bearer((await login(t.app, 'viewer')).jwt),
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe('The book lookup service could not be reached or failed');
    await t.close();
  });
});
