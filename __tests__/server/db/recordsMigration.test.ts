import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { EntityField } from '@common/schemas/entities';
import {
  columnOf,
  createTableStatements,
  searchIndexOf,
  searchTextOf,
  sortIndexOf,
  tableOf,
} from '@server/modules/records/recordTable';

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

/**
 * Migration 0021 gives each entity's table the quick search's trigram index: over the
 * expression the searches write (searchTextOf), or the planner would not use it.
 */
describe('migration 0021: a search index per entity', () => {
  const statements = (name: string) =>
    readFileSync(join(process.cwd(), `server/db/migrations/${name}.sql`), 'utf8').split(
      '--> statement-breakpoint',
    );
  const fields: EntityField[] = [
    { name: 'code', label: 'Code' },
    { name: 'qty', label: 'Quantity', type: 'integer' },
    { name: `x${'y'.repeat(63)}`, label: 'Long', type: 'longText' },
    { name: 'kind', label: 'Kind', type: 'select', options: ['a'] },
  ];

  it('indexes the text fields of each entity as the searches read them, and no entity without', async () => {
    const db = await PGlite.create({ extensions: { pg_trgm } });
    await db.exec('create extension pg_trgm');
    await db.exec('create table entities (id uuid primary key, name text, fields jsonb)');
    const typed = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11';
    const numbers = 'c2eebc99-9c0b-4ef8-bb6d-6bb9bd380a13';
    const numberFields: EntityField[] = [{ name: 'n', label: 'N', type: 'number' }];
    for (const [id, entityFields] of [
      [typed, fields],
      [numbers, numberFields],
    ] as const) {
      await db.query('insert into entities values ($1, $2, $3)', [
        id,
        id,
        JSON.stringify(entityFields),
      ]);
      // The table as recordTable.ts makes it, without the index the migration adds.
      const made = createTableStatements({ id, name: id, fields: [...entityFields] }, new Map());
      for (const statement of made.filter((one) => !one.includes('gin_trgm_ops')))
        await db.exec(statement);
    }
    for (const statement of statements('0021_record_search_index')) await db.exec(statement);
    const definitionOf = async (name: string) =>
      (
        await db.query<{ definition: string }>(
          'select indexdef as definition from pg_indexes where indexname = $1',
          [name],
        )
      ).rows[0]?.definition;
    const migrated = await definitionOf(searchIndexOf(typed));
    expect(migrated).toContain('gin_trgm_ops');
    expect(await definitionOf(searchIndexOf(numbers))).toBeUndefined();
    // The same index as a new entity's table gets.
    await db.exec(`drop index "${searchIndexOf(typed)}"`);
    const made = createTableStatements({ id: typed, name: typed, fields }, new Map());
    await db.exec(made.find((one) => one.includes('gin_trgm_ops'))!);
    expect(await definitionOf(searchIndexOf(typed))).toBe(migrated);
    expect(searchTextOf(fields)).toContain(columnOf('kind'));
    await db.close();
  });
});
