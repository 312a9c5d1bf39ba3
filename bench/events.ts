/**
 * `npm run bench:events`: the live event stream under load. Starts the built server (on
 * BENCH_DATABASE_URL when set, a PostgreSQL database of its own; else on an embedded
 * database in a fresh folder), opens STREAMS event streams for USERS viewers, then makes
 * CHANGES_PER_SECOND book changes a second for DURATION_S seconds through the API, and
 * times each change from its request to its arrival on every stream. Prints the delivery
 * p50/p99/max, the events lost, and the server's memory per open stream.
 */
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signInThroughApi, startBuiltServer } from './builtServer';
import { percentile } from './measure';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const USERS = 20;
const CHANGES_PER_SECOND = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 30);
const BOOKS = 20;
const ADMIN_PASSWORD = 'bench-admin-password';

/** When each change (`bookId/version`) was asked for, and how long each stream took to hear it. */
const askedAt = new Map<string, number>();
const delays: number[] = [];
let heard = 0;

/** Opens one event stream and times every change it carries; resolves once it is ready. */
function openStream(base: string, token: string, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/api/events`,
      { agent, headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`The event stream answered ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        let buffered = '';
        response.on('data', (chunk: string) => {
          const now = performance.now();
          buffered += chunk;
          let end;
          while ((end = buffered.indexOf('\n\n')) >= 0) {
            const frame = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            if (frame.includes('event: ready')) resolve();
            if (!frame.includes('event: change')) continue;
            const data = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as {
              id: string;
              version: number;
            };
            const asked = askedAt.get(`${data.id}/${data.version}`);
            if (asked === undefined) continue;
            heard++;
            delays.push(now - asked);
          }
        });
      },
    );
    request.on('error', reject);
  });
}

async function api(base: string, token: string, method: string, url: string, body?: unknown) {
  const answer = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${url} answered ${answer.status}`);
  return answer.json();
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  const server = await startBuiltServer({
    ...(url
      ? { DATABASE_URL: url }
      : { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-events-')) }),
    SEED_JOBS: '0',
    ADMIN_PASSWORD,
    // The listeners sign in one after another from this one address.
    AUTH_RATE_LIMIT: '1000',
  });
  try {
    const { jwt: admin } = await signInThroughApi(server.base, 'admin', ADMIN_PASSWORD).catch(
      () => {
        throw new Error(
          'The admin could not sign in: BENCH_DATABASE_URL must be a database of its own, first started by this benchmark',
        );
      },
    );
    // Viewers to listen (a stream per user is checked against that user's roles).
    const roles = (await api(server.base, admin, 'GET', '/api/roles')) as {
      _id: string;
      name: string;
    }[];
    const viewerRole = roles.find((role) => role.name === 'viewer')!._id;
    const suffix = Date.now().toString(36);
    const tokens: string[] = [];
    for (let n = 0; n < USERS; n++) {
      const username = `listener${n}_${suffix}`;
      await api(server.base, admin, 'POST', '/api/users', {
        username,
        password: 'a-bench-password',
        roles: [viewerRole],
      });
      tokens.push((await signInThroughApi(server.base, username, 'a-bench-password')).jwt);
    }
    const books: { _id: string; _version: number }[] = [];
    for (let n = 0; n < BOOKS; n++)
      books.push(await api(server.base, admin, 'POST', '/api/books/add', { title: `Bench ${n}` }));

    const idleMegabytes = server.residentMegabytes();
    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const opening = performance.now();
    for (let first = 0; first < STREAMS; first += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, STREAMS - first) }, (_, n) =>
          openStream(server.base, tokens[(first + n) % USERS]!, agent),
        ),
      );
    }
    const openSeconds = (performance.now() - opening) / 1000;
    const connectedMegabytes = server.residentMegabytes();
    console.log(
      `${STREAMS} event streams open in ${openSeconds.toFixed(1)} s (${USERS} users); server memory ${idleMegabytes.toFixed(0)} MB before, ${connectedMegabytes.toFixed(0)} MB after: ${(((connectedMegabytes - idleMegabytes) * 1024) / STREAMS).toFixed(1)} KB per stream`,
    );

    console.log(`${CHANGES_PER_SECOND} book changes a second for ${DURATION_S} s…`);
    const changes = CHANGES_PER_SECOND * DURATION_S;
    const started = performance.now();
    const writes: Promise<void>[] = [];
    let failedWrites = 0;
    for (let n = 0; n < changes; n++) {
      // On schedule, whatever the last write took (an open-loop load).
      const due = started + (n * 1000) / CHANGES_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const book = books[n % BOOKS]!;
      const version = ++book._version;
      askedAt.set(`${book._id}/${version}`, performance.now());
      writes.push(
        api(server.base, admin, 'PUT', `/api/books/${book._id}`, { title: `Bench ${n}` }).then(
          (stored: { _version: number }) => {
            if (stored._version !== version) failedWrites++;
          },
          () => {
            failedWrites++;
          },
        ),
      );
    }
    await Promise.all(writes);
    const expected = changes * STREAMS;
    // The last events are on their way: wait until all arrived, or 5 s of silence.
    for (let last = heard, quietSince = performance.now(); heard < expected;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (heard !== last) [last, quietSince] = [heard, performance.now()];
      else if (performance.now() - quietSince > 5000) break;
    }
    const busyMegabytes = server.residentMegabytes();
    delays.sort((a, b) => a - b);
    console.log(
      `  events delivered ${heard} of ${expected} (${expected - heard} lost); writes out of order or failed: ${failedWrites}`,
    );
    console.log(
      `  delivery, from the change's request to its arrival: p50 ${percentile(delays, 50).toFixed(0)} ms   p99 ${percentile(delays, 99).toFixed(0)} ms   max ${delays.at(-1)!.toFixed(0)} ms`,
    );
    console.log(`  server memory after the run ${busyMegabytes.toFixed(0)} MB`);
    agent.destroy();
  } finally {
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
