/**
 * `npm run bench:import`: 1,000,000 records (`--records N`) imported from a CSV file through
 * the API, as the records screen sends one: a code, two typed columns (a whole number and a
 * number) and a relation given by the related site's display value (1,000 sites). A dry run
 * first (every row checked, nothing kept), then the import itself. For each: the time, rows
 * per second, and the server's resident memory idle and at its peak (sampled every 50 ms).
 *
 * BENCH_DATABASE_URL names a PostgreSQL database whose sibling `<name>_import` the benchmark
 * fills afresh.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { ImportLine, ImportReport } from '../common/schemas/imports';
import { openPostgres } from '../server/db/client';
import { tableOf } from '../server/modules/records/recordTable';
import { siblingDatabase, signInThroughApi, startBuiltServer, watchMemory } from './builtServer';
import { defineEntity } from './recordsData';

const { values: args } = parseArgs({ options: { records: { type: 'string' } } });
const RECORDS = Number(args.records ?? 1_000_000);
const SITES = 1_000;
const ADMIN_PASSWORD = 'bench-admin-password';

type Server = Awaited<ReturnType<typeof startBuiltServer>>;

/** Defines the entities through the API, as an admin would. */
async function define(base: string, jwt: string) {
  const defined = (body: object) => defineEntity(base, jwt, body);
  const site = await defined({ name: 'ImportSite', fields: [{ name: 'code' }] });
  await defined({
    name: 'ImportSample',
    fields: [
      { name: 'code', required: true },
      { name: 'quantity', type: 'integer' },
      { name: 'weight', type: 'number' },
      { name: 'site', type: 'relation', target: 'ImportSite' },
    ],
  });
  return site;
}

/** The CSV file: a header, then RECORDS rows. */
function writeCsv(file: string) {
  const lines = ['code,quantity,weight,site'];
  for (let i = 1; i <= RECORDS; i++)
    lines.push(`C-${i},${(i * 7919) % 1000},${((i * 104729) % 100000) / 100},S${1 + (i % SITES)}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/** Posts the file to the import, reading its progress, while watching the server's memory. */
async function timeImport(server: Server, jwt: string, body: Buffer, dryRun: boolean) {
  const memory = watchMemory(server);
  const started = performance.now();
  const answer = await fetch(
    `${server.base}/api/entity-records/ImportSample/import?dryRun=${dryRun}&mode=all`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${jwt}`, 'content-type': 'text/csv' },
      body: new Uint8Array(body),
    },
  );
  if (!answer.ok) throw new Error(`import: ${answer.status} ${await answer.text()}`);
  const lines = (await answer.text()).trim().split('\n');
  const seconds = (performance.now() - started) / 1000;
  const { idle, peak } = memory.stop();
  const last = JSON.parse(lines.at(-1)!) as ImportLine;
  if (last.type !== 'report') throw new Error(`import: ${JSON.stringify(last)}`);
  return { report: last.report, progressLines: lines.length - 1, seconds, idle, peak };
}

function print(title: string, run: Awaited<ReturnType<typeof timeImport>>) {
  const { report } = run;
  const done = (r: ImportReport) =>
    `${r.rows.toLocaleString()} rows, ${r.created.toLocaleString()} added, ${r.refused} refused`;
  console.log(
    `${title}: ${done(report)} in ${run.seconds.toFixed(1)} s = ` +
      `${Math.round(report.rows / run.seconds).toLocaleString()} rows/s (${run.progressLines} progress lines); ` +
      `server memory idle ${run.idle.toFixed(0)} MB, peak ${run.peak.toFixed(0)} MB ` +
      `(+${(run.peak - run.idle).toFixed(0)} MB)`,
  );
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill');
  const importUrl = await siblingDatabase(url, '_import', { fresh: true });
  const env = { SEED_JOBS: '0', ADMIN_PASSWORD, DATABASE_URL: importUrl };
  let server = await startBuiltServer(env);
  const admin = await signInThroughApi(server.base, 'admin', ADMIN_PASSWORD);
  const site = await define(server.base, admin.jwt);
  const database = openPostgres(importUrl);
  await database.db.execute(
    sql.raw(`insert into "${tableOf(site._id)}" (f_code)
      select 'S' || g from generate_series(1, ${SITES}) g`),
  );
  await database.close();
  const file = join(tmpdir(), `bench-import-${process.pid}.csv`);
  writeCsv(file);
  const body = readFileSync(file);
  rmSync(file);
  console.log(
    `${RECORDS.toLocaleString()} rows, ${(body.length / 1e6).toFixed(0)} MB of CSV: ` +
      `code, quantity (integer), weight (number), site (relation by display value)`,
  );
  // A restart: the memory measured is the import's, not the setup's.
  await server.stop();
  server = await startBuiltServer(env);
  const { jwt } = await signInThroughApi(server.base, 'contributor', 'contributor123');
  print('dry run', await timeImport(server, jwt, body, true));
  print('import', await timeImport(server, jwt, body, false));
  await server.stop();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
