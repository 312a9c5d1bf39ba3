import { randomUUID } from 'node:crypto';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import type { Version } from '@common/schemas/versions';
import { bearer, login } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('entities and records on %s', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let contributor: Record<string, string>;
  let viewer: Record<string, string>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = bearer((await login(t.app, 'admin')).jwt);
    contributor = bearer((await login(t.app, 'contributor')).jwt);
    viewer = bearer((await login(t.app, 'viewer')).jwt);
  });
  afterAll(() => t.close());

  const request = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers = admin,
  ) => t.app.inject({ method, url, headers, payload });
  const carDefinition = (name = `Car_${randomUUID().slice(0, 8)}`) => ({
    name,
    description: 'Cars in the fleet',
    category: 'Vehicles',
    fields: [
      { name: 'make', label: 'Make' },
      { name: 'colour', label: 'Colour' },
    ],
  });
  const defineCar = async (): Promise<Entity> =>
    (await request('POST', '/api/entities', carDefinition())).json();

  describe('definitions', () => {
    it('creates, reads by id and by name, lists, and versions a definition', async () => {
      const res = await request('POST', '/api/entities', carDefinition('Car'));
      expect(res.statusCode).toBe(201);
      const car: Entity = res.json();
      expect(car).toEqual({ _id: expect.any(String), ...carDefinition('Car'), _version: 1 });
      expect((await request('GET', `/api/entities/${car._id}`)).json()).toEqual(car);
      expect((await request('GET', '/api/entities/Car', undefined, viewer)).json()).toEqual(car);
      const all: Entity[] = (await request('GET', '/api/entities', undefined, viewer)).json();
      expect(all.map((e) => e.name)).toContain('Car');
      const versions: Version[] = (
        await request('GET', `/api/entities/${car._id}/versions`)
      ).json();
      expect(versions).toHaveLength(1);
      expect(versions[0]).toMatchObject({ updatedBy: 'admin', document: { name: 'Car' } });
    });

    it("puts a definition with no category in 'Generic', and labels unlabelled fields by name", async () => {
      const res = await request('POST', '/api/entities', {
        name: `Thing_${randomUUID().slice(0, 8)}`,
        fields: [{ name: 'size' }],
      });
      expect(res.json()).toMatchObject({
        category: 'Generic',
        description: '',
        fields: [{ name: 'size', label: 'size' }],
      });
    });

    it.each([
      [{ name: 'Bad name', fields: [{ name: 'a' }] }, 'body.name'],
      [{ name: 'Bad-name', fields: [{ name: 'a' }] }, 'body.name'],
      [{ name: '', fields: [{ name: 'a' }] }, 'body.name'],
      [{ name: 'NoFields', fields: [] }, 'body.fields'],
      [{ name: 'BadField', fields: [{ name: 'has space' }] }, 'body.fields.0.name'],
      [{ name: 'Twice', fields: [{ name: 'a' }, { name: 'a' }] }, 'body.fields.1.name'],
    ])('answers 400 for %p', async (payload, field) => {
      const res = await request('POST', '/api/entities', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    });

    it('answers 409 for a name that is taken', async () => {
      const car = await defineCar();
      const res = await request('POST', '/api/entities', carDefinition(car.name));
      expect(res.statusCode).toBe(409);
    });

    it('updates the description, category and fields but never the name', async () => {
      const car = await defineCar();
      const changed = {
        ...carDefinition(car.name),
        category: 'Fleet',
        fields: [{ name: 'make', label: 'Brand' }],
      };
      const res = await request('PUT', `/api/entities/${car._id}`, changed);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ _id: car._id, ...changed, _version: 2 });
      const renamed = await request('PUT', `/api/entities/${car._id}`, {
        ...changed,
        name: 'Other',
      });
      expect(renamed.statusCode).toBe(400);
      const versions: Version[] = (
        await request('GET', `/api/entities/${car._id}/versions`)
      ).json();
      expect(versions.map((v) => v.action)).toEqual(['update', 'create']);
      expect(versions[0]!.changes).toEqual([
        { field: 'category', from: 'Vehicles', to: 'Fleet' },
        {
          field: 'fields',
          from: carDefinition().fields,
          to: [{ name: 'make', label: 'Brand' }],
        },
      ]);
    });

    it('answers 404 for unknown definitions', async () => {
      expect((await request('GET', '/api/entities/Nope')).statusCode).toBe(404);
      expect((await request('GET', `/api/entities/${randomUUID()}`)).statusCode).toBe(404);
      expect(
        (await request('PUT', `/api/entities/${randomUUID()}`, carDefinition())).statusCode,
      ).toBe(404);
      expect((await request('DELETE', `/api/entities/${randomUUID()}`)).statusCode).toBe(404);
    });
  });

  describe('records', () => {
    it('adds, lists, updates, versions and deletes records', async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const created = await request(
        'POST',
        base,
        { entity_name: car.name, fields: { make: 'Ford' } },
        contributor,
      );
      expect(created.statusCode).toBe(201);
      const { _id } = created.json();
      const chosenId = randomUUID();
      const second = await request(
        'POST',
        base,
        { _id: chosenId, fields: { make: 'Fiat', colour: 'red' } },
        contributor,
      );
      expect(second.json()).toEqual({ _id: chosenId });

      const listed: EntityRecord[] = (await request('GET', base, undefined, viewer)).json();
      // Each carries who added it (the contributor).
      const added = { _createdBy: expect.any(String) as string };
      expect(listed).toEqual([
        { _id, entity_name: car.name, fields: { make: 'Ford' }, _version: 1, ...added },
        {
          _id: chosenId,
          entity_name: car.name,
          fields: { make: 'Fiat', colour: 'red' },
          _version: 1,
          ...added,
        },
      ]);
      expect(listed[0]!._createdBy).toBe(listed[1]!._createdBy);

      const updated = await request(
        'PUT',
        `${base}/${_id}`,
        { fields: { make: 'Ford', colour: 'blue' } },
        contributor,
      );
      expect(updated.json()).toEqual({
        _id,
        entity_name: car.name,
        fields: { make: 'Ford', colour: 'blue' },
        _version: 2,
        ...added,
      });
      const versions: Version[] = (
        await request('GET', `${base}/${_id}/versions`, undefined, viewer)
      ).json();
      expect(versions.map((v) => [v.action, v.updatedBy, v.document.fields])).toEqual([
        ['update', 'contributor', { make: 'Ford', colour: 'blue' }],
        ['create', 'contributor', { make: 'Ford' }],
      ]);
      // Per field of `fields`, against the version before.
      expect(versions.map((v) => v.changes)).toEqual([
        [{ field: 'colour', from: null, to: 'blue' }],
        [{ field: 'make', from: null, to: 'Ford' }],
      ]);
      // Another entity's name does not reach this record's history.
      await request('POST', '/api/entities', carDefinition('Truck'));
      expect(
        (await request('GET', `/api/entity-records/Truck/${_id}/versions`, undefined, viewer))
          .statusCode,
      ).toBe(404);

      expect((await request('DELETE', `${base}/${_id}`, undefined, contributor)).statusCode).toBe(
        204,
      );
      expect(((await request('GET', base)).json() as EntityRecord[]).map((r) => r._id)).toEqual([
        chosenId,
      ]);
      const afterDelete: Version[] = (await request('GET', `${base}/${_id}/versions`)).json();
      expect(afterDelete[0]).toMatchObject({
        action: 'delete',
        updatedBy: 'contributor',
        document: { _id, fields: { make: 'Ford', colour: 'blue' } },
        changes: [
          { field: 'colour', from: 'blue', to: null },
          { field: 'make', from: 'Ford', to: null },
        ],
      });
      expect((await request('DELETE', `${base}/${_id}`, undefined, contributor)).statusCode).toBe(
        404,
      );
    });

    it('refuses keys that are not fields, values that are not strings, and unknown entities', async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const unknownKey = await request('POST', base, { fields: { wheels: '4' } });
      expect(unknownKey.statusCode).toBe(400);
      expect(unknownKey.json().message).toMatch(/wheels/);
      expect((await request('POST', base, { fields: { make: 4 } })).statusCode).toBe(400);
      expect(
        (await request('POST', base, { fields: { make: 'x'.repeat(10_001) } })).statusCode,
      ).toBe(400);
      expect((await request('GET', '/api/entity-records/NoSuchEntity')).statusCode).toBe(404);
      expect(
        (await request('POST', '/api/entity-records/NoSuchEntity', { fields: {} })).statusCode,
      ).toBe(404);
      expect((await request('PUT', `${base}/${randomUUID()}`, { fields: {} })).statusCode).toBe(
        404,
      );
    });

    it("keeps a removed field's values in old versions but not in the current record", async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const { _id } = (
        await request('POST', base, { fields: { make: 'Ford', colour: 'red' } })
      ).json();
      await request('PUT', `/api/entities/${car._id}`, {
        ...carDefinition(car.name),
        fields: [{ name: 'make', label: 'Make' }],
      });
      expect(((await request('GET', base)).json() as EntityRecord[])[0]!.fields).toEqual({
        make: 'Ford',
      });
      const versions: Version[] = (await request('GET', `${base}/${_id}/versions`)).json();
      expect(versions[0]!.document.fields).toEqual({ make: 'Ford', colour: 'red' });
      // Deleted, its last version is the record as it was shown: its fields of the definition.
      expect((await request('DELETE', `${base}/${_id}`)).statusCode).toBe(204);
      const [deleted]: Version[] = (await request('GET', `${base}/${_id}/versions`)).json();
      expect(deleted).toMatchObject({
        action: 'delete',
        document: { _id, entity_name: car.name, fields: { make: 'Ford' }, _version: 1 },
      });
    });

    it('go with their entity when it is deleted', async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const { _id } = (await request('POST', base, { fields: { make: 'Ford' } })).json();
      expect((await request('DELETE', `/api/entities/${car._id}`)).statusCode).toBe(204);
      expect((await request('GET', base)).statusCode).toBe(404);
      // Both deletes are in their histories.
      const entityHistory: Version[] = (
        await request('GET', `/api/entities/${car._id}/versions`)
      ).json();
      expect(entityHistory.map((v) => v.action)).toEqual(['delete', 'create']);
      const recordHistory: Version[] = (await request('GET', `${base}/${_id}/versions`)).json();
      expect(recordHistory.map((v) => v.action)).toEqual(['delete', 'create']);
      // Defined again, the name starts with no records.
      await request('POST', '/api/entities', carDefinition(car.name));
      expect((await request('GET', base)).json()).toEqual([]);
    });
  });

  describe('restoring versions', () => {
    const restorePath = (base: string, id: string, versionId: string) =>
      `${base}/${id}/versions/${versionId}/restore`;

    it('brings a deleted definition back with its id and name, and 409 once the name is taken', async () => {
      const car = await defineCar();
      await request('DELETE', `/api/entities/${car._id}`);
      const [deleted] = (
        await request('GET', `/api/entities/${car._id}/versions`)
      ).json() as Version[];
      const res = await request('POST', restorePath('/api/entities', car._id, deleted!._id));
      expect(res.statusCode).toBe(200);
      // Deleted at version 1, it comes back as version 2.
      expect(res.json()).toEqual({ ...car, _version: 2 });
      expect((await request('GET', `/api/entities/${car.name}`)).json()).toEqual(res.json());

      await request('DELETE', `/api/entities/${car._id}`);
      await request('POST', '/api/entities', carDefinition(car.name));
      const [again] = (
        await request('GET', `/api/entities/${car._id}/versions`)
      ).json() as Version[];
      expect(
        (await request('POST', restorePath('/api/entities', car._id, again!._id))).statusCode,
      ).toBe(409);
    });

    it("restores a record's earlier values, and a deleted record with its id", async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const { _id } = (
        await request('POST', base, { fields: { make: 'Ford' } }, contributor)
      ).json();
      await request('PUT', `${base}/${_id}`, { fields: { make: 'Fiat' } }, contributor);
      const history = (): Promise<Version[]> =>
        request('GET', `${base}/${_id}/versions`).then((res) => res.json());
      const created = (await history()).at(-1)!;
      const res = await request(
        'POST',
        restorePath(base, _id, created._id),
        undefined,
        contributor,
      );
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        _id,
        entity_name: car.name,
        fields: { make: 'Ford' },
        _version: 3,
        _createdBy: expect.any(String),
      });
      expect((await history())[0]).toMatchObject({
        action: 'restore',
        changes: [{ field: 'make', from: 'Fiat', to: 'Ford' }],
      });

      await request('DELETE', `${base}/${_id}`, undefined, contributor);
      const deleted = (await history())[0]!;
      await request('POST', restorePath(base, _id, deleted._id), undefined, contributor);
      expect(((await request('GET', base)).json() as EntityRecord[]).map((r) => r._id)).toEqual([
        _id,
      ]);
    });

    it("keeps a removed field's value in history only, and answers 404 under another entity", async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const { _id } = (
        await request('POST', base, { fields: { make: 'Ford', colour: 'red' } })
      ).json();
      const [version] = (await request('GET', `${base}/${_id}/versions`)).json() as Version[];
      await request('PUT', `/api/entities/${car._id}`, {
        ...carDefinition(car.name),
        fields: [{ name: 'make', label: 'Make' }],
      });
      const res = await request('POST', restorePath(base, _id, version!._id));
      expect(res.json()).toEqual({
        _id,
        entity_name: car.name,
        fields: { make: 'Ford' },
        _version: 2,
        _createdBy: expect.any(String),
      });

      const truck = await request('POST', '/api/entities', carDefinition());
      const truckBase = `/api/entity-records/${(truck.json() as Entity).name}`;
      expect((await request('POST', restorePath(truckBase, _id, version!._id))).statusCode).toBe(
        404,
      );
    });

    it("answers 409 ID_TAKEN when a deleted record's id is now another entity's record, which stays", async () => {
      const car = await defineCar();
      const truck = (await request('POST', '/api/entities', carDefinition())).json() as Entity;
      const base = `/api/entity-records/${car.name}`;
      const truckBase = `/api/entity-records/${truck.name}`;
      const { _id } = (await request('POST', base, { fields: { make: 'Ford' } })).json();
      await request('DELETE', `${base}/${_id}`);
      const [deleted] = (await request('GET', `${base}/${_id}/versions`)).json() as Version[];
      await request('POST', truckBase, { _id, fields: { make: 'Volvo' } });

      const res = await request('POST', restorePath(base, _id, deleted!._id));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ID_TAKEN' });
      expect((await request('GET', truckBase)).json()).toEqual([
        {
          _id,
          entity_name: truck.name,
          fields: { make: 'Volvo' },
          _version: 1,
          _createdBy: expect.any(String),
        },
      ]);
      expect((await request('GET', base)).json()).toEqual([]);
    });

    it('lets contributors restore records but not definitions, and viewers neither', async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const { _id } = (await request('POST', base, { fields: { make: 'Ford' } })).json();
      const [recordVersion] = (await request('GET', `${base}/${_id}/versions`)).json() as Version[];
      const [entityVersion] = (
        await request('GET', `/api/entities/${car._id}/versions`)
      ).json() as Version[];
      const restoreEntity = restorePath('/api/entities', car._id, entityVersion!._id);
      const restoreRecord = restorePath(base, _id, recordVersion!._id);
      expect((await request('POST', restoreEntity, undefined, contributor)).statusCode).toBe(403);
      expect((await request('POST', restoreEntity, undefined, viewer)).statusCode).toBe(403);
      expect((await request('POST', restoreRecord, undefined, viewer)).statusCode).toBe(403);
      expect((await request('POST', restoreRecord, undefined, contributor)).statusCode).toBe(200);
    });
  });

  describe('recently deleted', () => {
    it('lists deleted definitions and records until they come back', async () => {
      const car = await defineCar();
      const base = `/api/entity-records/${car.name}`;
      const kept = (await request('POST', base, { fields: { make: 'Ford' } })).json();
      const gone = (await request('POST', base, { fields: { make: 'Fiat' } })).json();
      await request('DELETE', `${base}/${gone._id}`, undefined, contributor);
      const deletedRecords = (
        await request('GET', `${base}/recently-deleted`, undefined, viewer)
      ).json() as { _id: string; versionId: string; document: EntityRecord }[];
      expect(deletedRecords.map((item) => item._id)).toEqual([gone._id]);
      expect(deletedRecords[0]!.document.fields).toEqual({ make: 'Fiat' });

      // Deleting the entity deletes its records: the definition is listed, and once it is
      // back, so are the records deleted with it; the one deleted before is still listed.
      await request('DELETE', `/api/entities/${car._id}`);
      const deletedEntities = (await request('GET', '/api/entities/recently-deleted')).json() as {
        _id: string;
        versionId: string;
      }[];
      const listed = deletedEntities.find((item) => item._id === car._id)!;
      expect(listed).toBeDefined();
      expect((await request('GET', `${base}/recently-deleted`)).statusCode).toBe(404);
      await request('POST', `/api/entities/${car._id}/versions/${listed.versionId}/restore`);
      const afterEntity = (await request('GET', `${base}/recently-deleted`)).json() as {
        _id: string;
      }[];
      expect(afterEntity.map((item) => item._id)).toEqual([gone._id]);
      const records = (await request('GET', base)).json() as EntityRecord[];
      expect(records.map((record) => record._id)).toEqual([kept._id]);
      expect(
        ((await request('GET', '/api/entities/recently-deleted')).json() as { _id: string }[]).map(
          (item) => item._id,
        ),
      ).not.toContain(car._id);
    });
  });

  describe('permissions', () => {
    it("answers 403 to a viewer's writes, and to a contributor's definition writes", async () => {
      const car = await defineCar();
      expect((await request('POST', '/api/entities', carDefinition(), viewer)).statusCode).toBe(
        403,
      );
      expect(
        (await request('POST', '/api/entities', carDefinition(), contributor)).statusCode,
      ).toBe(403);
      expect(
        (await request('DELETE', `/api/entities/${car._id}`, undefined, viewer)).statusCode,
      ).toBe(403);
      const base = `/api/entity-records/${car.name}`;
      expect((await request('POST', base, { fields: {} }, viewer)).statusCode).toBe(403);
      expect(
        (await request('PUT', `${base}/${randomUUID()}`, { fields: {} }, viewer)).statusCode,
      ).toBe(403);
      expect(
        (await request('DELETE', `${base}/${randomUUID()}`, undefined, viewer)).statusCode,
      ).toBe(403);
    });
  });
});
