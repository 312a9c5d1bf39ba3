import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { columnOf, sortIndexOf, tableOf } from '@server/modules/records/recordTable';

/**
 * Migration 0020 moves each entity's records from the one JSON table into a table of its
 * own. Run here on the two tables as 0019 left them, with records of every shape.
 */
describe('migration 0020: a table per entity', () => {
  const statements = readFileSync(
    join(process.cwd(), 'server/db/migrations/0020_records_per_entity.sql'),
    'utf8',
  ).split('--> statement-breakpoint');
  const entityId = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
  const recordId = 'b1eebc99-9c0b-4ef8-bb6d-6bb9bd380a12';
  const longName = `x${'y'.repeat(63)}`;

  it("moves every record's values of the definition's fields, with its id, version and times, each field with its sort index", async () => {
    const db = await PGlite.create();
    await db.exec(`
      create table entities (id uuid primary key, name text unique not null, fields jsonb not null);
      create table entity_records (id uuid primary key, entity_name text not null references entities(name),
        fields jsonb not null, version integer not null default 1,
        created_at timestamptz not null default now(), updated_at timestamptz not null default now());
      insert into entities values ('${entityId}', 'Car',
        '[{"name":"make","label":"Make"},{"name":"${longName}","label":"Long"}]');
      insert into entity_records (id, entity_name, fields, version, created_at) values
        ('${recordId}', 'Car', '{"make":"Ford","${longName}":"l","removed":"gone"}', 3, '2026-01-02T03:04:05Z'),
        (gen_random_uuid(), 'Car', '{}', 1, '2026-01-03T00:00:00Z');`);
    for (const statement of statements) await db.exec(statement);

    const table = tableOf(entityId);
    const { rows } = await db.query<Record<string, unknown>>(
      `select id, version, created_at, "${columnOf('make')}" as make, "${columnOf(longName)}" as long
       from "${table}" order by created_at`,
    );
    expect(rows).toEqual([
      {
        id: recordId,
        version: 3,
        created_at: new Date('2026-01-02T03:04:05Z'),
        make: 'Ford',
        long: 'l',
      },
      { id: expect.any(String), version: 1, created_at: expect.any(Date), make: null, long: null },
    ]);
    const indexes = await db.query<{ name: string }>(
      `select indexname as name from pg_indexes where tablename = $1`,
      [table],
    );
    expect(indexes.rows.map((row) => row.name)).toEqual(
      expect.arrayContaining([sortIndexOf(entityId, 'make'), sortIndexOf(entityId, longName)]),
    );
    const old = await db.query(`select to_regclass('entity_records') as gone`);
    expect(old.rows).toEqual([{ gone: null }]);
    await db.close();
  });
});
