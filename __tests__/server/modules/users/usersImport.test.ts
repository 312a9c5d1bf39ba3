import type { User } from '@common/schemas/users';
import { bearer, login } from '../../helpers/auth';
import { importReport, postCsv } from '../../helpers/imports';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('importing users from CSV on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(kind, { AUTH_RATE_LIMIT: '100' });
    admin = bearer((await login(t.app, 'admin')).jwt);
  });
  afterAll(() => t.close());

  const importCsv = (csv: string, query: Record<string, string> = {}, headers = admin) =>
    postCsv(t.app, '/api/users/import', csv, headers, query);
  const listUsers = async (): Promise<User[]> =>
    (await t.app.inject({ url: '/api/users', headers: admin })).json();

  it('adds users with their roles by name, who can then sign in; reports each refused row', async () => {
    const csv =
      'Username,Email,Password,Roles\n' +
      'imp-ada,ada@example.com,analytical-engine,"viewer, contributor"\n' +
      'imp-bob,,short,viewer\n' + // line 3: password too short
      'imp-cy,cy@example.com,long-enough-1,auditors\n' + // line 4: no such role
      'viewer,,long-enough-2,\n'; // line 5: username taken
    const dry = importReport((await importCsv(csv)).body);
    expect(dry).toMatchObject({ dryRun: true, rows: 4, created: 1, refused: 3, committed: false });
    expect(dry.problems.map((p) => [p.line, p.field])).toEqual([
      [3, 'password'],
      [4, 'roles'],
      [5, 'username'],
    ]);
    expect((await listUsers()).some((u) => u.username === 'imp-ada')).toBe(false);

    const done = importReport((await importCsv(csv, { dryRun: 'false', mode: 'valid' })).body);
    expect(done).toMatchObject({ created: 1, refused: 3, committed: true });
    const ada = (await listUsers()).find((u) => u.username === 'imp-ada')!;
    expect(ada.roles.map((r) => r.name).sort()).toEqual(['contributor', 'viewer']);
    await login(t.app, 'imp-ada', 'analytical-engine');
    const audit = (
      await t.app.inject({ url: '/api/audit', query: { action: 'user.import' }, headers: admin })
    ).json();
    expect(audit.events[0].summary).toBe('Imported users: 1 added, 0 changed, 3 rows refused');
  });

  it('changes the username and email of the users whose _id it gives, never their password', async () => {
    const csv = 'Username,Email,Password\nimp-eve,eve@example.com,long-enough-3\n';
    await importCsv(csv, { dryRun: 'false' });
    const eve = (await listUsers()).find((u) => u.username === 'imp-eve')!;
    const change = `_id,Username,Email\n${eve._id},imp-eve2,\n`;
    expect(importReport((await importCsv(change, { dryRun: 'false' })).body)).toMatchObject({
      updated: 1,
      committed: true,
    });
    expect((await listUsers()).find((u) => u._id === eve._id)).toMatchObject({
      username: 'imp-eve2',
      email: null,
    });
    const withPassword = `_id,Password\n${eve._id},new-password-1\n`;
    expect(importReport((await importCsv(withPassword, { dryRun: 'false' })).body)).toMatchObject({
      refused: 1,
      problems: [{ line: 2, field: 'password', message: 'is only set for new users' }],
    });
  });

  it('is allowed to whoever may add users', async () => {
    const viewer = bearer((await login(t.app, 'viewer')).jwt);
    expect((await importCsv('Username\nx\n', {}, viewer)).statusCode).toBe(403);
  });
});
