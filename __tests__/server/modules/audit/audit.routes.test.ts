import { sql } from 'drizzle-orm';
import type { AuditEvent, AuditPage } from '@common/schemas/audit';
import type { Version } from '@common/schemas/versions';
import { queryRows } from '@server/db/client';
import { csvField } from '@server/lib/csv';
import { bearer, login, registerUser } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

const BROWSER = 'Mozilla/5.0 (test)';

describe.each(testDbKinds)('the audit log on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let contributor: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = { ...bearer((await login(t.app, 'admin')).jwt), 'user-agent': BROWSER };
    contributor = { ...bearer((await login(t.app, 'contributor')).jwt), 'user-agent': BROWSER };
  });
  afterAll(() => t.close());

  const audit = async (query: Record<string, string> = {}): Promise<AuditPage> => {
    const res = await t.app.inject({ url: '/api/audit', query, headers: admin });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const eventsOf = async (resourceId: string): Promise<AuditEvent[]> =>
    (await audit({ perPage: '100' })).events.filter((event) => event.resourceId === resourceId);
  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers = admin,
  ) => t.app.inject({ method, url, payload, headers });

  describe('writes', () => {
    it("records a book's create, update, delete and restore with who, from where, and what", async () => {
      const { _id } = (await send('POST', '/api/books/add', { title: 'Dune' }, contributor)).json();
      await send('PUT', `/api/books/${_id}`, { title: 'Dune Messiah' }, contributor);
      await send('DELETE', `/api/books/${_id}`, undefined, contributor);
      const versions = (
        await t.app.inject({ url: `/api/books/${_id}/versions`, headers: admin })
      ).json() as Version[];
      await send('POST', `/api/books/${_id}/versions/${versions[0]!._id}/restore`);
      const events = await eventsOf(_id);
      expect(events.map((e) => [e.action, e.actor?.name, e.summary])).toEqual([
        ['book.restore', 'admin', 'Restored the book "Dune Messiah"'],
        ['book.delete', 'contributor', 'Deleted the book "Dune Messiah"'],
        ['book.update', 'contributor', 'Changed the book "Dune Messiah"'],
        ['book.create', 'contributor', 'Added the book "Dune"'],
      ]);
      expect(events[0]).toMatchObject({
        resource: 'book',
        ip: '127.0.0.1',
        userAgent: BROWSER,
        actor: { id: expect.any(String), name: 'admin' },
      });
    });

    it('records users, roles, memberships, passwords and route grants', async () => {
      const roleRes = await send('POST', '/api/roles', { name: 'auditors' });
      const role = roleRes.json() as { _id: string };
      const user = (
        await send('POST', '/api/users', {
          username: 'audited',
          email: 'audited@example.com',
          password: 'a-good-password',
          roles: [],
        })
      ).json() as { _id: string };
      await send('PUT', `/api/roles/${role._id}/users/${user._id}`);
      await send('PUT', `/api/roles/${role._id}/users/${user._id}`);
      await send('PUT', `/api/users/${user._id}/password`, { password: 'another-password' });
      await send('PUT', `/api/users/${user._id}`, { username: 'audited2', email: null });
      const routes = (await t.app.inject({ url: '/api/routes', headers: admin })).json() as {
        _id: string;
        routeVerb: string;
        routePath: string;
      }[];
      const booksRoute = routes.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/books')!;
      await send('PUT', `/api/routes/${booksRoute._id}`, { allowedRoles: ['admin', 'auditors'] });
      await send('DELETE', `/api/users/${user._id}`);
      await send('DELETE', `/api/roles/${role._id}`);

      const { events } = await audit({ actor: 'admin', perPage: '20' });
      const summaries = events
        .filter((e) => e.action !== 'auth.login')
        .slice(0, 9)
        .map((e) => `${e.action}: ${e.summary}`)
        .reverse();
      expect(summaries).toEqual([
        'role.create: Added the role auditors',
        'user.create: Added the user audited',
        'role.assign: Gave the role auditors to audited',
        'role.unassign: Took the role auditors from audited',
        'user.password_reset: Set the password of audited, ended their sessions and revoked their access tokens',
        'user.update: Changed the user audited2 (was audited)',
        'route.update: GET /api/books: admin, auditors (was admin, contributor, viewer)',
        'user.delete: Deleted the user audited2',
        'role.delete: Deleted the role auditors',
      ]);
      // Put the grant back for the other tests.
      await send('PUT', `/api/routes/${booksRoute._id}`, {
        allowedRoles: ['admin', 'contributor', 'viewer'],
      });
    });

    it('records sign-ins, failures (anonymously), sign-outs and a refresh token used twice', async () => {
      const failed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'viewer', password: 'wrong-password' },
        headers: { 'user-agent': BROWSER },
      });
      expect(failed.statusCode).toBe(401);
      const session = await login(t.app, 'viewer');
      const refreshed = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        payload: { refreshToken: session.refreshToken },
      });
      expect(refreshed.statusCode).toBe(200);
      t.clock.advance(60_000); // past the grace of a spent token: it is now reuse
      const reused = await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh-token',
        payload: { refreshToken: session.refreshToken },
      });
      expect(reused.statusCode).toBe(401);
      const other = await login(t.app, 'viewer');
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: other.refreshToken },
      });
      const { email } = await registerUser(t.app);

      const { events } = await audit({ resource: 'auth', perPage: '10' });
      expect(events.slice(0, 6).map((e) => [e.action, e.actor?.name ?? null])).toEqual([
        ['auth.register', email],
        ['auth.logout', 'viewer'],
        ['auth.login', 'viewer'],
        ['auth.refresh_reuse_detected', 'viewer'],
        ['auth.login', 'viewer'],
        ['auth.login_failed', null],
      ]);
      expect(events[5]).toMatchObject({
        actor: null,
        summary: 'Failed sign-in as "viewer"',
        userAgent: BROWSER,
      });
    });

    it("writes the event in the change's transaction: a failed event write leaves no change", async () => {
      // A trigger refuses this one event, after the book's insert and its version.
      await t.database.db.execute(sql`
        create function refuse_doomed() returns trigger language plpgsql as $$
        begin raise exception 'refused'; end $$`);
      await t.database.db.execute(sql`
        create trigger refuse_doomed before insert on audit_events for each row
        when (new.summary like '%Doomed%') execute function refuse_doomed()`);
      try {
        const res = await send('POST', '/api/books/add', { title: 'Doomed' }, contributor);
        expect(res.statusCode).toBe(500);
        const books = await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from books where title = 'Doomed'`,
        );
        const versions = await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from versions where document->>'title' = 'Doomed'`,
        );
        expect([books[0]!.n, versions[0]!.n]).toEqual([0, 0]);
      } finally {
        await t.database.db.execute(sql`drop trigger refuse_doomed on audit_events`);
        await t.database.db.execute(sql`drop function refuse_doomed`);
      }
    });

    it("records a record's create and delete, and writes each with its change or not at all", async () => {
      await send('POST', '/api/entities', {
        name: 'Audited',
        description: '',
        fields: [{ name: 'make', label: 'Make' }],
      });
      const base = '/api/entity-records/Audited';
      const { _id } = (await send('POST', base, { fields: { make: 'Ford' } }, contributor)).json();
      await send('DELETE', `${base}/${_id}`, undefined, contributor);
      const events = await eventsOf(_id);
      expect(events.map((e) => [e.action, e.actor?.name, e.summary])).toEqual([
        ['record.delete', 'contributor', 'Deleted a record of Audited'],
        ['record.create', 'contributor', 'Added a record of Audited'],
      ]);
      expect(events[0]).toMatchObject({ resource: 'record', ip: '127.0.0.1', userAgent: BROWSER });

      // A trigger refuses the audit event of each write in turn, after the write itself and its
      // version: neither may stay.
      const count = async (table: 'records' | 'versions', recordId: string) => {
        if (table === 'records') {
          const records: { _id: string }[] = (await send('GET', base)).json();
          return records.filter((record) => record._id === recordId).length;
        }
        const [row] = await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from versions where document_id = ${recordId}`,
        );
        return row!.n;
      };
      const refuse = async (action: string) => {
        await t.database.db.execute(sql`
          create or replace function refuse_record() returns trigger language plpgsql as $$
          begin raise exception 'refused'; end $$`);
        await t.database.db.execute(
          sql.raw(`
          create trigger refuse_record before insert on audit_events for each row
          when (new.action = '${action}') execute function refuse_record()`),
        );
      };
      const allow = () => t.database.db.execute(sql`drop trigger refuse_record on audit_events`);
      try {
        const chosen = crypto.randomUUID();
        await refuse('record.create');
        const created = await send('POST', base, { _id: chosen, fields: { make: 'Fiat' } });
        expect(created.statusCode).toBe(500);
        expect([await count('records', chosen), await count('versions', chosen)]).toEqual([0, 0]);
        await allow();

        expect(
          (await send('POST', base, { _id: chosen, fields: { make: 'Fiat' } })).statusCode,
        ).toBe(201);
        await refuse('record.delete');
        expect((await send('DELETE', `${base}/${chosen}`)).statusCode).toBe(500);
        expect([await count('records', chosen), await count('versions', chosen)]).toEqual([1, 1]);
      } finally {
        await allow();
        await t.database.db.execute(sql`drop function refuse_record`);
      }
    });

    it('writes no event for a change that is refused', async () => {
      const before = (await audit()).total;
      expect((await send('DELETE', '/api/roles/not-a-uuid')).statusCode).toBe(400);
      const admins = (await t.app.inject({ url: '/api/roles', headers: admin })).json() as {
        _id: string;
        name: string;
      }[];
      const adminRole = admins.find((role) => role.name === 'admin')!;
      expect((await send('DELETE', `/api/roles/${adminRole._id}`)).statusCode).toBe(400);
      // Neither refusal wrote an event (and reads write none).
      expect((await audit()).total).toBe(before);
    });
  });

  describe('GET /api/audit', () => {
    it('filters by actor, action, resource and time, and pages newest first', async () => {
      for (const title of ['A', 'B', 'C']) {
        await send('POST', '/api/books/add', { title: `Paged ${title}` }, contributor);
      }
      const created = await audit({ action: 'book.create', actor: 'contributor', perPage: '2' });
      expect(created.events.map((e) => e.summary)).toEqual([
        'Added the book "Paged C"',
        'Added the book "Paged B"',
      ]);
      const next = await audit({
        action: 'book.create',
        actor: 'contributor',
        perPage: '2',
        page: '2',
      });
      expect(next.events[0]!.summary).toBe('Added the book "Paged A"');
      expect(next.total).toBe(created.total);
      expect(created.totalIsCapped).toBe(false);

      const at = created.events[1]!.at;
      const until = await audit({ action: 'book.create', to: at, perPage: '100' });
      expect(until.events.every((e) => e.at < at)).toBe(true);
      const since = await audit({ action: 'book.create', from: at, perPage: '100' });
      expect(since.events.map((e) => e.summary).slice(0, 2)).toEqual([
        'Added the book "Paged C"',
        'Added the book "Paged B"',
      ]);
      expect((await audit({ resource: 'role' })).events.every((e) => e.resource === 'role')).toBe(
        true,
      );
      const byId = await audit({ actor: created.events[0]!.actor!.id!, action: 'book.create' });
      expect(byId.total).toBe(created.total);
    });

    it('answers 400 for a bad filter, and 403 to anyone but an admin by default', async () => {
      const bad: Record<string, string>[] = [
        { resource: 'planet' },
        { from: 'yesterday' },
        { perPage: '500' },
      ];
      for (const query of bad) {
        const res = await t.app.inject({ url: '/api/audit', query, headers: admin });
        expect(res.statusCode).toBe(400);
      }
      const viewer = bearer((await login(t.app, 'viewer')).jwt);
      for (const url of ['/api/audit', '/api/audit/export']) {
        expect((await t.app.inject({ url, headers: contributor })).statusCode).toBe(403);
        expect((await t.app.inject({ url, headers: viewer })).statusCode).toBe(403);
        expect((await t.app.inject({ url })).statusCode).toBe(401);
      }
    });
  });

  describe('GET /api/audit/export', () => {
    it('streams the filter as RFC 4180 CSV that no spreadsheet runs as a formula', async () => {
      const title = 'A title, with "quotes"';
      // A client names itself: a user agent a spreadsheet would run as a formula.
      const evil = "=cmd|' /C calc'!A0";
      const book = (
        await send('POST', '/api/books/add', { title }, { ...contributor, 'user-agent': evil })
      ).json();
      const res = await t.app.inject({
        url: '/api/audit/export',
        query: { action: 'book.create', actor: 'contributor' },
        headers: admin,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="audit.csv"');
      const [header, first] = res.body.split('\r\n');
      // A byte-order mark first, for Excel to read it as UTF-8; the log's headings.
      expect(header).toBe(
        '\uFEFFWhen,Who,Who (ID),Action,Resource,Resource ID,What,Address,Browser',
      );
      expect(first).toMatch(/^\d{4}-\d\d-\d\dT[^,]+Z,contributor,[0-9a-f-]{36},book\.create,book,/);
      // The summary quoted (a comma, quotes), its quotes doubled; the user agent defused.
      expect(first).toContain(
        `${book._id},"Added the book ""A title, with ""quotes""""",127.0.0.1,'=cmd|' /C calc'!A0`,
      );
      const total = (await audit({ action: 'book.create', actor: 'contributor' })).total;
      expect(res.body.trimEnd().split('\r\n')).toHaveLength(total + 1);
    });

    it('reads past its batches in order, nothing lost or repeated', async () => {
      await t.database.db.execute(sql`
        insert into audit_events (at, action, resource, summary)
        select now() - n * interval '1 microsecond', 'book.bulk', 'book', 'bulk ' || n
        from generate_series(1, 2500) n`);
      const res = await t.app.inject({
        url: '/api/audit/export',
        query: { action: 'book.bulk', columns: 'summary' },
        headers: admin,
      });
      const summaries = res.body.trimEnd().split('\r\n').slice(1);
      expect(summaries).toEqual(Array.from({ length: 2500 }, (_, i) => `bulk ${i + 1}`));
    });

    it('puts an apostrophe before a leading =, +, -, @, tab or CR (not a number) and quotes what needs it', () => {
      const fields = ['=1+1', '+A1', '-1+1', '@SUM(A1)', '\tx', '\rx', 'plain', 'a,b', 'say "hi"'];
      expect([...fields, 'two\nlines', '-7.25', '+3', '1e-5', null].map(csvField)).toEqual([
        "'=1+1",
        "'+A1",
        "'-1+1",
        "'@SUM(A1)",
        "'\tx",
        `"'\rx"`,
        'plain',
        '"a,b"',
        '"say ""hi"""',
        '"two\nlines"',
        '-7.25',
        '+3',
        '1e-5',
        '',
      ]);
    });
  });
});
