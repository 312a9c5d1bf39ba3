import { messages } from '@common/messages';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AuditPage } from '@common/schemas/audit';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import type { Version } from '@common/schemas/versions';
import { IMPORT_BATCH } from '@server/lib/imports';
import { bearer, login } from '../../helpers/auth';
import { importLines, importReport, postCsv } from '../../helpers/imports';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('importing records from CSV on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let contributor: Record<string, string>;
  let viewer: Record<string, string>;
  let site: Entity;
  let tube: Entity;

  const post = (url: string, payload: object, headers = admin) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const recordsOf = async (name = tube.name): Promise<EntityRecord[]> =>
    (await t.app.inject({ url: `/api/entity-records/${name}`, headers: admin })).json();
  const importCsv = (csv: string, query: Record<string, string> = {}, headers = contributor) =>
    postCsv(t.app, `/api/entity-records/${tube.name}/import`, csv, headers, query);

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
    contributor = bearer((await login(t.app, 'contributor')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
    site = (
      await post('/api/entities', {
        name: `Site_${randomUUID().slice(0, 8)}`,
        fields: [{ name: 'city' }],
      })
    ).json();
    for (const city of ['Lyon', 'Paris', 'Paris'])
      await post(`/api/entity-records/${site.name}`, { fields: { city } });
    await post(`/api/entity-records/${site.name}`, { fields: { city: 'Nice' } });
  });
  beforeEach(async () => {
    tube = (
      await post('/api/entities', {
        name: `Tube_${randomUUID().slice(0, 8)}`,
        fields: [
          { name: 'code', label: 'Tube code', required: true, unique: true },
          { name: 'volume', type: 'number' },
          { name: 'sealed', type: 'boolean' },
          { name: 'site', type: 'relation', target: site.name },
        ],
      })
    ).json();
  });
  afterAll(() => t.close());

  const GOOD =
    'Tube code,volume,sealed,site\r\nT1,1.5,yes,Lyon\r\nT2,,no,\r\n"T,3",2,true,Nice\r\n';

  it('adds the rows as typed records, matching columns by name or label, each with its version', async () => {
    const res = await importCsv(GOOD, { dryRun: 'false' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(importReport(res.body)).toEqual({
      dryRun: false,
      mode: 'all',
      columns: ['code', 'volume', 'sealed', 'site'],
      rows: 3,
      created: 3,
      updated: 0,
      refused: 0,
      committed: true,
      problems: [],
      problemsTruncated: false,
    });
    const records = await recordsOf();
    const lyon = (await recordsOf(site.name)).find((r) => r.fields.city === 'Lyon')!;
    expect(records.map((r) => r.fields)).toEqual([
      { code: 'T1', volume: 1.5, sealed: true, site: lyon._id },
      { code: 'T2', sealed: false },
      { code: 'T,3', volume: 2, sealed: true, site: expect.any(String) },
    ]);
    const versions: Version[] = (
      await t.app.inject({
        url: `/api/entity-records/${tube.name}/${records[0]!._id}/versions`,
        headers: admin,
      })
    ).json();
    expect(versions.map((v) => v.action)).toEqual(['create']);
    // One audit event for the import, none per record.
    const audit: AuditPage = (
      await t.app.inject({ url: '/api/audit', query: { q: tube.name }, headers: admin })
    ).json();
    const aboutRecords = audit.events.filter((e) => e.resource === 'record');
    expect(aboutRecords.map((e) => [e.action, e.summary])).toEqual([
      ['record.import', `Imported records of ${tube.name}: 3 added, 0 changed, 0 rows refused`],
    ]);
  });

  const BAD =
    'code,volume,sealed,site\n' +
    'A,1,yes,Lyon\n' +
    'B,lots,yes,Lyon\n' + // line 3: not a number
    ',2,no,Lyon\n' + // line 4: required
    'C,3,maybe,Paris\n' + // line 5: not a yes/no, and two sites are Paris
    'D,4,no,Rome\n'; // line 6: no such site

  it('reports every refused row by line and field in a dry run, and writes nothing', async () => {
    const res = await importCsv(BAD);
    const report = importReport(res.body);
    expect(report).toMatchObject({
      dryRun: true,
      rows: 5,
      created: 1,
      refused: 4,
      committed: false,
    });
    expect(report.problems).toEqual([
      { line: 3, field: 'volume', message: expect.any(String) },
      { line: 4, field: 'code', message: expect.stringMatching(/required/) },
      { line: 5, field: 'site', message: `2 records of ${site.name} are shown as "Paris"` },
      { line: 5, field: 'sealed', message: 'must be yes or no (or true, false, 1, 0)' },
      { line: 6, field: 'site', message: `no record of ${site.name} is shown as "Rome"` },
    ]);
    expect(await recordsOf()).toEqual([]);
  });

  it('writes nothing when all-or-nothing is refused, and the valid rows when asked', async () => {
    const all = importReport((await importCsv(BAD, { dryRun: 'false' })).body);
    expect(all).toMatchObject({ committed: false, created: 0, refused: 4 });
    expect(await recordsOf()).toEqual([]);

    const valid = importReport((await importCsv(BAD, { dryRun: 'false', mode: 'valid' })).body);
    expect(valid).toMatchObject({ committed: true, created: 1, refused: 4 });
    expect((await recordsOf()).map((r) => r.fields.code)).toEqual(['A']);
  });

  it('finds the rows a unique value refuses, in the file and against the records', async () => {
    await importCsv('code\nTAKEN\n', { dryRun: 'false' });
    const csv = 'code,volume\nX1,1\nTAKEN,2\nX2,3\nX2,4\n';
    const report = importReport((await importCsv(csv, { dryRun: 'false', mode: 'valid' })).body);
    expect(report).toMatchObject({ created: 2, refused: 2, committed: true });
    expect(report.problems).toEqual([
      { line: 3, field: 'code', message: 'is taken by another record' },
      { line: 5, field: 'code', message: 'is taken by another record' },
    ]);
    expect((await recordsOf()).map((r) => r.fields.code)).toEqual(['TAKEN', 'X1', 'X2']);
    // Found as it is written, after the checks: still told in the file's order.
    const mixed = importReport(
      (await importCsv('code,volume\nTAKEN,1\nX3,lots\n', { dryRun: 'false', mode: 'valid' })).body,
    );
    expect(mixed.problems.map((p) => [p.line, p.field])).toEqual([
      [2, 'code'],
      [3, 'volume'],
    ]);
  });

  it('changes the records whose _id the file gives (its columns only), and adds the others', async () => {
    await importCsv('code,volume,sealed\nA,1,yes\n', { dryRun: 'false' });
    const [a] = await recordsOf();
    const fresh = randomUUID();
    const csv = `_id,volume\n${a!._id},9\n${fresh},5\n`;
    // A new record needs its required code: that row is refused, the change goes through.
    const report = importReport((await importCsv(csv, { dryRun: 'false', mode: 'valid' })).body);
    expect(report).toMatchObject({ updated: 1, created: 0, refused: 1 });
    expect((await recordsOf())[0]).toMatchObject({
      _id: a!._id,
      _version: 2,
      fields: { code: 'A', volume: 9, sealed: true },
    });
    const withCode = importReport(
      (await importCsv(`_id,code\n${fresh},NEW\n`, { dryRun: 'false' })).body,
    );
    expect(withCode).toMatchObject({ created: 1 });
    expect((await recordsOf()).map((r) => r._id)).toContain(fresh);
  });

  it("refuses an id another entity's record has; a deleted record's id adds it again", async () => {
    const [lyon] = await recordsOf(site.name);
    await importCsv('code\nGone\n', { dryRun: 'false' });
    const [gone] = await recordsOf();
    await t.app.inject({
      method: 'DELETE',
      url: `/api/entity-records/${tube.name}/${gone!._id}`,
      headers: admin,
    });
    const csv = `_id,code\n${lyon!._id},X\n${gone!._id},Back\n`;
    const report = importReport((await importCsv(csv, { dryRun: 'false', mode: 'valid' })).body);
    expect(report.problems).toEqual([
      { line: 2, field: '_id', message: messages.server.recordIdTaken },
    ]);
    expect((await recordsOf()).map((r) => [r._id, r.fields.code])).toEqual([[gone!._id, 'Back']]);
  });

  it('maps the columns as the client says, skipping those mapped to nothing', async () => {
    const csv = 'Name,Ignored,Size\nM1,whatever,7\n';
    const res = await importCsv(csv, { dryRun: 'false', columns: 'code,,volume' });
    expect(importReport(res.body)).toMatchObject({ columns: ['code', '', 'volume'], created: 1 });
    expect((await recordsOf())[0]!.fields).toEqual({ code: 'M1', volume: 7 });
  });

  it.each([
    ['a mapping naming an unknown field', 'code,nope', 'names no field'],
    ['a field mapped twice', 'code,code', 'two columns'],
    ['no column matched', ',', 'matches no field'],
  ])('answers 400 for %s, before any progress', async (_what, columns, message) => {
    const res = await importCsv('a,b\n1,2\n', { columns });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('answers 400 for an empty file, and an error line (nothing written) for broken CSV', async () => {
    expect((await importCsv('')).statusCode).toBe(400);
    const broken = await importCsv('code\nA\n"B\n', { dryRun: 'false' });
    // Told as an error answer, or, once the rows were being read, as the last line.
    const error = broken.statusCode === 400 ? broken.json() : importLines(broken.body).at(-1);
    expect(JSON.stringify(error)).toContain(
      'The file is not valid CSV from line 3: a quote is never closed',
    );
    expect(await recordsOf()).toEqual([]);
  });

  it('is refused to a viewer (403), and a file with ids to whoever may not change records', async () => {
    expect((await importCsv(GOOD, {}, viewer)).statusCode).toBe(403);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/routes/' + (await routeId('PUT', '/api/entity-records/:entityName/:id')),
      headers: admin,
      payload: { allowedRoles: ['admin'] },
    });
    expect(res.statusCode).toBe(200);
    try {
      expect((await importCsv(`_id,code\n${randomUUID()},Z\n`)).statusCode).toBe(403);
      expect((await importCsv('code\nZ\n')).statusCode).toBe(200);
    } finally {
      await t.app.inject({
        method: 'PUT',
        url: '/api/routes/' + (await routeId('PUT', '/api/entity-records/:entityName/:id')),
        headers: admin,
        payload: { allowedRoles: ['admin', 'contributor'] },
      });
    }
  });

  const routeId = async (verb: string, path: string) =>
    (
      (await t.app.inject({ url: '/api/routes', headers: admin })).json() as {
        _id: string;
        routeVerb: string;
        routePath: string;
      }[]
    ).find((route) => route.routeVerb === verb && route.routePath === path)!._id;

  it('answers 415 for a body that is not CSV, and 404 for an unknown entity', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/entity-records/${tube.name}/import`,
      headers: contributor,
      payload: { code: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/entity-records/Nope_nope/import',
      headers: { ...contributor, 'content-type': 'text/csv' },
      payload: 'code\nx\n',
    });
    expect(res.statusCode).toBe(404);
  });

  it('tells its progress batch by batch, and imports many rows', async () => {
    const rows = IMPORT_BATCH * 2 + 5;
    const csv = ['code,volume', ...Array.from({ length: rows }, (_, i) => `R${i},${i}`)].join('\n');
    const res = await importCsv(csv, { dryRun: 'false' });
    const lines = importLines(res.body);
    expect(lines.filter((l) => l.type === 'progress')).toEqual([
      { type: 'progress', rows: IMPORT_BATCH },
      { type: 'progress', rows: IMPORT_BATCH * 2 },
      { type: 'progress', rows },
    ]);
    expect(importReport(res.body)).toMatchObject({ created: rows, committed: true });
    expect(await recordsOf()).toHaveLength(rows);
  });

  it('names the line a row starts on, through quoted line breaks, CRLF and blank lines', async () => {
    const csv = 'code,volume\r\n"A\r\nmulti",1\r\n\r\nB,lots\r\n';
    const report = importReport((await importCsv(csv)).body);
    expect(report).toMatchObject({ rows: 2, refused: 1 });
    expect(report.problems).toEqual([{ line: 5, field: 'volume', message: expect.any(String) }]);
  });

  it('finds a related record whatever the capitals, when none is shown exactly so', async () => {
    const csv = 'code,site\nA,lyon\nB,NICE\nC,paris\n';
    const report = importReport((await importCsv(csv, { dryRun: 'false', mode: 'valid' })).body);
    expect(report.problems).toEqual([
      { line: 4, field: 'site', message: `2 records of ${site.name} are shown as "paris"` },
    ]);
    const sites = await recordsOf(site.name);
    const idOf = (city: string) => sites.find((r) => r.fields.city === city)!._id;
    expect((await recordsOf()).map((r) => [r.fields.code, r.fields.site]).sort()).toEqual([
      ['A', idOf('Lyon')],
      ['B', idOf('Nice')],
    ]);
  });

  it('refuses a row with a cell missing or one too many, and imports the others', async () => {
    const csv = 'code,volume\nA,1\nB\nC,3,extra\nD,4\n';
    const report = importReport((await importCsv(csv, { dryRun: 'false', mode: 'valid' })).body);
    expect(report).toMatchObject({ rows: 4, created: 2, refused: 2, committed: true });
    expect(report.problems).toEqual([
      { line: 3, field: '', message: messages.server.rowWidth(1, 2) },
      { line: 4, field: '', message: messages.server.rowWidth(3, 2) },
    ]);
    expect((await recordsOf()).map((record) => record.fields.code).sort()).toEqual(['A', 'D']);
  });

  it('skips a column with no heading, and writes a field whose name is long', async () => {
    const long = `f${'x'.repeat(63)}`;
    const wide: Entity = (
      await post('/api/entities', {
        name: `Wide_${randomUUID().slice(0, 8)}`,
        fields: [{ name: 'code' }, { name: long, type: 'integer' }],
      })
    ).json();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/entity-records/${wide.name}/import`,
      query: { dryRun: 'false' },
      headers: { ...contributor, 'content-type': 'text/csv' },
      payload: `code,,${long}\nW1,ignored,7\n`,
    });
    expect(importReport(res.body)).toMatchObject({ columns: ['code', '', long], created: 1 });
    expect((await recordsOf(wide.name))[0]!.fields).toEqual({ code: 'W1', [long]: 7 });
  });

  it('refuses a row repeating the id of an earlier row, and a file of ids only', async () => {
    const id = randomUUID();
    const report = importReport(
      (await importCsv(`_id,code\n${id},D1\n${id},D2\n`, { dryRun: 'false', mode: 'valid' })).body,
    );
    expect(report).toMatchObject({ created: 1, refused: 1 });
    expect(report.problems).toEqual([
      { line: 3, field: '_id', message: 'is the id of line 2 too' },
    ]);
    expect((await importCsv(`_id\n${id}\n`)).statusCode).toBe(400);
  });

  it('writes nothing all-or-nothing when a row of a later batch is refused', async () => {
    const rows = Array.from({ length: IMPORT_BATCH + 10 }, (_, i) => `N${i},${i}`);
    rows[IMPORT_BATCH + 5] = `N-bad,lots`;
    const report = importReport(
      (await importCsv(['code,volume', ...rows].join('\n'), { dryRun: 'false' })).body,
    );
    expect(report).toMatchObject({ committed: false, created: 0, refused: 1 });
    expect(report.problems[0]).toMatchObject({ line: IMPORT_BATCH + 7, field: 'volume' });
    expect(await recordsOf()).toEqual([]);
  });

  it('is undone when its client goes away before it ends (the page left, Stop)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const rows = Array.from({ length: IMPORT_BATCH * 30 }, (_, i) => `S${i},${i}`);
    const stop = new AbortController();
    const answer = await fetch(
      `http://127.0.0.1:${port}/api/entity-records/${tube.name}/import?dryRun=false`,
      {
        method: 'POST',
        headers: { ...contributor, 'content-type': 'text/csv' },
        body: ['code,volume', ...rows].join('\n'),
        signal: stop.signal,
      },
    );
    const reader = answer.body!.getReader();
    // The first batch is read: the import runs; then its client goes.
    await reader.read();
    stop.abort();
    await reader.cancel().catch(() => undefined);
    // The same codes again: a unique code waits for the first import's transaction to end,
    // and is free only if it was undone.
    const again = await importCsv(['code,volume', ...rows.slice(0, 5)].join('\n'), {
      dryRun: 'false',
    });
    expect(importReport(again.body)).toMatchObject({ created: 5, refused: 0, committed: true });
    expect(await recordsOf()).toHaveLength(5);
    const audit = (
      await t.app.inject({
        url: '/api/audit',
        query: { action: 'record.import', q: tube.name },
        headers: admin,
      })
    ).json();
    expect(audit.events).toHaveLength(1);
    // Node's fetch keeps its socket after an abort; the server's close would wait for it.
    t.app.server.closeAllConnections();
  });
});
