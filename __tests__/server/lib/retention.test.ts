import { sql } from 'drizzle-orm';
import type { Version } from '@common/schemas/versions';
import { queryRows } from '@server/db/client';
import { pruneRetained } from '@server/lib/retention';
import { bearer, login } from '../helpers/auth';
import { eventually } from '../helpers/eventually';
import { type TestApp, startTestApp } from '../helpers/testApp';
import { testDbKinds } from '../helpers/testDatabase';

const DAY_MS = 86_400_000;
const KEEP_ALL = { historyDays: undefined, historyMaxVersions: undefined, auditDays: undefined };

describe.each(testDbKinds)('retention on %s', (kind) => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    headers = bearer((await login(t.app, 'admin')).jwt);
  });
  afterAll(() => t.close());

  const addBook = async (title: string): Promise<string> =>
    (
      await t.app.inject({ method: 'POST', url: '/api/books/add', headers, payload: { title } })
    ).json()._id;
  const edit = (id: string, title: string) =>
    t.app.inject({ method: 'PUT', url: `/api/books/${id}`, headers, payload: { title } });
  const history = async (id: string): Promise<Version[]> => {
    const res = await t.app.inject({ url: `/api/books/${id}/versions`, headers });
    return res.statusCode === 404 ? [] : res.json();
  };
  /** Moves a book's versions (or all audit events) `days` into the past. */
  const age = (id: string, days: number) =>
    t.database.db.execute(
      sql`update versions set version_date = version_date - ${days * DAY_MS} * interval '1 millisecond' where document_id = ${id}`,
    );

  it('keeps each item its newest HISTORY_MAX_VERSIONS versions', async () => {
    const id = await addBook('v1');
    for (const title of ['v2', 'v3', 'v4']) await edit(id, title);
    const pruned = await pruneRetained(
      t.database.db,
      { ...KEEP_ALL, historyMaxVersions: 2 },
      new Date(),
    );
    expect(pruned.versions).toBeGreaterThanOrEqual(2);
    expect((await history(id)).map((v) => v.document.title)).toEqual(['v4', 'v3']);
  });

  it("drops versions past HISTORY_RETENTION_DAYS but an item's current one; a deleted item goes", async () => {
    const live = await addBook('old');
    await edit(live, 'older');
    const gone = await addBook('gone');
    await t.app.inject({ method: 'DELETE', url: `/api/books/${gone}`, headers });
    const fresh = await addBook('fresh');
    await age(live, 40);
    await age(gone, 40);
    await pruneRetained(t.database.db, { ...KEEP_ALL, historyDays: 30 }, new Date());
    expect((await history(live)).map((v) => v.document.title)).toEqual(['older']);
    expect(await history(gone)).toEqual([]);
    expect(await history(fresh)).toHaveLength(1);
    const deleted = (
      await t.app.inject({ url: '/api/books/recently-deleted', headers })
    ).json() as { _id: string }[];
    expect(deleted.map((item) => item._id)).not.toContain(gone);
  });

  it('drops audit events past AUDIT_RETENTION_DAYS, in batches', async () => {
    await t.database.db.execute(sql`
      insert into audit_events (at, action, resource, summary)
      select now() - interval '100 days', 'book.create', 'book', 'ancient ' || n
      from generate_series(1, 2500) n`);
    const count = async (summary: string) =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from audit_events where summary like ${summary}`,
        )
      )[0]!.n;
    const recent = await count('%');
    const pruned = await pruneRetained(t.database.db, { ...KEEP_ALL, auditDays: 90 }, new Date());
    expect(pruned.auditEvents).toBe(2500);
    expect(await count('ancient %')).toBe(0);
    expect(await count('%')).toBe(recent - 2500);
  });

  it('keeps change events for a day, whatever the policy', async () => {
    const id = await addBook('told');
    await edit(id, 'told again');
    const events = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from change_events where item_id = ${id}`,
        )
      )[0]!.n;
    expect(await events()).toBe(2);
    await t.database.db.execute(
      sql`update change_events set at = at - interval '25 hours' where item_id = ${id} and action = 'create'`,
    );
    const pruned = await pruneRetained(t.database.db, KEEP_ALL, new Date());
    expect(pruned.changeEvents).toBeGreaterThanOrEqual(1);
    expect(await events()).toBe(1);
  });

  it("keeps what a user's delete took for a day, whatever the policy: then it cannot be undone", async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: { username: 'short-undo', password: 'long-enough' },
    });
    const { _id: id } = made.json() as { _id: string };
    await t.app.inject({ method: 'DELETE', url: `/api/users/${id}`, headers });
    const kept = async () =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from versions where resource = 'users' and document_id = ${id}`,
        )
      )[0]!.n;
    await pruneRetained(t.database.db, KEEP_ALL, new Date());
    expect(await kept()).toBe(1);
    await age(id, 1.1);
    await pruneRetained(t.database.db, KEEP_ALL, new Date());
    expect(await kept()).toBe(0);
    const undo = await t.app.inject({
      method: 'POST',
      url: '/api/users/bulk-restore',
      headers,
      payload: { ids: [id] },
    });
    expect(undo.json().report.items).toEqual([expect.objectContaining({ id, code: 'NOT_FOUND' })]);
  });

  it('prunes once a server starts, without being asked', async () => {
    const id = await addBook('a');
    for (const title of ['b', 'c']) await edit(id, title);
    const other = await t.startAnother({ HISTORY_MAX_VERSIONS: '1' });
    try {
      await eventually(async () =>
        expect((await history(id)).map((v) => v.document.title)).toEqual(['c']),
      );
    } finally {
      await other.close();
    }
  });
});
