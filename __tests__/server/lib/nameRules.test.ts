import { sql } from 'drizzle-orm';
import pino from 'pino';
import { messages } from '@common/messages';
import { queryRows } from '@server/db/client';
import { enforceNameRules, USERS_USERNAME_FOLDED_UNIQUE } from '@server/lib/nameRules';
import { bearer, login } from '../helpers/auth';
import { captureLogs } from '../helpers/logs';
import { type TestApp, startTestApp } from '../helpers/testApp';
import { testDbKinds } from '../helpers/testDatabase';

describe.each(testDbKinds)('names that cannot impersonate, on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
  });
  afterAll(() => t.close());

  const createUser = (username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: { username, password: 'a-good-password' },
    });

  it.each([
    ['capitals', 'Admin'],
    ['all capitals', 'ADMIN'],
    ['fullwidth letters', '\uFF41\uFF44\uFF4D\uFF49\uFF4E'],
  ])('refuses a username that reads as another one (%s)', async (_, username) => {
    const res = await createUser(username);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'USERNAME_TAKEN',
      message: messages.server.usernameTaken,
    });
  });

  it('takes a composed and a decomposed accent for one name', async () => {
    expect((await createUser('caf\u00E9')).statusCode).toBe(201);
    expect((await createUser('cafe\u0301')).json().code).toBe('USERNAME_TAKEN');
  });

  it('refuses a username that mixes scripts that look alike, naming the rule', async () => {
    // A Cyrillic а before "dmin".
    const res = await createUser('\u0430dmin');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { field: 'body.username', message: messages.validation.mixedScripts },
    ]);
    // Judged as names are compared: mathematical letters are the Latin ones they stand for.
    expect((await createUser('\u0430\u{1D5BD}\u{1D5C6}\u{1D5C2}\u{1D5C7}')).statusCode).toBe(400);
    // Letters of scripts not recommended for names (Lisu's look like Latin capitals).
    expect((await createUser('\uA4EE\uA4D3\uA4DF\uA4F2\uA4E0')).statusCode).toBe(400);
    // One script, or Latin with the scripts Japanese is written in, is a name.
    expect((await createUser('\u0410\u043D\u043D\u0430')).statusCode).toBe(201);
    expect((await createUser('yamada\u5C71\u7530\u30BF\u30ED\u30A6')).statusCode).toBe(201);
  });

  it.each([
    ['a soft hyphen', 'ad\u00ADmin'],
    ['a combining grapheme joiner', 'ad\u034Fmin'],
    ['an Arabic letter mark', 'ad\u061Cmin'],
    ['a Hangul filler', 'admin\u3164'],
    ['a tag character', 'admin\u{E0061}'],
    ['a variation selector', 'admin\uFE0F'],
    ['a right-to-left override', 'admin\u202E'],
  ])('refuses a username with %s, naming the rule', async (_, username) => {
    const res = await createUser(username);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual([
      { field: 'body.username', message: messages.validation.invisibleCharacters },
    ]);
  });

  it('refuses a role name that differs from another only by its capitals', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin,
      payload: { name: 'Admin' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('NAME_TAKEN');
  });

  it('signs in whatever the capitals, and refuses a sign-in name no username may hold', async () => {
    const signIn = (username: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'viewer123' },
      });
    expect((await signIn('VIEWER')).statusCode).toBe(200);
    const overridden = await signIn('viewer\u202E');
    expect(overridden.statusCode).toBe(400);
    expect(overridden.json().fields).toEqual([
      { field: 'body.username', message: messages.validation.invisibleCharacters },
    ]);
    // An older name that mixes scripts may still sign in: it is only refused as a new name.
    expect((await signIn('\u0430dmin')).statusCode).toBe(401);
  });

  it("finds an actor's events in the audit log whatever the capitals", async () => {
    const res = await t.app.inject({ url: '/api/audit?actor=ADMIN', headers: admin });
    expect(res.statusCode).toBe(200);
    const { events } = res.json();
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((event: { actor: { name: string } }) => event.actor.name))).toEqual(
      new Set(['admin']),
    );
  });

  it('reports names kept from before the rule that read alike, changing none, and applies it once they are renamed', async () => {
    const db = t.database.db;
    await db.execute(sql.raw(`drop index ${USERS_USERNAME_FOLDED_UNIQUE}`));
    const [older] = await queryRows<{ id: string }>(
      db,
      sql`insert into users (username) values ('Contributor') returning id::text as id`,
    );
    const logs = captureLogs();
    await enforceNameRules(db, pino({}, logs.stream));
    const warning = logs.entries().find((entry) => entry.table === 'users');
    expect(warning?.groups).toEqual([expect.arrayContaining([older!.id])]);
    expect(
      await queryRows(db, sql`select 1 from users where username = 'Contributor'`),
    ).toHaveLength(1);

    await db.execute(sql`delete from users where id = ${older!.id}`);
    await enforceNameRules(db, pino({}, captureLogs().stream));
    expect((await createUser('Contributor')).json().code).toBe('USERNAME_TAKEN');
  });
});
