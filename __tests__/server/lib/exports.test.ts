import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Entity, EntityRecord, RecordPage } from '@common/schemas/entities';
import type { Book } from '@common/schemas/books';
import type { JobList } from '@common/schemas/jobs';
import type { User } from '@common/schemas/users';
import { csvField } from '@server/lib/csv';
import { DOWNLOAD_TICKET_SECONDS } from '@server/lib/tokens';
import { columnOf, tableOf } from '@server/modules/records/recordTable';
import { bearer, login, registerUser } from '../helpers/auth';
import { type TestApp, startTestApp } from '../helpers/testApp';
import { testDbKinds } from '../helpers/testDatabase';

/** A CSV export's lines, without its byte-order mark and final line break. */
const csvLines = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

/** The job list's quick-search rule, as the reference: every word in one of the fields. */
const holdsEvery = (q: string, fields: (string | null)[]) =>
  q
    .split(/\s+/)
    .filter(Boolean)
    .every((word) =>
      fields.some((field) => (field ?? '').toLowerCase().includes(word.toLowerCase())),
    );

describe.each(testDbKinds)('exports and quick search on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let viewer: Record<string, string>;
  const get = (url: string, headers = admin, query?: Record<string, string>) =>
    t.app.inject({ url, headers, query });

  beforeAll(async () => {
    t = await startTestApp(kind, { SEED_JOBS: '1200' });
    admin = bearer((await login(t.app, 'admin')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
  });
  afterAll(() => t.close());

  describe('users', () => {
    it('exports the users of a search in the sort asked, as CSV with the grid headings', async () => {
      for (const [name, email] of [
        ['omega', null],
        ['Olga', 'olga@ex.org'],
        ['zed', 'zed@ex.org'],
        ['=SUM(A1)', 'sum@ex.org'],
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/users',
          headers: admin,
          payload: { username: name, email, password: 'long-enough' },
        });
        expect(res.statusCode).toBe(201);
      }
      const users = (await get('/api/users')).json() as User[];
      const res = await get('/api/users/export', admin, { q: 'O', sort: 'username:desc' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe('attachment; filename="users.csv"');
      expect(res.body.startsWith('\uFEFFID,Username,Email,Roles\r\n')).toBe(true);
      const expected = users
        .filter((user) =>
          holdsEvery('O', [user.username, user.email, user.roles.map((r) => r.name).join(', ')]),
        )
        .map((user) => csvField(user.username))
        .reverse();
      expect(
        csvLines(res.body)
          .slice(1)
          .map((line) => line.split(',')[1]),
      ).toEqual(expected);
    });

    it('writes the columns asked, in their order, and defuses a formula', async () => {
      const res = await get('/api/users/export', admin, { q: 'sum', columns: 'email,username' });
      expect(csvLines(res.body)).toEqual(['Email,Username', "sum@ex.org,'=SUM(A1)"]);
    });

    it('answers JSON keyed by the column names', async () => {
      const res = await get('/api/users/export', admin, {
        q: 'zed',
        format: 'json',
        columns: 'username,email',
      });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toEqual([{ username: 'zed', email: 'zed@ex.org' }]);
    });

    it('goes compressed to a client that accepts it, flushed batch by batch', async () => {
      const plain = await get('/api/users/export', admin);
      const res = await t.app.inject({
        url: '/api/users/export',
        headers: { ...admin, 'accept-encoding': 'gzip' },
      });
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(res.rawPayload).toString()).toBe(plain.body);
    });

    it('refuses a column the list does not have, by name', async () => {
      const res = await get('/api/users/export', admin, { columns: 'username,passwordHash' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([
        { field: 'querystring.columns', message: 'has no column passwordHash' },
      ]);
    });

    it('is a read of the list: refused to whoever may not read the users', async () => {
      expect((await get('/api/users/export', viewer)).statusCode).toBe(403);
      expect((await get('/api/users/export', {})).statusCode).toBe(401);
    });
  });

  describe('books', () => {
    it('finds by every word in title, author or ISBN, as a plain scan does, page by page', async () => {
      const titles = ['Dune', 'Dune Messiah', 'Children of Dune', 'Emma', 'Persuasion'];
      for (const [i, title] of titles.entries()) {
        await t.app.inject({
          method: 'POST',
          url: '/api/books/add',
          headers: admin,
          payload: { title, author: i % 2 ? 'Frank Herbert' : 'Jane Austen' },
        });
      }
      const all = (await get('/api/books', admin, { perPage: '100' })).json() as Book[];
      for (const q of ['dune', 'DUNE herbert', 'austen e', 'nothing-like-it']) {
        const expected = all.filter((book) => holdsEvery(q, [book.title, book.author, book.isbn]));
        const first = (await get('/api/books', admin, { q, perPage: '2' })).json() as Book[];
        const second = (await get('/api/books', admin, { q, page: '2', perPage: '2' })).json();
        expect([...first, ...second]).toEqual(expected.slice(0, 4));
        const exported = await get('/api/books/export', admin, { q, format: 'json' });
        expect(exported.json()).toEqual(
          expected.map(({ _id, title, author, isbn }) => ({ _id, title, author, isbn })),
        );
      }
    });

    it('is refused to a user with no role', async () => {
      const nobody = bearer((await registerUser(t.app)).jwt);
      expect((await get('/api/books/export', nobody)).statusCode).toBe(403);
      expect((await get('/api/books/export', viewer)).statusCode).toBe(200);
    });
  });

  describe('roles', () => {
    it('exports the roles of a search by name', async () => {
      const res = await get('/api/roles/export', admin, { q: 'N' });
      const lines = csvLines(res.body);
      expect(lines[0]).toBe('ID,Name');
      expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(['admin', 'contributor']);
    });
  });

  describe('jobs', () => {
    it("exports a filter's jobs in the list's order, all pages", async () => {
      const list = async (query: Record<string, string>) =>
        (await get('/api/LIMS/jobs', admin, query)).json() as JobList;
      const some = (await list({ perPage: '20' })).jobs[3]!;
      const word = some.description.split(' ')[1]!.slice(0, 3);
      for (const sort of [
        { sortColumn: 'status', sortOrder: 'desc' },
        { sortColumn: 'friendlyNumber', sortOrder: 'asc' },
      ]) {
        const listed = [];
        for (let page = 1; ; page++) {
          const answer = await list({ filter: word, perPage: '100', page: String(page), ...sort });
          if (answer.page !== page) break;
          listed.push(...answer.jobs);
        }
        expect(listed.length).toBeGreaterThan(0);
        const res = await get('/api/LIMS/jobs/export', admin, { filter: word, ...sort });
        const numbers = csvLines(res.body)
          .slice(1)
          .map((line) => line.split(',')[1]);
        expect(numbers).toEqual(listed.map((job) => job.friendlyNumber));
      }
    });
  });

  describe('records', () => {
    let entity: Entity;
    beforeAll(async () => {
      entity = (
        await t.app.inject({
          method: 'POST',
          url: '/api/entities',
          headers: admin,
          payload: {
            name: `Sample_${randomUUID().slice(0, 8)}`,
            fields: [
              { name: 'code', label: 'Code' },
              { name: 'count', label: 'Count', type: 'integer' },
            ],
          },
        })
      ).json();
      // More than a batch, many ties and empty values: every batch starts where the last ended.
      await t.database.db.execute(
        sql.raw(`insert into ${tableOf(entity._id)} (${columnOf('code')}, ${columnOf('count')})
          select 'c' || n, case when n % 4 = 0 then null else n % 3 end
          from generate_series(1, 2500) n`),
      );
    });

    it("exports the filter's records in the sort's order, nothing lost or repeated", async () => {
      for (const sort of ['count:desc', 'count:asc', undefined]) {
        const query = { 'filter[code][contains]': '1', ...(sort ? { sort } : {}) };
        const listed: EntityRecord[] = [];
        for (let page = 1; page <= 20; page++) {
          const answer = (
            await get(`/api/entity-records/${entity.name}`, admin, {
              ...query,
              perPage: '100',
              page: String(page),
            })
          ).json() as RecordPage;
          listed.push(...answer.records);
          if (answer.records.length < 100) break;
        }
        const res = await get(`/api/entity-records/${entity.name}/export`, admin, {
          ...query,
          format: 'json',
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(
          listed.map((record) => ({
            _id: record._id,
            code: record.fields.code,
            count: record.fields.count ?? null,
          })),
        );
      }
    });

    it('writes a negative number as a number, a text that would compute defused', async () => {
      for (const [code, count] of [
        ['-1+1', -7],
        ['neg', -12],
      ] as const) {
        await t.app.inject({
          method: 'POST',
          url: `/api/entity-records/${entity.name}`,
          headers: admin,
          payload: { fields: { code, count } },
        });
      }
      const res = await get(`/api/entity-records/${entity.name}/export`, admin, {
        'filter[count][lt]': '0',
        sort: 'count:asc',
        columns: 'code,count',
      });
      expect(csvLines(res.body)).toEqual(['Code,Count', 'neg,-12', "'-1+1,-7"]);
    });

    it('heads each field by its label', async () => {
      const res = await get(`/api/entity-records/${entity.name}/export`, admin, {
        'filter[code][eq]': 'c7',
      });
      expect(csvLines(res.body)).toEqual([
        'ID,Code,Count',
        expect.stringMatching(/^[0-9a-f-]{36},c7,1$/),
      ]);
    });
  });

  describe('download links', () => {
    const linkFor = (path: string, headers = admin) =>
      t.app.inject({ method: 'POST', url: '/api/auth/download-link', headers, payload: { path } });

    it('downloads the export without a header, and nothing else', async () => {
      const path = '/api/users/export?q=zed&columns=username';
      const { url } = (await linkFor(path)).json();
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(csvLines(res.body)).toEqual(['Username', 'zed']);
      // Bound to its query and its path; never an access token.
      const ticket = new URL(url, 'http://x').searchParams.get('ticket')!;
      expect(
        (await t.app.inject({ url: `/api/users/export?q=o&columns=username&ticket=${ticket}` }))
          .statusCode,
      ).toBe(401);
      expect((await t.app.inject({ url: `/api/books/export?ticket=${ticket}` })).statusCode).toBe(
        401,
      );
      expect((await get('/api/users', bearer(ticket))).statusCode).toBe(401);
    });

    it("opens every list's export, with its filter", async () => {
      const entity = (await get('/api/entities')).json()[0] as Entity;
      for (const path of [
        '/api/users/export?q=zed',
        '/api/roles/export?q=a',
        '/api/books/export?q=dune',
        '/api/LIMS/jobs/export?filter=a&sortColumn=status',
        `/api/entity-records/${entity.name}/export?sort=count:desc&filter[code][eq]=c7`,
        '/api/audit/export?action=book.create',
      ]) {
        const { url } = (await linkFor(path)).json();
        const res = await t.app.inject({ url });
        expect([path, res.statusCode]).toEqual([path, 200]);
        expect(res.body.startsWith('\uFEFF')).toBe(true);
      }
    });

    it('opens nothing to whoever may not read the list, and ends after a minute', async () => {
      const { url } = (await linkFor('/api/users/export', viewer)).json();
      expect((await t.app.inject({ url })).statusCode).toBe(403);
      const later = (await linkFor('/api/books/export', viewer)).json().url;
      t.clock.advance((DOWNLOAD_TICKET_SECONDS + 1) * 1000);
      expect((await t.app.inject({ url: later })).json().code).toBe('UNAUTHENTICATED');
    });

    it('ends with the session it was made in', async () => {
      const session = await login(t.app, 'viewer');
      const { url } = (await linkFor('/api/books/export', bearer(session.jwt))).json();
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: session.refreshToken },
      });
      expect((await t.app.inject({ url })).json().code).toBe('UNAUTHENTICATED');
    });

    it('is only made for an export of the API', async () => {
      expect((await linkFor('/api/users')).statusCode).toBe(400);
      expect((await linkFor('https://evil.example/api/users/export')).statusCode).toBe(400);
    });
  });
});
