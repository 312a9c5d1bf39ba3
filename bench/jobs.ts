/**
 * `npm run bench:jobs`: the job list under load, at 1,000,000 jobs on PostgreSQL.
 * Loads jobs into BENCH_DATABASE_URL until there are 1,000,000, starts the built server on
 * it, drives it with autocannon (50 connections, 30 s, a fixed seeded mix of requests), once
 * uncompressed and once asking for compressed answers as a browser does, then
 * runs the same mix in-process through the service functions, with the search index (so
 * the API's overhead shows) and on the database alone (so the index's gain shows).
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { JOB_SORT_COLUMNS, type JobListQuery } from '../common/schemas/jobs';
import { openPostgres, queryRows } from '../server/db/client';
import { JOB_CONCLUSIONS, JOB_STATUSES, VOCABULARY } from '../server/modules/jobs/jobGenerator';
import { JobSearchIndex } from '../server/modules/jobs/jobSearchIndex';
import { getJob, lastJobNumber, listJobs, loadJobs } from '../server/modules/jobs/jobs.service';
import { signInThroughApi, startBuiltServer } from './builtServer';
import { percentile, prng, reportApi } from './measure';

const TARGET_JOBS = Number(process.env.BENCH_JOBS ?? 1_000_000);
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

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill');
  const database = openPostgres(url);
  await database.migrate();

  const loaded = await lastJobNumber(database.db);
  if (loaded < TARGET_JOBS) {
    console.log(`Loading jobs ${loaded + 1} to ${TARGET_JOBS}…`);
    const started = Date.now();
    await loadJobs(database.db, loaded + 1, TARGET_JOBS, (done) => {
      if (done % 50_000 === 0)
        process.stdout.write(
          `  ${done} jobs, ${Math.round(done / ((Date.now() - started) / 1000))}/s\n`,
        );
    });
    console.log(
      `Loaded ${TARGET_JOBS - loaded} jobs in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  const jobIds = (
    await queryRows<{ id: string }>(
      database.db,
      sql`select id from jobs tablesample system (1) limit 2000`,
    )
  ).map((row) => row.id);

  const server = await startBuiltServer({ DATABASE_URL: url, SEED_JOBS: '0' });
  const base = server.base;
  console.log(
    `The server was ready in ${server.readySeconds.toFixed(1)} s (it builds its search index first)`,
  );
  const { jwt } = await signInThroughApi(base, 'viewer', 'viewer123');

  // The same seeded mix twice: as a browser asks (its answers compressed) and uncompressed,
  // so the cost of compressing the JSON answers shows. A short warm-up first, so neither run
  // pays for a cold cache.
  const drive = (seconds: number, acceptEncoding?: string) => {
    const nextRequest = mix(prng(42), jobIds);
    return autocannon({
      url: base,
      connections: CONNECTIONS,
      duration: seconds,
      headers: {
        authorization: `Bearer ${jwt}`,
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
      },
      requests: [{ setupRequest: (request) => ({ ...request, path: toPath(nextRequest()) }) }],
    });
  };
  console.log(
    `\nautocannon: ${CONNECTIONS} connections, ${DURATION_S} s, against ${TARGET_JOBS} jobs`,
  );
  await drive(5);
  const uncompressed = await drive(DURATION_S);
  const compressed = await drive(DURATION_S, BROWSER_ACCEPT_ENCODING);
  // The server's whole resident memory, its search index included.
  const serverMegabytes = server.residentMegabytes();
  await server.stop();

  // The same mix in this process, through the same service functions: with the search
  // index (what the API does, without HTTP), then with the database alone.
  const started = performance.now();
  const index = await JobSearchIndex.build(database.db);
  const buildSeconds = (performance.now() - started) / 1000;
  const withIndex = await runDirect(mix(prng(42), jobIds), (query) =>
    listJobs(database.db, query, index),
  );
  const databaseAlone = await runDirect(mix(prng(42), jobIds), (query) =>
    listJobs(database.db, query),
  );
  await database.close();

  reportApi(
    '\nThrough the API (HTTP, auth, permission check, validation, JSON), uncompressed:',
    uncompressed,
  );
  reportApi(
    `Through the API, answers compressed (Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}):`,
    compressed,
  );
  const change = compressed.requests.average / uncompressed.requests.average - 1;
  const bytesPerAnswer = (result: autocannon.Result) =>
    result.throughput.total / result.requests.total;
  console.log(
    `Compression: ${(change * 100).toFixed(1)} % requests/s, ${Math.round(bytesPerAnswer(uncompressed))} → ${Math.round(bytesPerAnswer(compressed))} bytes per answer`,
  );
  console.log(
    `The server's memory after the run: ${Math.round(serverMegabytes)} MB resident; its search index builds in ${buildSeconds.toFixed(1)} s`,
  );
  report(
    `The same mix in-process (${DIRECT_CONCURRENCY} concurrent, ${DIRECT_SECONDS} s):`,
    withIndex,
  );
  report('The same mix on the database alone, without the index:', databaseAlone);
}

/** What Chromium sends. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

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
