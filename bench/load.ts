/**
 * `npm run bench:load`: the whole API under a realistic load. CONNECTIONS connections for
 * DURATION_S seconds, each going round a fixed cycle of ten requests (three pages of
 * books, two unfiltered and two filtered job pages, the users, a record created and then
 * deleted) with seeded random pages, sorts and filters; no warm-up, so the start of a run
 * counts. Three runs, each on a fresh database with the default seed (10,000 jobs): one
 * server on the embedded database, one server on PostgreSQL, and the cluster (CLUSTER_SIZE
 * servers behind nginx, on PostgreSQL and Redis). Prints requests/s, p50, p99, p99.9, max,
 * non-2xx and errors for each.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { DEMO_ACCOUNTS } from '../common/constants';
import { JOB_SORT_COLUMNS } from '../common/schemas/jobs';
import { JOB_CONCLUSIONS, JOB_STATUSES, VOCABULARY } from '../server/modules/jobs/jobGenerator';
import { startCluster } from '../cluster/cluster';
import { freePort, signInThroughApi, startBuiltServer } from './builtServer';
import { percentile, prng } from './measure';

const CONNECTIONS = 200;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 60);
const CLUSTER_SIZE = Number(process.env.CLUSTER_SIZE ?? 2);
const ADMIN_PASSWORD = 'bench-load-admin-password';
const ENTITY = 'LoadTest';
const BOOKS = 50;

const contributor = DEMO_ACCOUNTS.find((account) => account.username === 'contributor')!;

type Tokens = { admin: string; contributor: string };
type Step = autocannon.Request;
/** Where a connection is in its cycle (autocannon's, not in its types). */
type RequestIterator = { currentRequestIndex: number };
/** What a connection remembers between its requests: the record it created. */
type Context = { record?: string };

/** The cycle each connection goes round, each step named; `random` picks pages, sorts and filters. */
function cycle(tokens: Tokens, random: () => number): [name: string, step: Step][] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const get = (token: string, url: () => string): Step => ({
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: url(), headers: as(token) }),
  });
  const jobs = (filter: () => string, pages: number) => () =>
    `/api/LIMS/jobs?${new URLSearchParams({
      filter: filter(),
      page: String(1 + Math.floor(random() * pages)),
      perPage: '50',
      sortColumn: pick(JOB_SORT_COLUMNS),
      sortOrder: pick(['asc', 'desc']),
    })}`;
  const books = get(
    tokens.contributor,
    () => `/api/books?page=${1 + Math.floor(random() * 5)}&perPage=10`,
  );
  const words = [...VOCABULARY, ...JOB_STATUSES, ...JOB_CONCLUSIONS];
  const allJobs = get(
    tokens.contributor,
    jobs(() => '', 20),
  );
  const filteredJobs = get(
    tokens.contributor,
    jobs(() => pick(words), 5),
  );
  const users = get(tokens.admin, () => '/api/users');
  const createRecord: Step = {
    method: 'POST',
    setupRequest: (request) => ({
      ...request,
      path: `/api/entity-records/${ENTITY}`,
      headers: { ...as(tokens.contributor), 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { name: `Load ${random().toString(36).slice(2)}` } }),
    }),
    onResponse: (status, body, context: Context) => {
      if (status === 201) context.record = (JSON.parse(body) as { _id: string })._id;
    },
  };
  const deleteRecord: Step = {
    method: 'DELETE',
    // Back to the start of the cycle when the create failed (it counts as non-2xx).
    setupRequest: (request, context: Context) =>
      context.record
        ? {
            ...request,
            path: `/api/entity-records/${ENTITY}/${context.record}`,
            headers: as(tokens.contributor),
          }
        : undefined,
  } as Step;
  return [
    ['books', books],
    ['jobs', allJobs],
    ['jobs filtered', filteredJobs],
    ['record create', createRecord],
    ['books', books],
    ['users', users],
    ['jobs', allJobs],
    ['books', books],
    ['jobs filtered', filteredJobs],
    ['record delete', deleteRecord],
  ];
}

/** Adds what the mix reads (books, the records' entity); the admin's and contributor's tokens. */
async function prepare(base: string): Promise<Tokens> {
  const { jwt: admin } = await signInThroughApi(base, 'admin', ADMIN_PASSWORD);
  const send = async (url: string, body: unknown) => {
    const answer = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`POST ${url} answered ${answer.status}`);
  };
  await send('/api/entities', {
    name: ENTITY,
    description: 'Records the load benchmark creates and deletes',
    fields: [{ name: 'name', label: 'Name' }],
  });
  for (let n = 1; n <= BOOKS; n++)
    await send('/api/books/add', { title: `Load book ${n}`, author: 'Bench', isbn: '' });
  const { jwt } = await signInThroughApi(base, contributor.username, contributor.password);
  return { admin, contributor: jwt };
}

/** Seconds of a run whose slowest answer is reported apart: the start of a run shows. */
const WINDOW_S = 10;

/**
 * Drives `base` with the mix; autocannon's result, the slowest answer (ms) per window and
 * each step's answer times (ms), sorted, by step name.
 */
async function drive(base: string) {
  const tokens = await prepare(base);
  const steps = cycle(tokens, prng(42));
  let run!: autocannon.Instance;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    run = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: DURATION_S,
        requests: steps.map(([, step]) => step),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  const started = performance.now();
  const slowest = Array.from({ length: Math.ceil(DURATION_S / WINDOW_S) }, () => 0);
  const times = new Map(steps.map(([name]) => [name, [] as number[]]));
  run.on('response', (client, _status, _bytes, responseTime) => {
    const window = Math.floor((performance.now() - started) / 1000 / WINDOW_S);
    const at = Math.min(slowest.length - 1, window);
    slowest[at] = Math.max(slowest[at]!, responseTime);
    // A client's iterator moves on to its next request only after this event.
    const { currentRequestIndex } = (client as unknown as { requestIterator: RequestIterator })
      .requestIterator;
    times.get(steps[currentRequestIndex]![0])!.push(responseTime);
  });
  const result = await finished;
  for (const list of times.values()) list.sort((a, b) => a - b);
  return { result, slowest, times };
}

/** A fresh database on the PostgreSQL server of `url`; its URL and how to drop it. */
async function freshDatabase(url: string) {
  const name = `bench_load_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    url: fresh.href,
    name,
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

const env = { ADMIN_PASSWORD, LOG_LEVEL: 'warn' };

async function oneServer(databaseEnv: Record<string, string>) {
  const server = await startBuiltServer({ ...env, ...databaseEnv });
  try {
    return await drive(server.base);
  } finally {
    await server.stop();
  }
}

/** The runs, by name: BENCH_LOAD_RUNS picks some (default: all, in this order). */
const RUNS: Record<string, { title: string; run: (postgres: string) => ReturnType<typeof drive> }> =
  {
    embedded: {
      title: 'one server, embedded database (PGlite)',
      run: async () => {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
        try {
          return await oneServer({ DATA_DIR: dataDir });
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    },
    postgres: {
      title: 'one server, PostgreSQL',
      run: async (postgres) => {
        const database = await freshDatabase(postgres);
        try {
          return await oneServer({ DATABASE_URL: database.url });
        } finally {
          await database.drop();
        }
      },
    },
    cluster: {
      title: `${CLUSTER_SIZE} servers behind nginx, PostgreSQL and Redis`,
      run: async (postgres) => {
        const database = await freshDatabase(postgres);
        try {
          const cluster = await startCluster({
            size: CLUSTER_SIZE,
            port: await freePort(),
            env: {
              ...env,
              DATABASE_URL: database.url,
              REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
              REDIS_KEY_PREFIX: `${database.name}:`,
            },
          });
          try {
            return await drive(cluster.base);
          } finally {
            await cluster.stop();
          }
        } finally {
          await database.drop();
        }
      },
    },
  };

async function main() {
  const postgres = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const names = (process.env.BENCH_LOAD_RUNS ?? Object.keys(RUNS).join(',')).split(',');
  const unknown = names.filter((name) => !(name in RUNS));
  if (unknown.length)
    throw new Error(
      `BENCH_LOAD_RUNS: unknown ${unknown.join(', ')} (${Object.keys(RUNS).join(', ')})`,
    );
  const results: [string, Awaited<ReturnType<typeof drive>>][] = [];
  for (const name of names) {
    const { title, run } = RUNS[name]!;
    console.log(`${title}: ${CONNECTIONS} connections, ${DURATION_S} s…`);
    results.push([title, await run(postgres)]);
  }

  console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s each, no warm-up:`);
  for (const [title, { result, slowest, times }] of results) {
    const { latency, requests } = result;
    console.log(title);
    console.log(
      `  requests/s ${Math.round(requests.average)}   total ${requests.total}   latency p50 ${latency.p50} ms   p99 ${latency.p99} ms   p99.9 ${latency.p99_9} ms   max ${latency.max} ms`,
    );
    const codes = Object.entries(result.statusCodeStats ?? {}).map(
      ([code, { count }]) => `${code}: ${count}`,
    );
    for (const [name, list] of times)
      console.log(
        `  ${name.padEnd(14)} p50 ${Math.round(percentile(list, 50))} ms   p99 ${Math.round(percentile(list, 99))} ms   max ${Math.round(list.at(-1) ?? 0)} ms`,
      );
    console.log(
      `  slowest answer in each ${WINDOW_S} s: ${slowest.map((ms) => `${Math.round(ms)} ms`).join(', ')}`,
    );
    console.log(
      `  non-2xx ${result.non2xx}   errors ${result.errors}   timeouts ${result.timeouts}   (${codes.join(', ')})`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
