import type { Book } from '@common/schemas/books';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import type { RoutePermission } from '@common/schemas/permissions';
import type { User } from '@common/schemas/users';
import type { Version } from '@common/schemas/versions';
import { bearer, login } from './helpers/auth';
import { type TestApp, startTestApp } from './helpers/testApp';
import { testDbKinds } from './helpers/testDatabase';

describe.each(testDbKinds)('optimistic concurrency on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => t.app.inject({ method, url, payload, headers: { ...admin, ...headers } });

  const addBook = async (title = 'Dune'): Promise<Book> =>
    (await call('POST', '/api/books/add', { title })).json();

  describe('_version and ETag', () => {
    it('starts at 1, counts every change, and tags single items', async () => {
      const book = await addBook();
      expect(book._version).toBe(1);
      const first = await call('PUT', `/api/books/${book._id}`, { title: 'Dune I' });
      expect(first.json()._version).toBe(2);
      expect(first.headers.etag).toBe('"2"');
      const second = await call('PUT', `/api/books/${book._id}`, { title: 'Dune II' });
      expect(second.json()._version).toBe(3);

      const role = (await call('POST', '/api/roles', { name: 'auditors' })).json();
      const one = await call('GET', `/api/roles/${role._id}`);
      expect(one.headers.etag).toBe('"1"');
      // A list is not one item: no ETag.
      expect((await call('GET', '/api/roles')).headers.etag).toBeUndefined();
    });

    it('counts membership changes on both the role and the user', async () => {
      const role = (await call('POST', '/api/roles', { name: 'editors' })).json();
      const users: User[] = (await call('GET', '/api/users')).json();
      const viewer = users.find((user) => user.username === 'viewer')!;
      await call('PUT', `/api/roles/${role._id}/users/${viewer._id}`);
      expect((await call('GET', `/api/roles/${role._id}`)).json()._version).toBe(2);
      const after: User[] = (await call('GET', '/api/users')).json();
      expect(after.find((user) => user._id === viewer._id)!._version).toBe(viewer._version + 1);
    });
  });

  describe('a stale save', () => {
    it('answers 409 VERSION_CONFLICT with the current book, by If-Match or by body', async () => {
      const book = await addBook('Emma');
      const theirs = await call('PUT', `/api/books/${book._id}`, { title: 'Emma (theirs)' });
      expect(theirs.statusCode).toBe(200);

      const byHeader = await call(
        'PUT',
        `/api/books/${book._id}`,
        { title: 'Emma (mine)' },
        { 'if-match': '"1"' },
      );
      expect(byHeader.statusCode).toBe(409);
      expect(byHeader.json()).toMatchObject({
        code: 'VERSION_CONFLICT',
        current: { _id: book._id, title: 'Emma (theirs)', _version: 2 },
      });
      const byBody = await call('PUT', `/api/books/${book._id}`, {
        title: 'Emma (mine)',
        _version: 1,
      });
      expect(byBody.statusCode).toBe(409);
      expect(byBody.json().current.title).toBe('Emma (theirs)');
      // Nothing was written by either.
      const history: Version[] = (await call('GET', `/api/books/${book._id}/versions`)).json();
      expect(history).toHaveLength(2);

      // Based on the current version (a weak tag too), it saves.
      const applied = await call(
        'PUT',
        `/api/books/${book._id}`,
        { title: 'Emma (mine)' },
        { 'if-match': 'W/"2"' },
      );
      expect(applied.statusCode).toBe(200);
      expect(applied.json()._version).toBe(3);
    });

    it('answers 409 for users, definitions, records and routes too', async () => {
      const users: User[] = (await call('GET', '/api/users')).json();
      const viewer = users.find((user) => user.username === 'viewer')!;
      const staleUser = await call('PUT', `/api/users/${viewer._id}`, {
        username: 'viewer',
        email: 'viewer@example.com',
        _version: viewer._version + 1,
      });
      expect(staleUser.statusCode).toBe(409);
      expect(staleUser.json().current).toEqual(viewer);

      const car: Entity = (
        await call('POST', '/api/entities', { name: 'Car', fields: [{ name: 'make' }] })
      ).json();
      const staleEntity = await call(
        'PUT',
        `/api/entities/${car._id}`,
        { name: 'Car', category: 'Fleet', fields: [{ name: 'make' }] },
        { 'if-match': '"7"' },
      );
      expect(staleEntity.statusCode).toBe(409);
      expect(staleEntity.json().current).toEqual(car);

      const { _id } = (
        await call('POST', '/api/entity-records/Car', { fields: { make: 'Ford' } })
      ).json();
      await call('PUT', `/api/entity-records/Car/${_id}`, { fields: { make: 'Fiat' } });
      const staleRecord = await call('PUT', `/api/entity-records/Car/${_id}`, {
        fields: { make: 'Saab' },
        _version: 1,
      });
      expect(staleRecord.statusCode).toBe(409);
      expect(staleRecord.json().current).toEqual({
        _id,
        entity_name: 'Car',
        fields: { make: 'Fiat' },
        _version: 2,
        _createdBy: expect.any(String) as string,
      } satisfies EntityRecord);

      const routes: RoutePermission[] = (await call('GET', '/api/routes')).json();
      const route = routes.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/books')!;
      const staleRoute = await call(
        'PUT',
        `/api/routes/${route._id}`,
        { allowedRoles: ['admin'] },
        { 'if-match': `"${route._version + 1}"` },
      );
      expect(staleRoute.statusCode).toBe(409);
      expect(staleRoute.json().current).toEqual(route);
    });

    it('answers 409 to a restore based on a stale version', async () => {
      const book = await addBook('Persuasion');
      await call('PUT', `/api/books/${book._id}`, { title: 'Persuasion (2nd)' });
      const [, first] = (await call('GET', `/api/books/${book._id}/versions`)).json() as Version[];
      const stale = await call(
        'POST',
        `/api/books/${book._id}/versions/${first!._id}/restore`,
        undefined,
        { 'if-match': '"1"' },
      );
      expect(stale.statusCode).toBe(409);
      expect(stale.json().current.title).toBe('Persuasion (2nd)');
      const current = await call(
        'POST',
        `/api/books/${book._id}/versions/${first!._id}/restore`,
        undefined,
        { 'if-match': '"2"' },
      );
      expect(current.json()).toMatchObject({ title: 'Persuasion', _version: 3 });
    });

    it('answers 400 to an If-Match that is not one quoted version, and saves without one', async () => {
      const book = await addBook('Sanditon');
      for (const tag of ['2', '"x"', '"1", "2"']) {
        const res = await call(
          'PUT',
          `/api/books/${book._id}`,
          { title: 'S' },
          { 'if-match': tag },
        );
        expect(res.statusCode).toBe(400);
        expect(res.json().fields).toEqual([
          { field: 'headers.if-match', message: expect.any(String) },
        ]);
      }
      const bad = await call('PUT', `/api/books/${book._id}`, { title: 'S', _version: 'one' });
      expect(bad.statusCode).toBe(400);
      // The spec's payloads carry no version: the last write wins, as before.
      expect((await call('PUT', `/api/books/${book._id}`, { title: 'S' })).statusCode).toBe(200);
      expect(
        (await call('PUT', `/api/books/${book._id}`, { title: 'S' }, { 'if-match': '*' }))
          .statusCode,
      ).toBe(200);
    });
  });

  it('lets exactly one of several concurrent saves of one version win', async () => {
    const book = await addBook('Mansfield Park');
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        call(
          'PUT',
          `/api/books/${book._id}`,
          { title: `Mansfield Park ${n}` },
          { 'if-match': '"1"' },
        ),
      ),
    );
    const statuses = saves.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const winner = saves.find((res) => res.statusCode === 200)!.json();
    for (const loser of saves.filter((res) => res.statusCode === 409)) {
      expect(loser.json().current).toEqual(winner);
    }
    const history: Version[] = (await call('GET', `/api/books/${book._id}/versions`)).json();
    expect(history).toHaveLength(2);
  });
});
