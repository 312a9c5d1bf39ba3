import { randomUUID } from 'node:crypto';
import type { Entity, EntityRecord, RecordPage } from '@common/schemas/entities';
import type { Permissions } from '@common/schemas/permissions';
import type { RolePolicy } from '@common/schemas/policies';
import type { Role } from '@common/schemas/roles';
import type { DeletedItem, Version } from '@common/schemas/versions';
import { queryRows } from '@server/db/client';
import { tableOf } from '@server/modules/records/recordTable';
import { sql } from 'drizzle-orm';
import { bearer, login } from '../../helpers/auth';
import { importReport, postCsv } from '../../helpers/imports';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

/**
 * Record policies, enforced by the server on every path a record leaves or changes by:
 * each test writes a policy as an admin would, then asks as the role it narrows.
 */
describe.each(testDbKinds)('record policies on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let contributor: Record<string, string>;
  let carla: Record<string, string>;
  let viewer: Record<string, string>;
  let entity: Entity;

  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const records = `/api/entity-records/`;
  const add = async (
    fields: Record<string, unknown>,
    headers = contributor,
    name = entity.name,
  ) => {
    const res = await request('POST', `${records}${name}`, headers, { fields });
    expect(res.statusCode).toBe(201);
    return res.json<{ _id: string }>()._id;
  };
  const setPolicies = async (policies: RolePolicy[]) => {
    const res = await request('PUT', `/api/entities/${entity._id}/policies`, admin, { policies });
    expect(res.statusCode).toBe(200);
    entity = res.json();
  };
  const page = async (headers: Record<string, string>, query: Record<string, string> = {}) => {
    const res = await t.app.inject({
      url: `${records}${entity.name}`,
      query: { page: '1', perPage: '100', ...query },
      headers,
    });
    expect(res.statusCode).toBe(200);
    return res.json<RecordPage>();
  };
  const codes = (list: EntityRecord[]) => list.map((record) => record.fields.code).sort();
  const importCsv = (csv: string, headers: Record<string, string>, query: Record<string, string>) =>
    postCsv(t.app, `${records}${entity.name}/import`, csv, headers, query);

  beforeAll(async () => {
    t = await startTestApp(kind, { AUTH_RATE_LIMIT: '1000' });
    admin = bearer((await login(t.app, 'admin')).jwt);
    contributor = bearer((await login(t.app, 'contributor')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
    const roles: Role[] = (await request('GET', '/api/roles', admin)).json();
    const created = await request('POST', '/api/users', admin, {
      username: 'carla',
      password: 'carla-password',
      roles: [roles.find((role) => role.name === 'contributor')!._id],
    });
    expect(created.statusCode).toBe(201);
    carla = bearer((await login(t.app, 'carla', 'carla-password')).jwt);
  });
  beforeEach(async () => {
    const res = await request('POST', '/api/entities', admin, {
      name: `Sample_${randomUUID().slice(0, 8)}`,
      fields: [
        { name: 'code', label: 'Code' },
        { name: 'site', label: 'Site', type: 'select', options: ['lyon', 'paris'] },
        { name: 'salary', label: 'Salary', type: 'number' },
        { name: 'notes', label: 'Notes' },
        { name: 'status', label: 'Status', default: 'new' },
      ],
    });
    expect(res.statusCode).toBe(201);
    entity = res.json();
  });
  afterAll(() => t.close());

  describe('written by an admin', () => {
    it('are checked against the fields, their types and the roles, each part named', async () => {
      const res = await request('PUT', `/api/entities/${entity._id}/policies`, admin, {
        policies: [
          {
            role: 'admin',
            read: { match: 'all', clauses: [{ field: 'code', op: 'eq', value: 'x' }] },
          },
          {
            role: 'viewer',
            read: {
              match: 'any',
              clauses: [
                { field: 'nope', op: 'eq', value: 'x' },
                { field: 'code', op: 'lt', value: 'x' },
                { field: 'salary', op: 'eq', value: '$me' },
                { field: 'site', op: 'eq', value: 'rome' },
                { field: '_createdBy', op: 'eq', value: 'someone' },
              ],
            },
            fields: { ghost: 'hidden' },
          },
          { role: 'nobody' },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual([
        {
          field: 'body.policies.0.role',
          message: 'is the admin role, which always reads and changes every record',
        },
        { field: 'body.policies.1.read.clauses.0.field', message: 'is not a field of this entity' },
        {
          field: 'body.policies.1.read.clauses.1.op',
          message: 'compares numbers, dates and times only',
        },
        {
          field: 'body.policies.1.read.clauses.2.value',
          message: 'stands for the user: compare it with the creator or a text field',
        },
        { field: 'body.policies.1.read.clauses.3.value', message: 'must be one of: lyon, paris' },
        {
          field: 'body.policies.1.read.clauses.4.value',
          message: 'must be $me or the id of a user',
        },
        { field: 'body.policies.1.fields.ghost', message: 'is not a field of this entity' },
        { field: 'body.policies.2.role', message: 'is not a role' },
      ]);
      expect((await request('GET', `/api/entities/${entity._id}`, admin)).json()).toEqual(entity);
    });

    it('are part of the entity, versioned and audited, and only admins may write them', async () => {
      const policies: RolePolicy[] = [{ role: 'viewer', fields: { salary: 'hidden' } }];
      const refused = await request('PUT', `/api/entities/${entity._id}/policies`, contributor, {
        policies,
      });
      expect(refused.statusCode).toBe(403);
      await setPolicies(policies);
      expect(entity).toMatchObject({ policies, _version: 2 });
      const versions: Version[] = (
        await request('GET', `/api/entities/${entity._id}/versions`, admin)
      ).json();
      expect(versions[0]!.changes).toEqual([{ field: 'policies', from: null, to: policies }]);
      const audit = (
        await t.app.inject({
          url: '/api/audit',
          query: { action: 'entity.update' },
          headers: admin,
        })
      ).json();
      expect(audit.events[0]).toMatchObject({
        resourceId: entity._id,
        summary: `Changed the entity ${entity.name}: its record policies`,
      });
    });
  });

  describe('a read condition and hidden fields', () => {
    let lyon: string[];
    beforeEach(async () => {
      lyon = [
        await add({ code: 'L1', site: 'lyon', salary: 10, notes: 'secret word' }),
        await add({ code: 'L2', site: 'lyon', salary: 20 }),
      ];
      await add({ code: 'P1', site: 'paris', salary: 30 });
      await setPolicies([
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
          fields: { salary: 'hidden', notes: 'hidden' },
        },
      ]);
    });

    it('narrow the page, its total (as SQL counts it) and the plain list', async () => {
      const seen = await page(viewer);
      expect(codes(seen.records)).toEqual(['L1', 'L2']);
      const [counted] = await queryRows<{ n: number }>(
        t.database.db,
        sql.raw(`select count(*)::int as n from "${tableOf(entity._id)}" where f_site = 'lyon'`),
      );
      expect(seen).toMatchObject({ total: counted!.n, totalIsEstimate: false });
      for (const record of seen.records)
        expect(Object.keys(record.fields).sort()).toEqual(['code', 'site', 'status']);
      const plain: EntityRecord[] = (
        await request('GET', `${records}${entity.name}`, viewer)
      ).json();
      expect(codes(plain)).toEqual(['L1', 'L2']);
      for (const record of plain)
        expect(Object.keys(record.fields).sort()).toEqual(['code', 'site', 'status']);
      // The contributor has no policy: every record, every field.
      expect(codes((await page(contributor)).records)).toEqual(['L1', 'L2', 'P1']);
    });

    it('leave no way to read a hidden field: no sort, filter or search by it', async () => {
      for (const query of [{ sort: 'salary:asc' }, { 'filter[salary][gt]': '5' }] as Record<
        string,
        string
      >[]) {
        const res = await t.app.inject({ url: `${records}${entity.name}`, query, headers: viewer });
        expect(res.statusCode).toBe(400);
      }
      expect((await page(viewer, { q: 'secret' })).records).toEqual([]);
      expect(codes((await page(contributor, { q: 'secret' })).records)).toEqual(['L1']);
    });

    it('hold for an export', async () => {
      const res = await t.app.inject({
        url: `${records}${entity.name}/export`,
        query: { format: 'csv' },
        headers: viewer,
      });
      expect(res.statusCode).toBe(200);
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r\n/);
      expect(lines[0]).toBe('ID,Code,Site,Status');
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',')[1])
          .sort(),
      ).toEqual(['L1', 'L2']);
    });

    it('hold for the history and recently deleted: no hidden value, no record outside', async () => {
      await request('PUT', `${records}${entity.name}/${lyon[0]}`, contributor, {
        fields: { code: 'L1', site: 'lyon', salary: 11, notes: 'secret word', status: 'seen' },
      });
      const versions: Version[] = (
        await request('GET', `${records}${entity.name}/${lyon[0]}/versions`, viewer)
      ).json();
      expect(
        versions.map((version) => Object.keys(version.document.fields as object).sort()),
      ).toEqual([
        ['code', 'site', 'status'],
        ['code', 'site', 'status'],
      ]);
      expect(versions[0]!.changes).toEqual([{ field: 'status', from: 'new', to: 'seen' }]);
      const paris = (await page(contributor)).records.find((r) => r.fields.code === 'P1')!;
      expect(
        (await request('GET', `${records}${entity.name}/${paris._id}/versions`, viewer)).statusCode,
      ).toBe(404);

      await request('DELETE', `${records}${entity.name}/${lyon[1]}`, contributor);
      await request('DELETE', `${records}${entity.name}/${paris._id}`, contributor);
      const deleted: DeletedItem[] = (
        await request('GET', `${records}${entity.name}/recently-deleted`, viewer)
      ).json();
      expect(deleted.map((item) => item._id)).toEqual([lyon[1]]);
      expect(deleted[0]!.document.fields).toEqual({ code: 'L2', site: 'lyon', status: 'new' });
    });

    it('leave nothing for the audit log to leak: its summaries of record writes hold no values', async () => {
      await request('PUT', `${records}${entity.name}/${lyon[0]}`, contributor, {
        fields: { code: 'L1', site: 'lyon', salary: 98765, notes: 'secret word' },
      });
      const audit = await request('GET', '/api/audit?perPage=100', admin);
      const summaries = (audit.json() as { events: { summary: string }[] }).events.map(
        (event) => event.summary,
      );
      expect(summaries).toContain(`Changed a record of ${entity.name}`);
      expect(summaries.join('\n')).not.toMatch(/98765|secret word/);
    });

    it('hold recently deleted to the condition in its query: 50 deletes outside it hide none inside', async () => {
      await request('DELETE', `${records}${entity.name}/${lyon[1]}`, contributor);
      const csv = ['Code,Site', ...Array.from({ length: 50 }, (_, i) => `X${i},paris`)].join('\n');
      const imported = await importCsv(csv, admin, { dryRun: 'false' });
      expect(importReport(imported.body).created).toBe(50);
      const outside = (await page(admin)).records.filter((r) => r.fields.site === 'paris');
      const removed = await request('POST', `${records}${entity.name}/bulk-delete`, admin, {
        selection: { ids: outside.map((r) => r._id) },
      });
      expect(removed.statusCode).toBe(200);
      const deleted: DeletedItem[] = (
        await request('GET', `${records}${entity.name}/recently-deleted`, viewer)
      ).json();
      expect(deleted.map((item) => item._id)).toEqual([lyon[1]]);
    });

    it('keep a record outside the condition away from every write: 404, as if not there', async () => {
      await setPolicies([
        ...entity.policies!,
        {
          role: 'contributor',
          read: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
          fields: { salary: 'hidden' },
        },
      ]);
      const paris = (await page(admin)).records.find((r) => r.fields.code === 'P1')!;
      const url = `${records}${entity.name}/${paris._id}`;
      const changed = await request('PUT', url, contributor, { fields: { code: 'P!' } });
      expect(changed.statusCode).toBe(404);
      expect((await request('DELETE', url, contributor)).statusCode).toBe(404);
      const bulk = await request('POST', `${records}${entity.name}/bulk-update`, contributor, {
        selection: { ids: [paris._id] },
        fields: { status: 'x' },
      });
      expect(bulk.json().report.items).toEqual([
        { id: paris._id, code: 'NOT_FOUND', message: 'This record is gone (deleted meanwhile)' },
      ]);
      // Its id cannot be taken over once it is deleted: its history would come with it.
      await request('DELETE', url, admin);
      const taken = await request('POST', `${records}${entity.name}`, contributor, {
        _id: paris._id,
        fields: { code: 'mine now', site: 'lyon' },
      });
      expect(taken.json().code).toBe('ID_TAKEN');
      expect((await page(admin)).records.map((r) => r.fields.code).sort()).toEqual(['L1', 'L2']);
    });

    it('keep hidden values out of a conflict, a restore and a write, and refuse to be guessed', async () => {
      await setPolicies([{ role: 'contributor', fields: { salary: 'hidden' } }]);
      const url = `${records}${entity.name}/${lyon[0]}`;
      const stale = await request('PUT', url, contributor, {
        fields: { code: 'L1', site: 'lyon' },
        _version: 7,
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().current.fields).not.toHaveProperty('salary');
      // The stored value and another are refused alike.
      for (const salary of [10, 99]) {
        const guessed = await request('PUT', url, contributor, {
          fields: { code: 'L1', site: 'lyon', salary },
        });
        expect(guessed.json()).toMatchObject({
          code: 'POLICY_DENIED',
          message: 'Your roles (contributor) may not set Salary',
        });
      }
      const saved = await request('PUT', url, contributor, {
        fields: { code: 'L1b', site: 'lyon' },
      });
      // What a write leaves out, it empties (a PUT replaces); a hidden field keeps its value.
      expect(saved.json().fields).toEqual({ code: 'L1b', site: 'lyon' });
      expect((await page(admin)).records.find((r) => r._id === lyon[0])!.fields.salary).toBe(10);
      await request('PUT', url, admin, {
        fields: { code: 'L1c', site: 'lyon', salary: 12, notes: 'secret word' },
      });
      const versions: Version[] = (await request('GET', `${url}/versions`, contributor)).json();
      const first = versions.at(-1)!;
      const restored = await request('POST', `${url}/versions/${first._id}/restore`, contributor);
      expect(restored.statusCode).toBe(200);
      expect(restored.json().fields).toEqual({
        code: 'L1',
        site: 'lyon',
        notes: 'secret word',
        status: 'new',
      });
      // The hidden field kept the value it had, not the snapshot's.
      const stored = (await page(admin)).records.find((r) => r._id === lyon[0])!;
      expect(stored.fields.salary).toBe(12);
    });

    it('keep hidden values of related records out of the history', async () => {
      const owner = (
        await request('POST', '/api/entities', admin, {
          name: `Owner_${randomUUID().slice(0, 8)}`,
          fields: [
            { name: 'name', label: 'Name' },
            { name: 'sample', label: 'Sample', type: 'relation', target: entity.name },
          ],
        })
      ).json<Entity>();
      await request('PUT', `/api/entities/${owner._id}/policies`, admin, {
        policies: [{ role: 'viewer', fields: { sample: 'hidden' } }],
      });
      const added = await request('POST', `${records}${owner.name}`, contributor, {
        fields: { name: 'Ann', sample: lyon[0] },
      });
      const versions: Version[] = (
        await request('GET', `${records}${owner.name}/${added.json()._id}/versions`, viewer)
      ).json();
      expect(versions[0]!.document).not.toHaveProperty('_display.sample');
      expect(versions[0]!.document.fields).toEqual({ name: 'Ann' });
    });

    it("hold for the records other entities' relations show: no label of one outside", async () => {
      const owner = (
        await request('POST', '/api/entities', admin, {
          name: `Holder_${randomUUID().slice(0, 8)}`,
          fields: [
            { name: 'name', label: 'Name' },
            { name: 'sample', label: 'Sample', type: 'relation', target: entity.name },
          ],
        })
      ).json<Entity>();
      const paris = (await page(admin)).records.find((r) => r.fields.code === 'P1')!;
      await add({ name: 'In Lyon', sample: lyon[0] }, contributor, owner.name);
      const inParis = await add({ name: 'In Paris', sample: paris._id }, contributor, owner.name);
      const shown = async (headers: Record<string, string>) =>
        (
          await t.app.inject({
            url: `${records}${owner.name}`,
            query: { page: '1', sort: 'name:asc' },
            headers,
          })
        )
          .json<RecordPage>()
          .records.map((record) => record._display?.sample ?? null);
      expect(await shown(admin)).toEqual(['L1', 'P1']);
      expect(await shown(viewer)).toEqual(['L1', null]);
      const exported = await t.app.inject({
        url: `${records}${owner.name}/export`,
        query: { format: 'csv', sort: 'name:asc' },
        headers: viewer,
      });
      expect(exported.body).toContain(`In Paris,${paris._id}`);
      expect(exported.body).not.toContain('P1');
      const history: Version[] = (
        await request('GET', `${records}${owner.name}/${inParis}/versions`, viewer)
      ).json();
      expect(history[0]!.document._display).toEqual({});
      // A display field hidden from the reader is no label at all.
      await setPolicies([{ role: 'viewer', fields: { code: 'hidden' } }]);
      expect(await shown(viewer)).toEqual([null, null]);
    });

    it('hold for the history of a record of a deleted entity', async () => {
      const paris = (await page(admin)).records.find((r) => r.fields.code === 'P1')!;
      expect((await request('DELETE', `/api/entities/${entity._id}`, admin)).statusCode).toBe(204);
      const url = `${records}${entity.name}`;
      expect((await request('GET', `${url}/${paris._id}/versions`, viewer)).statusCode).toBe(404);
      const history: Version[] = (
        await request('GET', `${url}/${lyon[0]}/versions`, viewer)
      ).json();
      expect(history[0]!.document.fields).not.toHaveProperty('salary');
    });

    it('are kept from the readers of the definitions who may not write them', async () => {
      for (const url of [`/api/entities/${entity._id}`, `/api/entities/${entity.name}`]) {
        expect((await request('GET', url, viewer)).json()).not.toHaveProperty('policies');
        expect((await request('GET', url, admin)).json()).toHaveProperty('policies');
      }
      const listed: Entity[] = (await request('GET', '/api/entities', viewer)).json();
      expect(listed.find((one) => one._id === entity._id)).not.toHaveProperty('policies');
      const versions: Version[] = (
        await request('GET', `/api/entities/${entity._id}/versions`, viewer)
      ).json();
      expect(versions[0]!.document).not.toHaveProperty('policies');
      expect(versions[0]!.changes).toEqual([]);
    });

    it('are told to the reader by GET /api/auth/permissions', async () => {
      const mine: Permissions = (await request('GET', '/api/auth/permissions', viewer)).json();
      expect(mine.policies![entity.name]).toEqual({
        read: {
          where: [{ match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] }],
          hidden: ['notes', 'salary'],
          roles: ['viewer'],
        },
      });
      const admins: Permissions = (await request('GET', '/api/auth/permissions', admin)).json();
      expect(admins.policies?.[entity.name]).toBeUndefined();
    });

    it('change on the next request of another server', async () => {
      const other = await t.startAnother();
      const seenThere = async () =>
        (
          await other.inject({
            url: `${records}${entity.name}`,
            query: { page: '1' },
            headers: viewer,
          })
        ).json<RecordPage>();
      expect(codes((await seenThere()).records)).toEqual(['L1', 'L2']);
      await setPolicies([]);
      expect(codes((await seenThere()).records)).toEqual(['L1', 'L2', 'P1']);
      await other.close();
    });
  });

  describe('an admin previewing the product as a role', () => {
    const as = (role: string) => ({ ...admin, 'x-preview-role': role });

    it('sees what the role sees, and is audited when they start', async () => {
      await add({ code: 'L1', site: 'lyon', salary: 10 });
      await add({ code: 'P1', site: 'paris', salary: 20 });
      await setPolicies([
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
          fields: { salary: 'hidden' },
        },
      ]);
      const started = await request('POST', '/api/auth/preview', admin, { role: 'viewer' });
      expect(started.statusCode).toBe(204);
      const audit = (
        await t.app.inject({ url: '/api/audit', query: { action: 'auth.preview' }, headers: admin })
      ).json();
      expect(audit.events[0]).toMatchObject({
        actor: { name: 'admin' },
        summary: 'Previewed the screens as the role viewer',
      });
      const seen = await page(as('viewer'));
      expect(codes(seen.records)).toEqual(['L1']);
      expect(seen.records[0]!.fields).not.toHaveProperty('salary');
      const mine: Permissions = (
        await request('GET', '/api/auth/permissions', as('viewer'))
      ).json();
      expect(mine.roles).toEqual(['viewer']);
      expect(mine.policies![entity.name]!.read!.hidden).toEqual(['salary']);
      // The role's route grants hold too: a viewer adds no record.
      const added = await request('POST', `${records}${entity.name}`, as('viewer'), {
        fields: { code: 'X' },
      });
      expect(added.statusCode).toBe(403);
      expect((await request('GET', '/api/users', as('viewer'))).statusCode).toBe(403);
    });

    it('is honoured for admins only, and for roles that exist', async () => {
      await add({ code: 'P1', site: 'paris', salary: 20 });
      await setPolicies([
        {
          role: 'contributor',
          read: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
        },
      ]);
      // A viewer asking to be seen as someone else is seen as themselves.
      expect(codes((await page({ ...viewer, 'x-preview-role': 'contributor' })).records)).toEqual([
        'P1',
      ]);
      expect(
        (await request('POST', '/api/auth/preview', viewer, { role: 'contributor' })).json(),
      ).toMatchObject({ code: 'FORBIDDEN' });
      const unknown = await request('GET', `${records}${entity.name}`, as('nobody'));
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().fields).toEqual([
        { field: 'headers.x-preview-role', message: 'is not a role to preview' },
      ]);
    });
  });

  describe('contributors change only the records they created', () => {
    let own: string;
    let carlas: string;
    beforeEach(async () => {
      own = await add({ code: 'MINE', site: 'lyon' });
      carlas = await add({ code: 'HERS', site: 'lyon' }, carla);
      const mine = {
        match: 'all' as const,
        clauses: [{ field: '_createdBy', op: 'eq' as const, value: '$me' }],
      };
      await setPolicies([{ role: 'contributor', update: mine, delete: mine }]);
    });

    it('records who created each record', async () => {
      const list = (await page(admin)).records;
      const creators = new Set(list.map((record) => record._createdBy));
      expect(creators.size).toBe(2);
    });

    it('keeps who created each record through a change of a field type and a restore', async () => {
      const before = (await page(admin)).records.map((r) => [r._id, r._createdBy]);
      const retyped = await request('PUT', `/api/entities/${entity._id}`, admin, {
        ...entity,
        fields: entity.fields.map((field) =>
          field.name === 'salary' ? { ...field, type: 'text' } : field,
        ),
        _version: entity._version,
      });
      expect(retyped.statusCode).toBe(200);
      expect((await page(admin)).records.map((r) => [r._id, r._createdBy])).toEqual(before);
      await request('DELETE', `${records}${entity.name}/${carlas}`, carla);
      const [deleted] = (
        await request('GET', `${records}${entity.name}/recently-deleted`, carla)
      ).json() as DeletedItem[];
      await request(
        'POST',
        `${records}${entity.name}/${carlas}/versions/${deleted!.versionId}/restore`,
        carla,
      );
      expect((await page(admin)).records.map((r) => [r._id, r._createdBy])).toEqual(before);
    });

    it('refuses to change or delete another one, naming the policy', async () => {
      const res = await request('PUT', `${records}${entity.name}/${carlas}`, contributor, {
        fields: { code: 'HERS!', site: 'lyon' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'POLICY_DENIED',
        message: 'The update policy of your roles (contributor) does not allow this record',
      });
      const deleted = await request('DELETE', `${records}${entity.name}/${carlas}`, contributor);
      expect(deleted.statusCode).toBe(403);
      expect(deleted.json()).toMatchObject({
        code: 'POLICY_DENIED',
        message: 'The delete policy of your roles (contributor) does not allow this record',
      });
      const changed = await request('PUT', `${records}${entity.name}/${own}`, contributor, {
        fields: { code: 'MINE!', site: 'lyon' },
      });
      expect(changed.statusCode).toBe(200);
      expect(
        (
          await request('PUT', `${records}${entity.name}/${carlas}`, carla, {
            fields: { code: 'HERS!', site: 'lyon' },
          })
        ).statusCode,
      ).toBe(200);
      expect(codes((await page(admin)).records)).toEqual(['HERS!', 'MINE!']);
    });

    it('refuses a bulk action whole when one of its records is another one', async () => {
      for (const action of ['delete', 'update']) {
        const res = await request('POST', `${records}${entity.name}/bulk-${action}`, contributor, {
          selection: { ids: [own, carlas] },
          ...(action === 'update' ? { fields: { status: 'done' } } : {}),
        });
        expect(res.statusCode).toBe(409);
        expect(res.json().report.items).toEqual([
          {
            id: carlas,
            code: 'POLICY_DENIED',
            message: `The ${action} policy of your roles (contributor) does not allow this record`,
          },
        ]);
      }
      const list = (await page(admin)).records;
      expect(list.map((record) => record.fields.status)).toEqual(['new', 'new']);
      const mine = await request('POST', `${records}${entity.name}/bulk-update`, contributor, {
        selection: { ids: [own] },
        fields: { status: 'done' },
      });
      expect(mine.json()).toEqual({ ids: [own] });
    });

    it('refuses to restore another one', async () => {
      const versions: Version[] = (
        await request('GET', `${records}${entity.name}/${carlas}/versions`, contributor)
      ).json();
      const res = await request(
        'POST',
        `${records}${entity.name}/${carlas}/versions/${versions[0]!._id}/restore`,
        contributor,
      );
      expect(res.json()).toMatchObject({ code: 'POLICY_DENIED' });
    });
  });

  describe('several roles, and $me against a text field', () => {
    it('let the user do what any of their roles may', async () => {
      const roles: Role[] = (await request('GET', '/api/roles', admin)).json();
      const lab = (
        await request('POST', '/api/roles', admin, { name: `lab_${randomUUID().slice(0, 6)}` })
      ).json<Role>();
      const viewerRole = roles.find((role) => role.name === 'viewer')!;
      const dora = await request('POST', '/api/users', admin, {
        username: `dora${randomUUID().slice(0, 6)}`,
        password: 'dora-password',
        roles: [viewerRole._id, lab._id],
      });
      const doraName = dora.json().username as string;
      // The lab role reads through the list route too.
      const routes = (await request('GET', '/api/routes', admin)).json() as {
        _id: string;
        routeVerb: string;
        routePath: string;
        allowedRoles: string[];
      }[];
      const list = routes.find(
        (route) =>
          route.routeVerb === 'GET' && route.routePath === '/api/entity-records/:entityName',
      )!;
      await request('PUT', `/api/routes/${list._id}`, admin, {
        allowedRoles: [...list.allowedRoles, lab.name],
      });
      await add({ code: 'by-dora', site: 'paris', notes: doraName });
      await add({ code: 'lyon', site: 'lyon', notes: 'someone' });
      await add({ code: 'other', site: 'paris', notes: 'someone' });
      await setPolicies([
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
        },
        {
          role: lab.name,
          read: { match: 'all', clauses: [{ field: 'notes', op: 'eq', value: '$me' }] },
        },
      ]);
      const doraHeaders = bearer((await login(t.app, doraName, 'dora-password')).jwt);
      expect(codes((await page(doraHeaders)).records)).toEqual(['by-dora', 'lyon']);
      expect(codes((await page(viewer)).records)).toEqual(['lyon']);
      await request('PUT', `/api/routes/${list._id}`, admin, { allowedRoles: list.allowedRoles });
    });
  });

  describe('a write that would leave the condition, and read-only fields', () => {
    let record: string;
    beforeEach(async () => {
      record = await add({ code: 'A', site: 'lyon' });
      await setPolicies([
        {
          role: 'contributor',
          create: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
          update: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
          fields: { status: 'readOnly' },
        },
      ]);
    });

    it('refuses to move a record out of the update condition, or add one outside create', async () => {
      const moved = await request('PUT', `${records}${entity.name}/${record}`, contributor, {
        fields: { code: 'A', site: 'paris' },
      });
      expect(moved.statusCode).toBe(403);
      expect(moved.json().message).toBe(
        'The update policy of your roles (contributor) does not allow the record this would make',
      );
      const added = await request('POST', `${records}${entity.name}`, contributor, {
        fields: { code: 'B', site: 'paris' },
      });
      expect(added.statusCode).toBe(403);
      expect(added.json().message).toBe(
        'The create policy of your roles (contributor) does not allow the record this would make',
      );
      const bulk = await request('POST', `${records}${entity.name}/bulk-update`, contributor, {
        selection: { ids: [record] },
        fields: { site: 'paris' },
      });
      expect(bulk.json().report.items[0].code).toBe('POLICY_DENIED');
      expect((await page(admin)).records.map((r) => [r.fields.code, r.fields.site])).toEqual([
        ['A', 'lyon'],
      ]);
    });

    it('keeps a read-only field as it is, and refuses to set it', async () => {
      const set = await request('PUT', `${records}${entity.name}/${record}`, contributor, {
        fields: { code: 'A', site: 'lyon', status: 'done' },
      });
      expect(set.statusCode).toBe(403);
      expect(set.json()).toMatchObject({
        code: 'POLICY_DENIED',
        message: 'Your roles (contributor) may not set Status',
        fields: [{ field: 'body.fields.status' }],
      });
      const kept = await request('PUT', `${records}${entity.name}/${record}`, contributor, {
        fields: { code: 'A2', site: 'lyon' },
      });
      expect(kept.json().fields).toEqual({ code: 'A2', site: 'lyon', status: 'new' });
      const created = await request('POST', `${records}${entity.name}`, contributor, {
        fields: { code: 'B', site: 'lyon', status: 'done' },
      });
      expect(created.statusCode).toBe(403);
      // A grid's new row sends the read-only cell blank: it takes its default.
      const blank = await request('POST', `${records}${entity.name}`, contributor, {
        fields: { code: 'D', site: 'lyon', status: '' },
      });
      expect(blank.statusCode).toBe(201);
      const stored = (await page(admin)).records.find((r) => r._id === blank.json()._id)!;
      expect(stored.fields.status).toBe('new');
      await add({ code: 'C', site: 'lyon', status: 'new' });
      const bulk = await request('POST', `${records}${entity.name}/bulk-update`, contributor, {
        selection: { ids: [record] },
        fields: { status: 'done' },
      });
      expect(bulk.statusCode).toBe(403);
    });

    it('brings a deleted record back with its read-only field as it was deleted', async () => {
      await request('PUT', `${records}${entity.name}/${record}`, admin, {
        fields: { code: 'A', site: 'lyon', status: 'checked' },
      });
      const url = `${records}${entity.name}/${record}`;
      const versions: Version[] = (await request('GET', `${url}/versions`, contributor)).json();
      expect((await request('DELETE', url, contributor)).statusCode).toBe(204);
      // Its first version had the status 'new': a restore of it cannot set the status.
      const restored = await request(
        'POST',
        `${url}/versions/${versions.at(-1)!._id}/restore`,
        contributor,
      );
      expect(restored.statusCode).toBe(200);
      expect(restored.json().fields).toEqual({ code: 'A', site: 'lyon', status: 'checked' });
    });

    it('holds each row of an import to the policies: the rows they allow are written, the others named', async () => {
      const paris = await add({ code: 'P', site: 'paris' }, admin);
      const csv = [
        '_id,Code,Site,Status',
        ',B,lyon,',
        ',C,paris,',
        ',D,lyon,done',
        `${record},A2,lyon,new`,
        `${paris},P2,lyon,new`,
      ].join('\n');
      const report = importReport(
        (await importCsv(csv, contributor, { mode: 'valid', dryRun: 'false' })).body,
      );
      expect(report).toMatchObject({ created: 1, updated: 1, refused: 3, committed: true });
      expect([...report.problems].sort((a, b) => a.line - b.line)).toEqual([
        {
          line: 3,
          field: '_id',
          message:
            'The create policy of your roles (contributor) does not allow the record this would make',
        },
        { line: 4, field: 'status', message: 'Your roles (contributor) may not set Status' },
        {
          line: 6,
          field: '_id',
          message: 'The update policy of your roles (contributor) does not allow this record',
        },
      ]);
      const stored = (await page(admin)).records.map((r) => [r.fields.code, r.fields.status]);
      expect(stored.sort()).toEqual([
        ['A2', 'new'],
        ['B', 'new'],
        ['P', 'new'],
      ]);
    });
  });

  describe('an import by a reader the policies narrow', () => {
    it('is refused whole when a column is a hidden field, and takes no unseen record for its own', async () => {
      await add({ code: 'A', site: 'lyon', salary: 1 });
      const paris = await add({ code: 'P', site: 'paris' }, admin);
      await setPolicies([
        {
          role: 'contributor',
          read: { match: 'all', clauses: [{ field: 'site', op: 'eq', value: 'lyon' }] },
          fields: { salary: 'hidden' },
        },
      ]);
      const hidden = await importCsv('Code,Salary\nZ,5\n', contributor, { dryRun: 'false' });
      expect(hidden.statusCode).toBe(403);
      expect(hidden.json()).toMatchObject({
        code: 'POLICY_DENIED',
        message: 'Your roles (contributor) may not set Salary',
      });
      // The record of Paris is not there to them: its id is taken, not theirs to change.
      const report = importReport(
        (
          await importCsv(`_id,Code,Site\n${paris},P2,lyon\n`, contributor, {
            mode: 'valid',
            dryRun: 'false',
          })
        ).body,
      );
      expect(report.problems).toEqual([
        { line: 2, field: '_id', message: 'A record with this id exists' },
      ]);
      expect((await page(admin)).records.map((r) => r.fields.code).sort()).toEqual(['A', 'P']);
    });
  });
});
