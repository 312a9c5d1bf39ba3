/**
 * `npm run bench:jobs [-- --jobs N] [-- --data generated,prose]`: the job list on PostgreSQL,
 * at 1,000,000 jobs unless told otherwise, on two data sets: the generator's descriptions
 * (a vocabulary of ~3,000 words) and real English prose (bench/proseJobs.ts), each in a
 * database of its own (BENCH_DATABASE_URL, and the same name + `_prose`). For each: loads
 * jobs until there are N, prints the disk the jobs and the search take and what plain-SQL
 * writes of 1,000 jobs cost, then starts the built server on it and measures
 * - single requests: every kind of filter a person types (1 to 20 characters, 1 to 3 words,
 *   fragments inside words), in every sort order, both directions, pages 1 to 20, one at a time;
 * - estimated totals against exact counts;
 * - typing: 50 people typing 20 filters character by character, each prefix one request
 *   after the grid's debounce, while another client's plain requests are timed beside them;
 * - the mix of before (autocannon, 50 connections, 30 s): 40 % unfiltered pages, 40 % a word
 *   or a status, 10 % a job-number prefix, 10 % a job's details; and the same mix through
 *   the service functions in this process, so the API's share shows.
 * Last, the same server on a database of 10,000 jobs, for its memory and start-up there.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { JOB_PAGE_SIZES } from '../common/constants';
import { JOB_SORT_COLUMNS, type JobList, type JobListQuery } from '../common/schemas/jobs';
import { type Database, openPostgres, queryRows } from '../server/db/client';
import { SAMPLED_HASHES_BELOW } from '../server/db/schema/jobs';
import {
  JOB_CONCLUSIONS,
  JOB_STATUSES,
  VOCABULARY,
  generateJob,
} from '../server/modules/jobs/jobGenerator';
import {
  getJob,
  lastJobNumber,
  listJobs,
  loadJobs,
  settleJobSearch,
} from '../server/modules/jobs/jobs.service';
import { siblingDatabase, signInThroughApi, startBuiltServer } from './builtServer';
import { ms, percentile, prng, reportApi } from './measure';
import { corpusWord, corpusWords, generateProseJob } from './proseJobs';

const { values: args } = parseArgs({
  options: { jobs: { type: 'string' }, data: { type: 'string' } },
});
const TARGET_JOBS = Number(args.jobs ?? process.env.BENCH_JOBS ?? 1_000_000);
const DATA_SETS = (args.data ?? 'generated,prose').split(',') as DataSetName[];
/** The small database the server's memory and start-up are compared with. */
const SMALL_JOBS = 10_000;
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 30);
/** The job grid's debounce (src/features/jobs/JobsPage.tsx, FILTER_DELAY_MS). */
const GRID_DEBOUNCE_MS = 300;

type DataSetName = 'generated' | 'prose';

interface DataSet {
  generate: typeof generateJob;
  /** A word a person would filter by, drawn as the data holds them. */
  word: (random: () => number) => string;
  /** The 20 filters the typing benchmark types. */
  typed: string[];
}

const DATA: Record<DataSetName, DataSet> = {
  generated: {
    generate: generateJob,
    word: (random) => {
      const terms = [...VOCABULARY, ...JOB_STATUSES, ...JOB_CONCLUSIONS];
      return terms[Math.floor(random() * terms.length)]!.toLowerCase();
    },
    typed: [
      'water',
      'sample batch',
      'stability',
      'completed pass',
      'in progress',
      'urgent',
      'out of specification',
      'serum',
      'calibration',
      'j-00042',
      'retest',
      'plasma fail',
      'validation',
      'routine',
      'on hold',
      'capsule',
      'client audit',
      'screening',
      'cancelled',
      'potency',
    ],
  },
  prose: {
    generate: generateProseJob,
    word: corpusWord,
    typed: [
      'water',
      'the jury',
      'president',
      'church',
      'election',
      'said that',
      'new york',
      'government',
      'music',
      'school board',
      'kennedy',
      'science',
      'family',
      'atlanta',
      'completed pass',
      'in progress',
      'j-00042',
      'the united states',
      'report',
      'washington',
    ],
  },
};

type BenchRequest = { kind: 'list'; query: JobListQuery } | { kind: 'job'; id: string };

/** The mix: 40 % unfiltered pages, 40 % word filters, 10 % number prefixes, 10 % details. */
function mix(random: () => number, jobIds: string[], data: DataSet): () => BenchRequest {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const sort = () => ({
    sortColumn: pick(JOB_SORT_COLUMNS),
    sortOrder: pick(['asc', 'desc'] as const),
  });
  return () => {
    const roll = random();
    if (roll < 0.4) {
      return {
        kind: 'list',
        query: { filter: '', page: 1 + Math.floor(random() * 20), perPage: 50, ...sort() },
      };
    }
    if (roll < 0.8) {
      const filter =
        random() < 0.5 ? data.word(random) : pick([...JOB_STATUSES, ...JOB_CONCLUSIONS]);
      return {
        kind: 'list',
        query: { filter, page: 1 + Math.floor(random() * 5), perPage: 50, ...sort() },
      };
    }
    if (roll < 0.9) {
      const prefix = `J-${String(Math.floor(random() * 1000)).padStart(4, '0')}`;
      return { kind: 'list', query: { filter: prefix, page: 1, perPage: 50, ...sort() } };
    }
    return { kind: 'job', id: pick(jobIds) };
  };
}

const pathOf = (query: JobListQuery) =>
  `/api/LIMS/jobs?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;
const toPath = (request: BenchRequest) =>
  request.kind === 'job' ? `/api/LIMS/jobs/${request.id}` : pathOf(request.query);

/** Loads jobs until there are `target`; how long inserting and settling took. */
async function fill(database: Database, target: number, generate: typeof generateJob) {
  const loaded = await lastJobNumber(database.db);
  if (loaded >= target) return undefined;
  console.log(`Loading jobs ${loaded + 1} to ${target}…`);
  const started = performance.now();
  await loadJobs(
    database.db,
    loaded + 1,
    target,
    (done) => {
      if (done % 500_000 === 0)
        console.log(
          `  ${done} jobs, ${Math.round(done / ((performance.now() - started) / 1000))}/s`,
        );
    },
    { generate, rebuildSearch: true },
  );
  const inserted = performance.now();
  await settleJobSearch(database.db);
  return {
    insertSeconds: (inserted - started) / 1000,
    vacuumSeconds: (performance.now() - inserted) / 1000,
  };
}

/**
 * The disk of the jobs and of the search: the `indexed_text` column, the trigram, grams,
 * sample and words indexes, the dictionary of words, the long words and the numbers'
 * characters.
 */
async function diskUse(database: Database) {
  const [sizes] = await queryRows<Record<string, number>>(
    database.db,
    sql`select
      pg_relation_size('jobs')::float8 as "jobs table, with the search column",
      (select sum(pg_column_size(indexed_text)) from jobs)::float8 as "search: the indexed text column",
      pg_relation_size('jobs_indexed_text_trgm_index')::float8 as "search: trigram index",
      pg_relation_size('jobs_indexed_text_grams_index')::float8 as "search: grams index",
      pg_relation_size('jobs_sample_index')::float8 as "search: sample index",
      pg_relation_size('jobs_description_words_index')::float8 as "search: words index",
      (pg_total_relation_size('job_words') + pg_total_relation_size('job_long_words')
        + pg_total_relation_size('job_number_characters'))::float8
        as "search: the dictionary of words, the long words, the numbers' characters",
      (pg_indexes_size('jobs') - pg_relation_size('jobs_indexed_text_trgm_index')
        - pg_relation_size('jobs_indexed_text_grams_index')
        - pg_relation_size('jobs_sample_index')
        - pg_relation_size('jobs_description_words_index'))::float8 as "jobs indexes (number, sorts)",
      pg_total_relation_size('job_details')::float8 as "job details (samples)"`,
  );
  return sizes!;
}

/**
 * What plain-SQL writes cost, the search kept current: one statement each inserting,
 * updating (description and status, then the status alone) and deleting 1,000 jobs (copies
 * of sampled jobs' text under new numbers).
 */
async function measureWrites(database: Database) {
  const time = async (statement: ReturnType<typeof sql>) => {
    const started = performance.now();
    await database.db.execute(statement);
    return (performance.now() - started) / 1000;
  };
  const range = sql`friendly_number >= 'W-' and friendly_number < 'W.'`;
  await database.db.execute(sql`delete from jobs where ${range}`);
  return {
    insert: await time(sql`
      insert into jobs (friendly_number, status, conclusion, description)
      select 'W-' || row_number() over (), status, conclusion,
        description || ' ' || gen_random_uuid()
      from (select * from jobs where uuid_hash(id) < ${sql.raw(String(SAMPLED_HASHES_BELOW))}
        order by uuid_hash(id) limit 1000) as s`),
    update: await time(sql`
      update jobs set description = description || ' revised', status = 'On hold' where ${range}`),
    // What an instrument reporting progress writes: no description changes.
    status: await time(sql`update jobs set status = 'Completed' where ${range}`),
    delete: await time(sql`delete from jobs where ${range}`),
  };
}

/** Filters a person types: 1 to 3 words, each a whole word or a fragment of one. */
function typedFilters(random: () => number, data: DataSet, count: number): string[] {
  const filters = new Set<string>([
    'e',
    'a',
    'th',
    'an',
    'the of',
    'said that',
    'tion',
    'water',
    'zq',
    'x',
    '%',
    'j-0001',
    'completed',
    'in progress pass',
  ]);
  while (filters.size < count) {
    const words = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const word = data.word(random);
      if (random() < 0.5) return word;
      const length = 1 + Math.floor(random() * word.length);
      const start = Math.floor(random() * (word.length - length + 1));
      return word.slice(start, start + length);
    });
    const filter = words.join(' ').slice(0, 20).trim();
    if (filter) filters.add(filter);
  }
  return [...filters];
}

/** One request at a time: each filter once, in a random sort order, direction, page (1–20) and size. */
async function singleRequests(base: string, jwt: string, filters: string[], random: () => number) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const timed: { ms: number; path: string; total: number; estimate: boolean }[] = [];
  for (const filter of filters) {
    const path = pathOf({
      filter,
      page: 1 + Math.floor(random() * 20),
      perPage: pick(JOB_PAGE_SIZES),
      sortColumn: pick(JOB_SORT_COLUMNS),
      sortOrder: pick(['asc', 'desc'] as const),
    });
    const started = performance.now();
    const answer = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${jwt}` } });
    const body = (await answer.json()) as JobList;
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
    timed.push({
      ms: performance.now() - started,
      path,
      total: body.totalJobs,
      estimate: body.totalIsEstimate,
    });
  }
  return timed.sort((a, b) => a.ms - b.ms);
}

/** Estimated totals against exact counts (a plain scan with the same rule). */
async function checkEstimates(database: Database, base: string, jwt: string, filters: string[]) {
  const checked: { filter: string; total: number; exact: number; error: number }[] = [];
  for (const filter of filters) {
    const answer = (await (
      await fetch(
        `${base}${pathOf({ filter, page: 1, perPage: 50, sortColumn: 'friendlyNumber', sortOrder: 'asc' })}`,
        {
          headers: { authorization: `Bearer ${jwt}` },
        },
      )
    ).json()) as JobList;
    if (!answer.totalIsEstimate) continue;
    const words = filter.split(/\s+/u).filter(Boolean);
    const [row] = await queryRows<{ exact: number }>(
      database.db,
      sql`select count(*)::float8 as exact from jobs as j
          where lower(j.friendly_number || ' ' || j.status || ' ' || j.conclusion || ' ' || j.description)
            like all (array(
            select job_search_pattern(w) from jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) as w))`,
    );
    checked.push({
      filter,
      total: answer.totalJobs,
      exact: row!.exact,
      error: (answer.totalJobs - row!.exact) / row!.exact,
    });
  }
  return checked;
}

/**
 * 50 people type the data set's 20 filters one character after another: each prefix is one
 * request, sent after the grid's debounce once the last answer came. Beside them, another
 * client asks for plain pages (unfiltered, page 1) every 100 ms: whether the search starves
 * the rest.
 */
async function typing(base: string, jwt: string, typed: string[], seconds: number) {
  const headers = { authorization: `Bearer ${jwt}` };
  const latencies: number[] = [];
  const others: number[] = [];
  const statuses = new Map<number, number>();
  const until = Date.now() + seconds * 1000;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const slowest: { ms: number; path: string }[] = [];
  const ask = async (path: string, into: number[]) => {
    const started = performance.now();
    const answer = await fetch(`${base}${path}`, { headers });
    await answer.arrayBuffer();
    const took = performance.now() - started;
    into.push(took);
    if (into === latencies) slowest.push({ ms: took, path });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  };
  const person = async (n: number) => {
    for (let f = n; Date.now() < until; f++) {
      const filter = typed[f % typed.length]!;
      for (let end = 1; end <= filter.length && Date.now() < until; end++) {
        if (filter[end - 1] === ' ') continue;
        await sleep(GRID_DEBOUNCE_MS);
        await ask(
          pathOf({
            filter: filter.slice(0, end),
            page: 1,
            perPage: 50,
            sortColumn: 'friendlyNumber',
            sortOrder: 'asc',
          }),
          latencies,
        );
      }
    }
  };
  const bystander = async () => {
    while (Date.now() < until) {
      await ask('/api/LIMS/jobs?page=1&perPage=50', others);
      await sleep(100);
    }
  };
  await Promise.all([...Array.from({ length: CONNECTIONS }, (_, n) => person(n)), bystander()]);
  return {
    latencies: latencies.sort((a, b) => a - b),
    others: others.sort((a, b) => a - b),
    statuses,
    slowest: slowest.sort((a, b) => b.ms - a.ms).slice(0, 3),
  };
}

/** Drives the built server with the mix; its figures. */
async function driveMix(
  base: string,
  jwt: string,
  jobIds: string[],
  data: DataSet,
  seconds: number,
) {
  const nextRequest = mix(prng(42), jobIds, data);
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${jwt}` },
    requests: [{ setupRequest: (request) => ({ ...request, path: toPath(nextRequest()) }) }],
  });
}

const sampleJobIds = async (database: Database) =>
  (
    await queryRows<{ id: string }>(
      database.db,
      sql`select id from jobs tablesample system (1) limit 2000`,
    )
  ).map((row) => row.id);

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const summary = (sorted: number[]) =>
  `p50 ${ms(percentile(sorted, 50))}   p99 ${ms(percentile(sorted, 99))}   max ${ms(sorted.at(-1) ?? 0)}   (${sorted.length} requests)`;

async function benchDataSet(name: DataSetName, url: string) {
  const data = DATA[name];
  console.log(`\n=== ${name} descriptions, ${TARGET_JOBS} jobs ===`);
  if (name === 'prose') console.log(`(the corpus: ${corpusWords()} distinct words)`);
  const database = openPostgres(url);
  await database.migrate();
  const load = await fill(database, TARGET_JOBS, data.generate);
  if (load)
    console.log(
      `Loaded: inserted and the search's indexes built in ${load.insertSeconds.toFixed(0)} s, vacuumed in ${load.vacuumSeconds.toFixed(0)} s (${((load.insertSeconds + load.vacuumSeconds) / 60).toFixed(1)} min in all)`,
    );
  const writes = await measureWrites(database);
  console.log(
    `Plain-SQL writes of 1,000 jobs: insert ${ms(writes.insert)} a job, update ${ms(writes.update)} (the status alone ${ms(writes.status)}), delete ${ms(writes.delete)}`,
  );
  const disk = await diskUse(database);
  for (const [part, bytes] of Object.entries(disk)) console.log(`  ${part}: ${megabytes(bytes)}`);
  const search = Object.entries(disk)
    .filter(([part]) => part.startsWith('search'))
    .reduce((sum, [, bytes]) => sum + bytes, 0);
  const table =
    disk['jobs table, with the search column']! - disk['search: the indexed text column']!;
  console.log(
    `  the search in all: ${megabytes(search)}, ${(search / table).toFixed(2)} × the jobs table without it (${megabytes(table)})`,
  );
  const jobIds = await sampleJobIds(database);

  const server = await startBuiltServer({ DATABASE_URL: url, SEED_JOBS: '0' });
  const signIn = async () => (await signInThroughApi(server.base, 'viewer', 'viewer123')).jwt;
  let jwt = await signIn();

  const filters = typedFilters(prng(7), data, 400);
  const single = await singleRequests(server.base, jwt, filters, prng(8));
  console.log(
    `\nSingle requests, one at a time: ${filters.length} filters (1–20 characters, 1–3 words), random sort, direction, page 1–20, page size:`,
  );
  console.log(`  ${summary(single.map((t) => t.ms))}`);
  console.log('  the slowest:');
  for (const t of single.slice(-5).reverse())
    console.log(
      `    ${ms(t.ms)}  ${decodeURIComponent(t.path)}  (${t.estimate ? '~' : ''}${t.total})`,
    );

  const estimates = await checkEstimates(database, server.base, jwt, filters);
  const worst = estimates.reduce((a, b) => Math.max(a, Math.abs(b.error)), 0);
  console.log(
    `\nEstimated totals against exact counts: ${estimates.length} filters estimated, the largest error ${(worst * 100).toFixed(2)} %`,
  );
  for (const e of [...estimates].sort((a, b) => Math.abs(b.error) - Math.abs(a.error)).slice(0, 5))
    console.log(
      `    ${JSON.stringify(e.filter)}: ~${e.total} for ${e.exact} (${(e.error * 100).toFixed(2)} %)`,
    );

  jwt = await signIn();
  const typed = await typing(server.base, jwt, data.typed, DURATION_S);
  console.log(
    `\nTyping: ${CONNECTIONS} people typing 20 filters, each prefix a request after a ${GRID_DEBOUNCE_MS} ms debounce, ${DURATION_S} s:`,
  );
  console.log(`  ${summary(typed.latencies)}`);
  console.log(`  beside them, plain pages: ${summary(typed.others)}`);
  console.log(`  statuses: ${JSON.stringify(Object.fromEntries(typed.statuses))}`);
  console.log('  the slowest prefixes:');
  for (const t of typed.slowest) console.log(`    ${ms(t.ms)}  ${decodeURIComponent(t.path)}`);

  jwt = await signIn();
  await driveMix(server.base, jwt, jobIds, data, 5);
  const mixed = await driveMix(server.base, jwt, jobIds, data, DURATION_S);
  reportApi(`\nThe mix through the API, ${CONNECTIONS} connections, ${DURATION_S} s:`, mixed);
  const residentMegabytes = server.residentMegabytes();
  await server.stop();

  const direct = await runDirect(url, mix(prng(42), jobIds, data));
  report(
    `The same mix straight to the database, in-process (${DIRECT_CONCURRENCY} at a time, ${DIRECT_SECONDS} s):`,
    direct,
  );
  console.log(
    `  the API reaches ${((mixed.requests.average / (direct.length / DIRECT_SECONDS)) * 100).toFixed(0)} % of it`,
  );
  console.log(
    `The server: ready in ${server.readySeconds.toFixed(1)} s, ${Math.round(residentMegabytes)} MB resident after the runs`,
  );
  await database.close();
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    throw new Error('Set BENCH_DATABASE_URL to a PostgreSQL database the benchmark may fill');
  for (const name of DATA_SETS)
    await benchDataSet(name, name === 'generated' ? url : await siblingDatabase(url, '_prose'));

  // The same server on 10,000 jobs: what it holds whatever the job count.
  const smallUrl = await siblingDatabase(url, `_${SMALL_JOBS}`);
  const small = openPostgres(smallUrl);
  await small.migrate();
  await fill(small, SMALL_JOBS, generateJob);
  const smallIds = await sampleJobIds(small);
  await small.close();
  const server = await startBuiltServer({ DATABASE_URL: smallUrl, SEED_JOBS: '0' });
  const jwt = (await signInThroughApi(server.base, 'viewer', 'viewer123')).jwt;
  await driveMix(server.base, jwt, smallIds, DATA.generated, 10);
  console.log(
    `\nThe same server at ${SMALL_JOBS} jobs: ready in ${server.readySeconds.toFixed(1)} s, ${Math.round(server.residentMegabytes())} MB resident after 10 s of the mix`,
  );
  await server.stop();
}

/** As many at a time as the API's database pool holds connections. */
const DIRECT_CONCURRENCY = 10;
const DIRECT_SECONDS = 10;

/** Runs the mix for DIRECT_SECONDS, DIRECT_CONCURRENCY at a time; the sorted latencies (ms). */
async function runDirect(url: string, next: () => BenchRequest): Promise<number[]> {
  const database = openPostgres(url);
  const latencies: number[] = [];
  const started = Date.now();
  await Promise.all(
    Array.from({ length: DIRECT_CONCURRENCY }, async () => {
      while (Date.now() - started < DIRECT_SECONDS * 1000) {
        const request = next();
        const t0 = performance.now();
        if (request.kind === 'job') await getJob(database.db, request.id);
        else await listJobs(database.db, request.query);
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
