import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { BULK_MAX_ITEMS } from '@common/constants';
import type { AuditPage } from '@common/schemas/audit';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import type { Version } from '@common/schemas/versions';
import { columnOf, tableOf } from '@server/modules/records/recordTable';
import { bearer, login } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('bulk actions on records on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let contributor: Record<string, string>;
  let viewer: Record<string, string>;
  let entity: Entity;

  const post = (url: string, payload: object, headers = contributor) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const recordsOf = async (): Promise<EntityRecord[]> =>
    (await t.app.inject({ url: `/api/entity-records/${entity.name}`, headers: admin })).json();
  const add = async (fields: Record<string, unknown>): Promise<EntityRecord> => {
    const res = await post(`/api/entity-records/${entity.name}`, { fields });
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const bulk = (action: string, payload: object, headers = contributor) =>
    post(`/api/entity-records/${entity.name}/bulk-${action}`, payload, headers);

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
    contributor = bearer((await login(t.app, 'contributor')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
  });
  beforeEach(async () => {
    entity = (
      await post(
        '/api/entities',
        {
          name: `Tube_${randomUUID().slice(0, 8)}`,
          fields: [
            { name: 'code', unique: true },
            { name: 'rack' },
            { name: 'volume', type: 'number' },
          ],
        },
        admin,
      )
    ).json();
  });
  afterAll(() => t.close());

  it('deletes the chosen records in one request, each with its version and audit line', async () => {
    const [a, b, c] = [
      await add({ code: 'A', rack: 'r1' }),
      await add({ code: 'B', rack: 'r1' }),
      await add({ code: 'C', rack: 'r2' }),
    ];
    const res = await bulk('delete', { selection: { ids: [a!._id, b!._id] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ids: [a!._id, b!._id] });
    expect((await recordsOf()).map((record) => record._id)).toEqual([c!._id]);
    for (const { _id } of [a!, b!]) {
      const versions: Version[] = (
        await t.app.inject({
          url: `/api/entity-records/${entity.name}/${_id}/versions`,
          headers: admin,
        })
      ).json();
      expect(versions.map((version) => version.action)).toEqual(['delete', 'create']);
    }
    const audit: AuditPage = (
      await t.app.inject({ url: '/api/audit', query: { action: 'record.delete' }, headers: admin })
    ).json();
    expect(
      audit.events.filter((event) => [a!._id, b!._id].includes(event.resourceId!)),
    ).toHaveLength(2);
  });

  it('deletes every record the search and filter match', async () => {
    await add({ code: 'A', rack: 'r1', volume: 1 });
    await add({ code: 'B', rack: 'r1', volume: 5 });
    const kept = await add({ code: 'C', rack: 'r2', volume: 5 });
    const res = await bulk('delete', {
      selection: { matching: { q: 'R1', 'filter[volume][gte]': '1' } },
    });
    expect(res.json().ids).toHaveLength(2);
    expect((await recordsOf()).map((record) => record._id)).toEqual([kept._id]);
  });

  it('refuses the whole delete when records point at some, saying which and why', async () => {
    const a = await add({ code: 'A' });
    const b = await add({ code: 'B' });
    const holder = (
      await post(
        '/api/entities',
        {
          name: `Holder_${randomUUID().slice(0, 8)}`,
          fields: [{ name: 'tube', type: 'relation', target: entity.name }],
        },
        admin,
      )
    ).json() as Entity;
    await post(`/api/entity-records/${holder.name}`, { fields: { tube: b._id } });
    const res = await bulk('delete', { selection: { ids: [a._id, b._id] } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'BULK_REFUSED',
      report: { items: [{ id: b._id, code: 'REFERENCED' }] },
    });
    expect(await recordsOf()).toHaveLength(2);
  });

  it('deletes records that point only at each other, and names a refused one once', async () => {
    const name = `Node_${randomUUID().slice(0, 8)}`;
    const defined = await post(
      '/api/entities',
      { name, fields: [{ name: 'label' }, { name: 'parent', type: 'relation', target: name }] },
      admin,
    );
    expect(defined.statusCode).toBe(201);
    const url = `/api/entity-records/${name}`;
    const root = (await post(url, { fields: { label: 'root' } })).json();
    const child = (await post(url, { fields: { label: 'child', parent: root._id } })).json();
    await post(url, { fields: { label: 'other', parent: root._id } });
    // root is pointed at by child (chosen too) and by other (not chosen): refused, once.
    const refused = await post(`${url}/bulk-delete`, { selection: { ids: [root._id, child._id] } });
    expect(refused.json().report.items).toEqual([
      { id: root._id, code: 'REFERENCED', message: expect.stringMatching(/^1 record points/) },
    ]);
    const deleted = await post(`${url}/bulk-delete`, { selection: { matching: {} } });
    expect([deleted.statusCode, deleted.json().ids.length]).toEqual([200, 3]);
  });

  it('deletes the chosen records still there, leaving out one deleted meanwhile', async () => {
    const a = await add({ code: 'A' });
    const b = await add({ code: 'B' });
    const gone = randomUUID();
    const res = await bulk('delete', { selection: { ids: [a._id, gone] } });
    expect(res.statusCode).toBe(200);
    // The answer names what it deleted (what an Undo brings back).
    expect(res.json()).toEqual({ ids: [a._id] });
    expect((await recordsOf()).map((r) => r._id)).toEqual([b._id]);
  });

  it('sets a field on the chosen records, leaving their other fields and counting a version', async () => {
    const a = await add({ code: 'A', rack: 'r1', volume: 1 });
    const b = await add({ code: 'B', rack: 'r1', volume: 2 });
    await add({ code: 'C', rack: 'r1', volume: 3 });
    const res = await bulk('update', {
      selection: { ids: [a._id, b._id] },
      fields: { rack: 'r9' },
    });
    expect(res.statusCode).toBe(200);
    const byCode = Object.fromEntries((await recordsOf()).map((r) => [r.fields.code, r]));
    expect(byCode.A).toMatchObject({ fields: { rack: 'r9', volume: 1 }, _version: 2 });
    expect(byCode.B).toMatchObject({ fields: { rack: 'r9', volume: 2 }, _version: 2 });
    expect(byCode.C).toMatchObject({ fields: { rack: 'r1' }, _version: 1 });
  });

  it('refuses a value its field refuses, or a field the entity lacks, and changes nothing', async () => {
    const a = await add({ code: 'A', volume: 1 });
    const wrong = await bulk('update', { selection: { ids: [a._id] }, fields: { volume: 'lots' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields[0].field).toBe('body.fields.volume');
    const unknown = await bulk('update', { selection: { ids: [a._id] }, fields: { colour: 'x' } });
    expect(unknown.statusCode).toBe(400);
    // A unique field cannot take one value on two records: neither changes.
    const b = await add({ code: 'B' });
    const twice = await bulk('update', {
      selection: { ids: [a._id, b._id] },
      fields: { code: 'Z' },
    });
    expect([twice.statusCode, twice.json().code]).toEqual([409, 'NOT_UNIQUE']);
    expect((await recordsOf()).map((r) => r.fields.code).sort()).toEqual(['A', 'B']);
  });

  it('brings a bulk delete back as a whole, with the same ids and values (an Undo)', async () => {
    const a = await add({ code: 'A', rack: 'r1', volume: 1.5 });
    const b = await add({ code: 'B' });
    await bulk('delete', { selection: { ids: [a._id, b._id] } });
    const c = await add({ code: 'C' });
    const res = await bulk('restore', { ids: [a._id, b._id] });
    expect(res.statusCode).toBe(200);
    const back = await recordsOf();
    // Back where they were in the order records were added: before the one added since.
    expect(back.map((r) => r._id)).toEqual([a._id, b._id, c._id]);
    expect(back.map((r) => [r._id, r.fields])).toEqual(
      expect.arrayContaining([
        [a._id, { code: 'A', rack: 'r1', volume: 1.5 }],
        [b._id, { code: 'B' }],
      ]),
    );
    // Restoring what is not deleted is refused, whole.
    const again = await bulk('restore', { ids: [a._id] });
    expect(again.json()).toMatchObject({
      code: 'BULK_REFUSED',
      report: { items: [{ id: a._id, code: 'CONFLICT' }] },
    });
  });

  it('is allowed to whoever may do the same to one record, and to no one else', async () => {
    const a = await add({ code: 'A' });
    for (const action of ['delete', 'update', 'restore']) {
      const payload =
        action === 'restore'
          ? { ids: [a._id] }
          : {
              selection: { ids: [a._id] },
              ...(action === 'update' ? { fields: { rack: 'x' } } : {}),
            };
      expect((await bulk(action, payload, viewer)).statusCode).toBe(403);
      expect((await bulk(action, payload, {})).statusCode).toBe(401);
    }
    expect(await recordsOf()).toHaveLength(1);
  });

  it(`refuses a filter that matches more than ${BULK_MAX_ITEMS} records`, async () => {
    await t.database.db.execute(
      sql.raw(`insert into ${tableOf(entity._id)} (${columnOf('code')})
        select 'c' || n from generate_series(1, ${BULK_MAX_ITEMS + 1}) n`),
    );
    const res = await bulk('delete', { selection: { matching: {} } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe('body.selection.matching');
  });

  it('takes either ids or a filter', async () => {
    expect((await bulk('delete', { selection: {} })).statusCode).toBe(400);
  });
});
