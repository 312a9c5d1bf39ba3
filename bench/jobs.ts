/**
 * `npm run bench:jobs [-- --jobs N]`: the job list under load on PostgreSQL, at 1,000,000
 * jobs unless told otherwise. Loads jobs into BENCH_DATABASE_URL until there are N (timing
 * the insert and the search's one-pass build apart), prints the disk the jobs and the search
 * take, starts the built server on it and drives it with autocannon (50 connections, 30 s, a
 * fixed seeded mix of requests), once uncompressed and once asking for compressed answers as
 * a browser does; then runs the same mix through the same service functions in this process
 * (the same queries straight to the database, without HTTP), so the API's share shows.
 * Last, the same server on a database of 10,000 jobs, for its memory and start-up there.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { JOB_SORT_COLUMNS, type JobListQuery } from '../common/schemas/jobs';
import { type Database, openPostgres, queryRows } from '../server/db/client';
import { JOB_CONCLUSIONS, JOB_STATUSES, VOCABULARY } from '../server/modules/jobs/jobGenerator';
import {
  getJob,
  lastJobNumber,
  listJobs,
  loadJobs,
  settleJobSearch,
} from '../server/modules/jobs/jobs.service';
import { signInThroughApi, startBuiltServer } from './builtServer';
import { percentile, prng, reportApi } from './measure';

const { values: args } = parseArgs({ options: { jobs: { type: 'string' } } });
const TARGET_JOBS = Number(args.jobs ?? process.env.BENCH_JOBS ?? 1_000_000);
/** The small database the server's memory and start-up are compared with. */
const SMALL_JOBS = 10_000;
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 30);

type BenchRequest = { kind: 'list'; query: JobListQuery } | { kind: 'job'; id: string };

/** The mix: 40 % unfiltered pages, 40 % word filters, 10 % number prefixes, 10 % details. */
function mix(random: () => number, jobIds: string[]): () => BenchRequest {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const sort = () => ({
    sortColumn: pick(JOB_SORT_COLUMNS),
    sortOrder: pick(['asc', 'desc'] as const),
  });
  const terms = [...VOCABULARY, ...JOB_STATUSES, ...JOB_CONCLUSIONS];
  return () => {
    const roll = random();
    if (roll < 0.4) {
      return {
        kind: 'list',
        query: { filter: '', page: 1 + Math.floor(random() * 20), perPage: 50, ...sort() },
      };
    }
    if (roll < 0.8) {
      return {
        kind: 'list',
        query: { filter: pick(terms), page: 1 + Math.floor(random() * 5), perPage: 50, ...sort() },
      };
    }
    if (roll < 0.9) {
      const prefix = `J-${String(Math.floor(random() * 1000)).padStart(4, '0')}`;
      return { kind: 'list', query: { filter: prefix, page: 1, perPage: 50, ...sort() } };
    }
    return { kind: 'job', id: pick(jobIds) };
  };
}

const toPath = (request: BenchRequest) =>
  request.kind === 'job'
    ? `/api/LIMS/jobs/${request.id}`
    : `/api/LIMS/jobs?${new URLSearchParams(Object.entries(request.query).map(([k, v]) => [k, String(v)]))}`;

/** Loads generated jobs until there are `target`; how long inserting and building took. */
async function fill(database: Database, target: number) {
  const loaded = await lastJobNumber(database.db);
  if (loaded >= target) return undefined;
  console.log(`Loading jobs ${loaded + 1} to ${target}…`);
  const started = performance.now();
  let inserted = started;
  await loadJobs(database.db, loaded + 1, target, (done) => {
    inserted = performance.now();
    if (done % 500_000 === 0)
      console.log(`  ${done} jobs, ${Math.round(done / ((inserted - started) / 1000))}/s`);
  });
  const built = performance.now();
  await settleJobSearch(database.db);
  const settled = performance.now();
  return {
    insertSeconds: (inserted - started) / 1000,
    buildSeconds: (built - inserted) / 1000,
    vacuumSeconds: (settled - built) / 1000,
  };
}

/** The database of `url` with another name on the same server, created when missing. */
async function sibling(url: string, suffix: string): Promise<string> {
  const other = new URL(url);
  other.pathname = `${other.pathname}${suffix}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = other.pathname.slice(1);
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (!rowCount) await admin.query(`create database "${name}"`);
  await admin.end();
  return other.href;
}

async function diskUse(database: Database) {
  const [sizes] = await queryRows<Record<string, number>>(
    database.db,
    sql`select
      pg_relation_size('jobs')::float8 as "jobs table",
      (pg_indexes_size('jobs') - pg_relation_size('jobs_friendly_number_trgm_index'))::float8
        as "jobs indexes (number, sorts)",
      pg_total_relation_size('job_details')::float8 as "job details (samples)",
      pg_relation_size('jobs_friendly_number_trgm_index')::float8 as "search: number trigrams",
      pg_total_relation_size('job_terms')::float8 as "search: terms",
      pg_total_relation_size('job_keys')::float8 as "search: sort keys",
      pg_relation_size('job_postings')::float8 as "search: postings",
      pg_indexes_size('job_postings')::float8 as "search: postings' indexes"`,
  );
  return sizes!;
}

/** Drives the built server with the mix; its figures, and the server's memory after. */
async function driveServer(url: string, jobIds: string[], seconds: number, twice: boolean) {
  const server = await startBuiltServer({ DATABASE_URL: url, SEED_JOBS: '0' });
  const { jwt } = await signInThroughApi(server.base, 'viewer', 'viewer123');
  const drive = (duration: number, acceptEncoding?: string) => {
    const nextRequest = mix(prng(42), jobIds);
    return autocannon({
      url: server.base,
      connections: CONNECTIONS,
      duration,
      headers: {
        authorization: `Bearer ${jwt}`,
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
      requests: [{ setupRequest: (request) => ({ ...request, path: toPath(nextRequest()) }) }],
    });
  };
  // A short warm-up first, so no run pays for a cold cache.
  await drive(5);
  const uncompressed = await drive(seconds);
  const compressed = twice ? await drive(seconds, BROWSER_ACCEPT_ENCODING) : undefined;
  const residentMegabytes = server.residentMegabytes();
  await server.stop();
  return { readySeconds: server.readySeconds, uncompressed, compressed, residentMegabytes };
}

const sampleJobIds = async (database: Database) =>
  (
    await queryRows<{ id: string }>(
      database.db,
      sql`select id from jobs tablesample system (1) limit 2000`,
    )
  ).map((row) => row.id);

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill');
  const database = openPostgres(url);
  await database.migrate();
  const load = await fill(database, TARGET_JOBS);
  const disk = await diskUse(database);
  const jobIds = await sampleJobIds(database);

  console.log(
    `\nautocannon: ${CONNECTIONS} connections, ${DURATION_S} s, against ${TARGET_JOBS} jobs`,
  );
  const big = await driveServer(url, jobIds, DURATION_S, true);

  // The same mix in this process, through the same service functions: the same queries
  // straight to the database, without HTTP, auth, validation or serialising.
  const databaseAlone = await runDirect(mix(prng(42), jobIds), (query) =>
    listJobs(database.db, query),
  );
  await database.close();

  // The same server on 10,000 jobs: what it holds whatever the job count.
  const smallUrl = await sibling(url, `_${SMALL_JOBS}`);
  const small = openPostgres(smallUrl);
  await small.migrate();
  await fill(small, SMALL_JOBS);
  const smallIds = await sampleJobIds(small);
  await small.close();
  const smallRun = await driveServer(smallUrl, smallIds, 10, false);

  if (load) {
    console.log(
      `\nLoaded ${TARGET_JOBS} jobs: inserted in ${load.insertSeconds.toFixed(0)} s, search built in ${load.buildSeconds.toFixed(0)} s, vacuumed in ${load.vacuumSeconds.toFixed(0)} s (${((load.insertSeconds + load.buildSeconds + load.vacuumSeconds) / 60).toFixed(1)} min in all)`,
    );
  }
  console.log(`\nDisk at ${TARGET_JOBS} jobs:`);
  const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  for (const [part, bytes] of Object.entries(disk)) console.log(`  ${part}: ${megabytes(bytes)}`);
  const search = Object.entries(disk)
    .filter(([part]) => part.startsWith('search'))
    .reduce((sum, [, bytes]) => sum + bytes, 0);
  console.log(
    `  the search in all: ${megabytes(search)}, ${(search / disk['jobs table']!).toFixed(1)} × the jobs table`,
  );

  reportApi(
    '\nThrough the API (HTTP, auth, permission check, validation, JSON), uncompressed:',
    big.uncompressed,
  );
  reportApi(
    `Through the API, answers compressed (Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}):`,
    big.compressed!,
  );
  report(
    `The same queries straight to the database, in-process (${DIRECT_CONCURRENCY} at a time, ${DIRECT_SECONDS} s):`,
    databaseAlone,
  );
  console.log(
    `  the API reaches ${((big.uncompressed.requests.average / (databaseAlone.length / DIRECT_SECONDS)) * 100).toFixed(0)} % of it`,
  );
  console.log(
    `\nThe server: ready in ${big.readySeconds.toFixed(1)} s and ${Math.round(big.residentMegabytes)} MB resident after the runs at ${TARGET_JOBS} jobs; ready in ${smallRun.readySeconds.toFixed(1)} s and ${Math.round(smallRun.residentMegabytes)} MB after 10 s of the mix at ${SMALL_JOBS} jobs`,
  );
}

/** What Chromium sends. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** As many at a time as the API's database pool holds connections. */
const DIRECT_CONCURRENCY = 10;
const DIRECT_SECONDS = 10;

/** Runs the mix for DIRECT_SECONDS, DIRECT_CONCURRENCY at a time; the sorted latencies (ms). */
async function runDirect(
  next: () => BenchRequest,
  list: (query: JobListQuery) => Promise<unknown>,
): Promise<number[]> {
  const database = openPostgres(process.env.BENCH_DATABASE_URL!);
  const latencies: number[] = [];
  const started = Date.now();
  await Promise.all(
    Array.from({ length: DIRECT_CONCURRENCY }, async () => {
      while (Date.now() - started < DIRECT_SECONDS * 1000) {
        const request = next();
        const t0 = performance.now();
        if (request.kind === 'job') await getJob(database.db, request.id);
        else await list(request.query);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  await database.close();
  return latencies.sort((a, b) => a - b);
}

function report(title: string, latencies: number[]) {
  console.log(title);
  console.log(`  requests/s ${Math.round(latencies.length / DIRECT_SECONDS)}`);
  console.log(
    `  latency p50 ${percentile(latencies, 50).toFixed(1)} ms   p97.5 ${percentile(latencies, 97.5).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
