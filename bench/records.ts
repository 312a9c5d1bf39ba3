/**
 * `npm run bench:records`: an entity of 1,000,000 records with ten fields of mixed types
 * (two relations to an entity of 10,000 records), then 50 connections for 30 s of a mix of
 * pages (sorted by each field both ways, typed filters, quick filters, relations shown)
 * through the API and, in the same run, the same queries straight to the database.
 * Prints requests/s, p50, p99, the API's share, the server's memory (and at 1,000 records),
 * the disk of the records and their indexes against the raw CSV, and the load time.
 *
 * Then the embedded PGlite at 100,000 records (`--pglite-records`): 300 pages of the mix, one
 * at a time (PGlite answers one query at a time), each timed.
 *
 * BENCH_DATABASE_URL names a PostgreSQL database the benchmark may fill: it uses its
 * siblings `<name>_records` (dropped and loaded again each run) and `<name>_records_small`.
 * With a policy (issue 32): an eighth of the records made the viewer's, then the mix as the
 * viewer without a policy and with one that lets them read only the records they created
 * (`$me`) with two fields hidden, each 30 s at 50 connections: requests/s against each other.
 *
 * `--records N` changes the size (default 1,000,000); `--only-pglite` runs the PGlite part
 * alone; `--only-policies` loads, then runs the policy part alone; `--ssd-planner` sets the
 * records database's `random_page_cost` to 1.1 (PostgreSQL's usual value for SSDs) first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { type Entity, recordPageQuerySchema } from '../common/schemas/entities';
import {
  type Database,
  fromPglite,
  openPostgres,
  pgliteExtensions,
  queryRows,
} from '../server/db/client';
import { tableOf } from '../server/modules/records/recordTable';
import { listRecordPage } from '../server/modules/records/records.service';
import { siblingDatabase, signInThroughApi, startBuiltServer } from './builtServer';
import { ms, percentile, prng, reportApi } from './measure';
import {
  ADMIN_PASSWORD,
  KINDS,
  SAMPLE_FIELDS,
  SORTABLE,
  SITES,
  WORDS,
  define,
  fill,
} from './recordsData';

const { values: args } = parseArgs({
  options: {
    records: { type: 'string' },
    'pglite-records': { type: 'string' },
    'only-pglite': { type: 'boolean' },
    'only-policies': { type: 'boolean' },
    'ssd-planner': { type: 'boolean' },
  },
});
const RECORDS = Number(args.records ?? 1_000_000);
const PGLITE_RECORDS = Number(args['pglite-records'] ?? 100_000);
const SMALL_RECORDS = 1_000;
const CONNECTIONS = 50;
const DURATION_S = 30;

/** Defines the entities through the API and loads their records. */
async function load(base: string, database: Database, records: number) {
  const { site, sample } = await define(base);
  return { site, sample, ...(await fill(database, site, sample, records)) };
}

/** The disk of the records' table and indexes, and the size of the same data as CSV. */
async function diskUse(database: Database, sample: Entity) {
  const table = tableOf(sample._id);
  const [sizes] = await queryRows<{ table: number; indexes: number; csv: number }>(
    database.db,
    sql.raw(`select pg_table_size('"${table}"')::float8 as table,
      pg_indexes_size('"${table}"')::float8 as indexes,
      (select sum(octet_length(concat_ws(',', id, f_code, f_name, f_quantity, f_weight, f_fragile,
        f_taken, to_char(f_logged at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), f_kind,
        f_site, f_origin)) + 1) from "${table}")::float8 as csv`),
  );
  return sizes!;
}

/** The mix of pages: its queries, by a seeded PRNG, sorted by any of `sortable`. */
function mix(
  random: () => number,
  siteIds: string[],
  sortable: readonly string[] = SORTABLE,
): () => Record<string, string> {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const sort = () => `${pick(sortable)}:${pick(['asc', 'desc'])}`;
  const page = (pages: number) => String(1 + Math.floor(random() * pages));
  const filters: (() => Record<string, string>)[] = [
    () => ({ 'filter[quantity][gt]': String(Math.floor(random() * 1000)) }),
    () => ({ 'filter[weight][lt]': String(Math.floor(random() * 1000)) }),
    () => {
      const month = `20${20 + Math.floor(random() * 5)}-0${1 + Math.floor(random() * 9)}`;
      return { 'filter[taken][gte]': `${month}-01`, 'filter[taken][lt]': `${month}-28` };
    },
    () => ({ 'filter[kind][eq]': pick(KINDS) }),
    () => ({ 'filter[fragile][eq]': pick(['true', 'false']) }),
    () => ({ 'filter[site][eq]': pick(siteIds) }),
    () => ({ 'filter[code][eq]': `C-${page(RECORDS).padStart(8, '0')}` }),
  ];
  return (): Record<string, string> => {
    const roll = random();
    if (roll < 0.4) return { sort: sort(), page: page(20), perPage: '50' };
    if (roll < 0.7) return { ...pick(filters)(), sort: sort(), page: page(5), perPage: '50' };
    if (roll < 0.9) return { q: `${pick(WORDS)} ${page(997)}`, sort: sort(), perPage: '50' };
    return { page: page(20), perPage: '50' };
  };
}

const pathOf = (query: Record<string, string>) =>
  `/api/entity-records/BenchSample?${new URLSearchParams(query)}`;

async function driveMix(
  base: string,
  jwt: string,
  siteIds: string[],
  seconds: number,
  sortable?: readonly string[],
) {
  const next = mix(prng(42), siteIds, sortable);
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${jwt}` },
    requests: [{ setupRequest: (request) => ({ ...request, path: pathOf(next()) }) }],
  });
}

/** The same mix straight to the database (the service in this process), 10 at a time. */
async function runDirect(url: string, siteIds: string[], seconds: number) {
  const database = openPostgres(url);
  const next = mix(prng(42), siteIds);
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (Date.now() < until) {
        const started = performance.now();
        await listRecordPage(database.db, 'BenchSample', recordPageQuerySchema.parse(next()));
        latencies.push(performance.now() - started);
      }
    }),
  );
  await database.close();
  return latencies.sort((a, b) => a - b);
}

/** The slowest query of each kind of the mix, one at a time, warm: where the time goes. */
async function slowestKinds(
  base: string,
  jwt: string,
  siteIds: string[],
  sortable?: readonly string[],
) {
  const next = mix(prng(9), siteIds, sortable);
  const times: { ms: number; path: string }[] = [];
  for (let i = 0; i < 300; i++) {
    const path = pathOf(next());
    const started = performance.now();
    const answer = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${jwt}` } });
    await answer.arrayBuffer();
    times.push({ ms: performance.now() - started, path });
  }
  return times.sort((a, b) => a.ms - b.ms);
}

/**
 * A definition change that converts every record (the integer `quantity` becomes a number),
 * through the API as an admin: its dry run, then the change, timed; and a page asked while
 * it runs, timed too (the entity stays readable, or that page waits).
 */
async function convert(base: string, sample: Entity) {
  const { jwt } = await signInThroughApi(base, 'admin', ADMIN_PASSWORD);
  const fields = SAMPLE_FIELDS.map((field) =>
    field.name === 'quantity' ? { ...field, type: 'number' } : field,
  );
  const put = (query: string) =>
    fetch(`${base}/api/entities/${sample._id}${query}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: sample.name, fields }),
    });
  let started = performance.now();
  const dryRun = await put('?dryRun=true');
  const report = (await dryRun.json()) as { converted: number; failed: number };
  console.log(
    `
A definition change, quantity from integer to number: the dry run ${ms(performance.now() - started)} (${report.converted} to convert, ${report.failed} failing)`,
  );
  started = performance.now();
  const change = put('');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const pageStarted = performance.now();
  const page = await fetch(`${base}${pathOf({ sort: 'code:asc', perPage: '50' })}`, {
    headers: { authorization: `Bearer ${jwt}` },
  });
  const pageMs = performance.now() - pageStarted;
  const answer = await change;
  console.log(
    `  the change: ${answer.status} in ${ms(performance.now() - started)}; a page asked 1 s into it: ${page.status} after ${ms(pageMs)}`,
  );
}

/** The fields the policy hides from the viewer: neither mix sorts by them (that is refused). */
const HIDDEN = ['logged', 'origin'];

/**
 * The mix as a reader a record policy narrows, against the same mix without it: an eighth of
 * the records made the viewer's; then 30 s of the mix as the viewer, without a policy, and
 * with one letting them read only the records they created, `logged` and `origin` hidden.
 */
async function withPolicy(base: string, database: Database, sample: Entity, siteIds: string[]) {
  const { jwt: adminJwt } = await signInThroughApi(base, 'admin', ADMIN_PASSWORD);
  const { jwt } = await signInThroughApi(base, 'viewer', 'viewer123');
  const viewerId = (
    JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
    }
  ).sub;
  const table = `"${tableOf(sample._id)}"`;
  const started = performance.now();
  await database.db.execute(
    sql`update ${sql.raw(table)} set created_by = ${viewerId} where (hashtext(id::text) & 7) = 0`,
  );
  await database.db.execute(sql.raw(`vacuum analyze ${table}`));
  const [mine] = await queryRows<{ count: number }>(
    database.db,
    sql`select count(*)::int as count from ${sql.raw(table)} where created_by = ${viewerId}`,
  );
  console.log(
    `
With a policy: ${mine!.count} records made the viewer's in ${ms(performance.now() - started)}`,
  );
  const sortable = SORTABLE.filter((name) => !HIDDEN.includes(name));
  const setPolicies = async (policies: object[]) => {
    const answer = await fetch(`${base}/api/entities/${sample._id}/policies`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${adminJwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ policies }),
    });
    if (!answer.ok) throw new Error(`Setting the policies answered ${answer.status}`);
  };
  const run = async (title: string) => {
    await driveMix(base, jwt, siteIds, 5, sortable);
    const result = await driveMix(base, jwt, siteIds, DURATION_S, sortable);
    reportApi(title, result);
    return result;
  };
  const plain = await run(
    `The mix as the viewer, no policy (not sorted by ${HIDDEN.join(' or ')}), ${CONNECTIONS} connections, ${DURATION_S} s:`,
  );
  await setPolicies([
    {
      role: 'viewer',
      read: { match: 'all', clauses: [{ field: '_createdBy', op: 'eq', value: '$me' }] },
      fields: Object.fromEntries(HIDDEN.map((name) => [name, 'hidden'])),
    },
  ]);
  const single = await slowestKinds(base, jwt, siteIds, sortable);
  const times = single.map((t) => t.ms);
  console.log(
    `The same with the policy (their own records, ${HIDDEN.join(' and ')} hidden), one at a time, 300 pages: p50 ${ms(percentile(times, 50))}   p99 ${ms(percentile(times, 99))}`,
  );
  for (const t of single.slice(-5).reverse())
    console.log(`    ${ms(t.ms)}  ${decodeURIComponent(t.path)}`);
  const narrowed = await run(
    `The same with the policy, ${CONNECTIONS} connections, ${DURATION_S} s:`,
  );
  console.log(
    `  with the policy: ${((narrowed.requests.average / plain.requests.average) * 100).toFixed(0)} % of the requests/s without it`,
  );
  await setPolicies([]);
}

const siteIdsOf = async (database: Database, site: Entity) =>
  (
    await queryRows<{ id: string }>(
      database.db,
      sql.raw(`select id from "${tableOf(site._id)}" limit 2000`),
    )
  ).map((row) => row.id);

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

async function main() {
  if (args['only-pglite']) return pgliteRun();
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill');
  const env = { SEED_JOBS: '0', ADMIN_PASSWORD };

  const recordsUrl = await siblingDatabase(url, '_records', { fresh: true });
  let server = await startBuiltServer({ ...env, DATABASE_URL: recordsUrl });
  const database = openPostgres(recordsUrl);
  console.log(`Loading ${RECORDS} records (and ${SITES} sites)…`);
  const loaded = await load(server.base, database, RECORDS);
  console.log(
    `Loaded in ${loaded.seconds.toFixed(0)} s (inserted with the indexes as they went ${loaded.insertSeconds.toFixed(0)} s, then vacuum analyze)`,
  );
  const disk = await diskUse(database, loaded.sample);
  console.log(
    `Disk: table ${mb(disk.table)}, indexes ${mb(disk.indexes)}, in all ${mb(disk.table + disk.indexes)} = ${((disk.table + disk.indexes) / disk.csv).toFixed(2)} × the raw CSV (${mb(disk.csv)})`,
  );
  const siteIds = await siteIdsOf(database, loaded.site);
  if (args['ssd-planner']) {
    const name = new URL(recordsUrl).pathname.slice(1);
    await database.db.execute(sql.raw(`alter database "${name}" set random_page_cost = 1.1`));
    // The server's connections take it when they open: a restart.
    await server.stop();
    server = await startBuiltServer({ ...env, DATABASE_URL: recordsUrl });
    console.log('The records database plans with random_page_cost = 1.1 (SSD)');
  }
  if (args['only-policies']) {
    await withPolicy(server.base, database, loaded.sample, siteIds);
    await database.close();
    return server.stop();
  }
  // A restart: the server's memory from here on is what the mix costs, not the load.
  await server.stop();
  server = await startBuiltServer({ ...env, DATABASE_URL: recordsUrl });
  const { jwt } = await signInThroughApi(server.base, 'viewer', 'viewer123');

  const single = await slowestKinds(server.base, jwt, siteIds);
  console.log(
    `\nOne at a time, 300 pages of the mix: p50 ${ms(
      percentile(
        single.map((t) => t.ms),
        50,
      ),
    )}   p99 ${ms(
      percentile(
        single.map((t) => t.ms),
        99,
      ),
    )}`,
  );
  for (const t of single.slice(-5).reverse())
    console.log(`    ${ms(t.ms)}  ${decodeURIComponent(t.path)}`);

  await driveMix(server.base, jwt, siteIds, 5);
  const mixed = await driveMix(server.base, jwt, siteIds, DURATION_S);
  reportApi(`\nThe mix through the API, ${CONNECTIONS} connections, ${DURATION_S} s:`, mixed);
  const resident = server.residentMegabytes();
  await withPolicy(server.base, database, loaded.sample, siteIds);
  await convert(server.base, loaded.sample);
  await server.stop();

  const direct = await runDirect(recordsUrl, siteIds, 10);
  console.log('The same mix straight to the database, in-process (10 at a time, 10 s):');
  console.log(
    `  requests/s ${Math.round(direct.length / 10)}   p50 ${ms(percentile(direct, 50))}   p99 ${ms(percentile(direct, 99))}`,
  );
  console.log(
    `  the API reaches ${((mixed.requests.average / (direct.length / 10)) * 100).toFixed(0)} % of it`,
  );
  await database.close();

  // The same server on 1,000 records: what it holds whatever the records.
  const smallUrl = await siblingDatabase(url, '_records_small', { fresh: true });
  const small = await startBuiltServer({ ...env, DATABASE_URL: smallUrl });
  const smallDatabase = openPostgres(smallUrl);
  const smallLoaded = await load(small.base, smallDatabase, SMALL_RECORDS);
  const smallSites = await siteIdsOf(smallDatabase, smallLoaded.site);
  await smallDatabase.close();
  await small.stop();
  const smallServer = await startBuiltServer({ ...env, DATABASE_URL: smallUrl });
  const smallJwt = (await signInThroughApi(smallServer.base, 'viewer', 'viewer123')).jwt;
  await driveMix(smallServer.base, smallJwt, smallSites, 10);
  console.log(
    `\nThe server's memory: ${Math.round(resident)} MB resident after the mix at ${RECORDS} records, ${Math.round(smallServer.residentMegabytes())} MB after 10 s of it at ${SMALL_RECORDS}`,
  );
  await smallServer.stop();
  await pgliteRun();
}

/**
 * The embedded PGlite at PGLITE_RECORDS: the entities defined through the server, the records
 * loaded while it is stopped (PGlite is one process's), then 300 pages of the mix through it.
 */
async function pgliteRun() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-records-'));
  const env = { SEED_JOBS: '0', ADMIN_PASSWORD, DATA_DIR: dataDir };
  try {
    let server = await startBuiltServer(env);
    const { site, sample } = await define(server.base);
    await server.stop();
    const database = fromPglite(
      await PGlite.create(join(dataDir, 'pglite'), { extensions: pgliteExtensions }),
    );
    console.log(`\nPGlite: loading ${PGLITE_RECORDS} records…`);
    const loaded = await fill(database, site, sample, PGLITE_RECORDS);
    const siteIds = await siteIdsOf(database, site);
    await database.close();
    console.log(`  loaded in ${loaded.seconds.toFixed(0)} s`);
    server = await startBuiltServer(env);
    const { jwt } = await signInThroughApi(server.base, 'viewer', 'viewer123');
    await slowestKinds(server.base, jwt, siteIds);
    const pages = await slowestKinds(server.base, jwt, siteIds);
    const times = pages.map((t) => t.ms);
    console.log(
      `  one at a time, 300 pages of the mix (warm): p50 ${ms(percentile(times, 50))}   p99 ${ms(percentile(times, 99))}   slowest ${ms(times.at(-1)!)}; ${times.filter((t) => t >= 200).length} of 300 took 200 ms or more`,
    );
    for (const t of pages.slice(-5).reverse())
      console.log(`    ${ms(t.ms)}  ${decodeURIComponent(t.path)}`);
    await server.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
