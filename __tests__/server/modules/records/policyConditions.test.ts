import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { Entity, EntityRecord } from '@common/schemas/entities';
import {
  CREATED_BY,
  ME,
  type PolicyClause,
  type PolicyCondition,
  type PolicyUser,
  meetsCondition,
} from '@common/schemas/policies';
import { queryRows } from '@server/db/client';
import { boundPolicySql } from '@server/modules/records/recordPolicies';
import { quoted, tableOf } from '@server/modules/records/recordTable';
import { bearer, login } from '../../helpers/auth';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

/** Each field's type and the values records and clauses draw from (blanks and nulls included). */
const FIELDS = [
  { name: 'code', type: 'text', values: ['ada', 'bob', '', '  ', null] },
  { name: 'n', type: 'number', values: [-1, 0, 1.5, 2, null] },
  { name: 'flag', type: 'boolean', values: [true, false, null] },
  { name: 'd', type: 'date', values: ['2026-01-01', '2026-06-30', '2027-02-03', null] },
  { name: 'site', type: 'select', values: ['lyon', 'paris', null] },
] as const;
const ORDERED = new Set(['number', 'date']);

/**
 * The server compiles a policy's condition into SQL (on a record's table, or on a version's
 * snapshot); the screens and the checks of snapshots read it in JavaScript (`meetsCondition`).
 * For any condition, both must let the same records through.
 */
describe.each(testDbKinds)('a policy condition on %s', (kind) => {
  let t: TestApp;
  let entity: Entity;
  let records: EntityRecord[];
  let admin: PolicyUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const session = await login(t.app, 'admin');
    const headers = bearer(session.jwt);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/entities',
      headers,
      payload: {
        name: 'Checked',
        fields: FIELDS.map(({ name, type }) => ({
          name,
          type,
          ...(type === 'select' ? { options: ['lyon', 'paris'] } : {}),
        })),
      },
    });
    entity = created.json();
    // Records of every value of each field, in varied combinations.
    const sample = fc.sample(
      fc.record(
        Object.fromEntries(FIELDS.map(({ name, values }) => [name, fc.constantFrom(...values)])),
      ),
      { numRuns: 40, seed: 32 },
    );
    for (const fields of sample) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/entity-records/Checked',
        headers,
        payload: { fields },
      });
      expect(res.statusCode).toBe(201);
    }
    records = (await t.app.inject({ url: '/api/entity-records/Checked', headers })).json<
      EntityRecord[]
    >();
    admin = { id: records[0]!._createdBy!, username: 'admin' };
  });
  afterAll(() => t.close());

  const clause: fc.Arbitrary<PolicyClause> = fc.oneof(
    ...FIELDS.map(({ name, type, values }) => {
      const value = fc.constantFrom(
        ...values.filter((one) => one !== null),
        ...(type === 'text' ? [ME] : []),
      );
      const ops = ['eq', 'ne', 'in', 'empty', ...(ORDERED.has(type) ? ['lt', 'gt'] : [])];
      return fc
        .constantFrom(...ops)
        .chain((op) =>
          (op === 'empty'
            ? fc.boolean()
            : op === 'in'
              ? fc.uniqueArray(value, { minLength: 1, maxLength: 3 })
              : value
          ).map((one) => ({ field: name, op, value: one }) as PolicyClause),
        );
    }),
    fc
      .constantFrom<PolicyClause['op']>('eq', 'ne', 'empty')
      .map((op) => ({ field: CREATED_BY, op, value: op === 'empty' ? false : ME })),
  );
  const condition: fc.Arbitrary<PolicyCondition> = fc.record({
    match: fc.constantFrom('all', 'any'),
    clauses: fc.array(clause, { minLength: 1, maxLength: 3 }),
  });
  /** Who `$me` is: the records' creator (named ada, as some codes are), or someone else. */
  const user = fc.constantFrom<() => PolicyUser>(
    () => ({ ...admin, username: 'ada' }),
    () => ({ id: '00000000-0000-4000-8000-000000000001', username: 'bob' }),
  );

  const byJavaScript = (where: PolicyCondition[], me: PolicyUser) =>
    records
      .filter((record) =>
        where.some((one) =>
          meetsCondition(one, { ...record.fields, [CREATED_BY]: record._createdBy }, me),
        ),
      )
      .map((record) => record._id)
      .sort();

  it('lets the same records through in SQL, on the table and on the snapshots, as in JavaScript', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(condition, { minLength: 1, maxLength: 2 }),
        user,
        async (where, me) => {
          const policy = { fields: entity.fields, where, user: me() };
          const table = await queryRows<{ id: string }>(
            t.database.db,
            sql`select id::text as id from ${sql.raw(quoted(tableOf(entity._id)))}
                where ${boundPolicySql(policy, 'table')} order by id`,
          );
          const snapshots = await queryRows<{ id: string }>(
            t.database.db,
            sql`select document_id::text as id from versions
                where resource = 'entity-records' and action = 'create'
                  and ${boundPolicySql(policy, 'snapshot')} order by document_id`,
          );
          const expected = byJavaScript(where, me());
          expect(table.map((row) => row.id)).toEqual(expected);
          expect(snapshots.map((row) => row.id)).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });
});
