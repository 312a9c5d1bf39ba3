/**
 * `npm run seed:jobs -- --count N`: loads N more generated jobs into the configured database
 * (DATABASE_URL, or the embedded one in DATA_DIR while no server holds it), in bulk, with a
 * progress bar. Job positions continue after the last one loaded, so the data stays the
 * deterministic sequence J-0000001, J-0000002, …
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { lastJobNumber, loadJobs, settleJobSearch } from '../server/modules/jobs/jobs.service';

const { values } = parseArgs({ options: { count: { type: 'string', default: '1000' } } });
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1) {
  console.error('--count must be a whole number of jobs, 1 or more');
  process.exit(1);
}

function progressBar(done: number, started: number) {
  const width = 30;
  const filled = Math.round((done / count) * width);
  const seconds = (Date.now() - started) / 1000;
  const rate = done / Math.max(seconds, 0.001);
  const eta = Math.round((count - done) / Math.max(rate, 1));
  process.stderr.write(
    `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${count} jobs, ${Math.round(rate)}/s, ${eta} s left   `,
  );
}

async function main() {
  const database = await openDatabase(loadConfig());
  try {
    await database.migrate();
    const first = (await lastJobNumber(database.db)) + 1;
    const started = Date.now();
    await loadJobs(database.db, first, first + count - 1, (done) => progressBar(done, started));
    await settleJobSearch(database.db);
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write('\n');
    console.log(
      `Loaded ${count} jobs (J-${String(first).padStart(7, '0')} on) into ${database.kind} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} jobs/s)`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
