/**
 * `npm run bench:export`: exports as the server streams them, read whole by a client:
 * - the jobs of one word's filter at 10,000,000 jobs (`--jobs N`), in the list's order, and
 *   all of them, in the sibling database `<name>_export_jobs` (loaded once, kept between runs:
 *   loading 10M takes ~30 min);
 * - 1,000,000 records (`--records N`) of the records benchmark's entity, sorted by a field,
 *   in `<name>_export_records` (loaded afresh each run).
 * For each, CSV: the time to the first bytes and to the first row, the rows and the time in
 * all, rows/s, and the server's resident memory idle and at its peak during the export
 * (sampled every 50 ms).
 *
 * BENCH_DATABASE_URL names a PostgreSQL database whose siblings the benchmark may fill.
 * `--only jobs` or `--only records` runs one half.
 */
import { parseArgs } from 'node:util';
import { openPostgres } from '../server/db/client';
import { lastJobNumber, loadJobs, settleJobSearch } from '../server/modules/jobs/jobs.service';
import { siblingDatabase, signInThroughApi, startBuiltServer, watchMemory } from './builtServer';
import { ADMIN_PASSWORD, define, fill } from './recordsData';

const { values: args } = parseArgs({
  options: { jobs: { type: 'string' }, records: { type: 'string' }, only: { type: 'string' } },
});
const JOBS = Number(args.jobs ?? 10_000_000);
const RECORDS = Number(args.records ?? 1_000_000);
const env = { SEED_JOBS: '0', ADMIN_PASSWORD };
/** Jobs loaded per transaction. */
const LOAD_STEP = 500_000;

type Server = Awaited<ReturnType<typeof startBuiltServer>>;

/** Reads the export at `path` whole, timing it and watching the server's memory. */
async function timeExport(server: Server, jwt: string, path: string) {
  const memory = watchMemory(server);
  const started = performance.now();
  const answer = await fetch(`${server.base}${path}`, {
    headers: { authorization: `Bearer ${jwt}` },
  });
  if (!answer.ok || !answer.body)
    throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  let firstBytes: number | undefined;
  let firstRow: number | undefined;
  let lines = 0;
  let bytes = 0;
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    const now = performance.now();
    firstBytes ??= now - started;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
    // The header is the first line: the first row has come once a second line has.
    if (firstRow === undefined && lines >= 2) firstRow = now - started;
  }
  const seconds = (performance.now() - started) / 1000;
  const { idle, peak } = memory.stop();
  const rows = lines - 1;
  return { firstBytes: firstBytes ?? 0, firstRow: firstRow ?? 0, rows, seconds, bytes, idle, peak };
}

function report(title: string, run: Awaited<ReturnType<typeof timeExport>>) {
  console.log(
    `${title}\n  first bytes ${run.firstBytes.toFixed(0)} ms, first row ${run.firstRow.toFixed(0)} ms; ` +
      `${run.rows.toLocaleString()} rows (${(run.bytes / 1e6).toFixed(0)} MB) in ${run.seconds.toFixed(1)} s = ` +
      `${Math.round(run.rows / run.seconds).toLocaleString()} rows/s; server memory idle ` +
      `${run.idle.toFixed(0)} MB, peak ${run.peak.toFixed(0)} MB (+${(run.peak - run.idle).toFixed(0)} MB)`,
  );
}

async function jobsRun(url: string) {
  const jobsUrl = await siblingDatabase(url, '_export_jobs');
  // The first start migrates the database; the jobs are then loaded with the product's loader.
  let server = await startBuiltServer({ ...env, DATABASE_URL: jobsUrl });
  await server.stop();
  const database = openPostgres(jobsUrl);
  const loaded = await lastJobNumber(database.db);
  if (loaded < JOBS) {
    console.log(`Loading jobs ${loaded + 1} to ${JOBS} (kept for the next run)…`);
    const started = performance.now();
    // A committed step at a time: a load stopped halfway keeps what it loaded.
    for (let from = loaded + 1; from <= JOBS; from += LOAD_STEP) {
      const to = Math.min(JOBS, from + LOAD_STEP - 1);
      await loadJobs(database.db, from, to);
      const minutes = (performance.now() - started) / 60_000;
      console.log(`  ${to.toLocaleString()} jobs (${minutes.toFixed(1)} min)`);
    }
    await settleJobSearch(database.db);
    console.log(`  loaded in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  }
  await database.close();
  server = await startBuiltServer({ ...env, DATABASE_URL: jobsUrl });
  const { jwt } = await signInThroughApi(server.base, 'viewer', 'viewer123');
  const first = await fetch(`${server.base}/api/LIMS/jobs?perPage=20`, {
    headers: { authorization: `Bearer ${jwt}` },
  });
  const { jobs } = (await first.json()) as { jobs: { description: string }[] };
  // One word of the vocabulary: the second word of the first job's description.
  const word = jobs[0]!.description.split(' ')[1]!.toLowerCase();
  const exports = [
    [`jobs filtered by "${word}", by number`, `filter=${word}`],
    [
      `jobs filtered by "${word}", by status descending`,
      `filter=${word}&sortColumn=status&sortOrder=desc`,
    ],
    ['all jobs, by number', ''],
  ];
  for (const [title, query] of exports) {
    const run = await timeExport(server, jwt, `/api/LIMS/jobs/export?${query}&format=csv`);
    report(`${JOBS.toLocaleString()} ${title}:`, run);
  }
  await server.stop();
}

async function recordsRun(url: string) {
  const recordsUrl = await siblingDatabase(url, '_export_records', { fresh: true });
  let server = await startBuiltServer({ ...env, DATABASE_URL: recordsUrl });
  const database = openPostgres(recordsUrl);
  console.log(`\nLoading ${RECORDS.toLocaleString()} records…`);
  const { site, sample } = await define(server.base);
  await fill(database, site, sample, RECORDS);
  await database.close();
  // A restart: the memory measured is the export's, not the load's.
  await server.stop();
  server = await startBuiltServer({ ...env, DATABASE_URL: recordsUrl });
  const { jwt } = await signInThroughApi(server.base, 'viewer', 'viewer123');
  for (const [title, query] of [
    ['by quantity descending (ties by id), relations by their display value', 'sort=quantity:desc'],
    ['in the order they were added', ''],
    ['of the quick search "amber", by code', 'q=amber&sort=code:asc'],
  ]) {
    const run = await timeExport(server, jwt, `/api/entity-records/BenchSample/export?${query}`);
    report(`${RECORDS.toLocaleString()} records ${title}:`, run);
  }
  await server.stop();
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill');
  if (args.only !== 'records') await jobsRun(url);
  if (args.only !== 'jobs') await recordsRun(url);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
