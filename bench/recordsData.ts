/**
 * The benchmarks' records (bench:records, bench:export): an entity of samples with ten fields
 * of mixed types, two of them relations to an entity of SITES sites, defined through the API
 * (their tables and indexes as the product makes them) and loaded with SQL.
 */
import { sql } from 'drizzle-orm';
import type { Entity } from '../common/schemas/entities';
import type { Database } from '../server/db/client';
import { tableOf } from '../server/modules/records/recordTable';
import { signInThroughApi } from './builtServer';

export const SITES = 10_000;
export const ADMIN_PASSWORD = 'bench-admin-password';

export const KINDS = ['blood', 'urine', 'tissue', 'swab', 'other'];
export const WORDS = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor'];
export const SAMPLE_FIELDS = [
  { name: 'code', unique: true, required: true },
  { name: 'name' },
  { name: 'quantity', type: 'integer' },
  { name: 'weight', type: 'number' },
  { name: 'fragile', type: 'boolean' },
  { name: 'taken', type: 'date' },
  { name: 'logged', type: 'datetime' },
  { name: 'kind', type: 'select', options: KINDS },
  { name: 'site', type: 'relation', target: 'BenchSite' },
  { name: 'origin', type: 'relation', target: 'BenchSite' },
];
export const SORTABLE = SAMPLE_FIELDS.map((field) => field.name);

/** Defines an entity through the API, as an admin would (`jwt` an admin's). */
export async function defineEntity(base: string, jwt: string, body: object): Promise<Entity> {
  const answer = await fetch(`${base}/api/entities`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`Defining an entity: ${await answer.text()}`);
  return (await answer.json()) as Entity;
}

/** Defines the two entities through the API: their tables and indexes as the product makes them. */
export async function define(base: string) {
  const { jwt } = await signInThroughApi(base, 'admin', ADMIN_PASSWORD);
  const defined = (body: object) => defineEntity(base, jwt, body);
  const site = await defined({ name: 'BenchSite', fields: [{ name: 'code' }, { name: 'label' }] });
  const sample = await defined({ name: 'BenchSample', fields: SAMPLE_FIELDS });
  return { site, sample };
}

/** Loads the records with SQL in batches: the product has no bulk import yet. */
export async function fill(database: Database, site: Entity, sample: Entity, records: number) {
  const started = performance.now();
  await database.db.execute(
    sql.raw(`insert into "${tableOf(site._id)}" (f_code, f_label)
      select 'S' || g, 'Site ' || g from generate_series(1, ${SITES}) g`),
  );
  const batch = 100_000;
  for (let from = 1; from <= records; from += batch) {
    const to = Math.min(records, from + batch - 1);
    await database.db.execute(
      sql.raw(`with sites as (select array_agg(id order by f_code) ids from "${tableOf(site._id)}")
        insert into "${tableOf(sample._id)}" (f_code, f_name, f_quantity, f_weight, f_fragile,
          f_taken, f_logged, f_kind, f_site, f_origin)
        select 'C-' || lpad(g::text, 8, '0'),
          (array[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + (g * 7) % 8] || ' ' ||
            (array[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + (g * 13 / 7) % 8] || ' ' || (g % 997),
          (g::bigint * 7919) % 1000, ((g::bigint * 104729) % 100000) / 100.0, g % 3 = 0,
          date '2020-01-01' + (g % 2000), timestamptz '2024-01-01Z' + g * interval '37 s',
          (array[${KINDS.map((k) => `'${k}'`).join(',')}])[1 + g % 5],
          sites.ids[1 + g % ${SITES}], sites.ids[1 + (g::bigint * 31) % ${SITES}]
        from generate_series(${from}, ${to}) g, sites`),
    );
  }
  const insertSeconds = (performance.now() - started) / 1000;
  await database.db.execute(sql.raw(`vacuum analyze "${tableOf(sample._id)}"`));
  await database.db.execute(sql.raw(`vacuum analyze "${tableOf(site._id)}"`));
  return { insertSeconds, seconds: (performance.now() - started) / 1000 };
}
