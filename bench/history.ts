/**
 * `npm run bench:history`: version histories and the audit log at scale, on PostgreSQL.
 * Starts the built server on BENCH_DATABASE_URL (a database of its own: its first start
 * seeds the admin with the benchmark's password), loads 1,000,000 versions (20,000 books of
 * 50 versions) and 1,000,000 audit events (a year of them, 50 people, every action) unless
 * they are there, then measures one item's history page and a filtered audit page: in this
 * process through the service functions (the database's share), then through the API with
 * autocannon at 50 connections.
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { AUDIT_ACTIONS, type AuditQuery } from '../common/schemas/audit';
import { VERSION_PAGE_SIZE } from '../common/constants';
import { type Db, openPostgres, queryRows } from '../server/db/client';
import { listVersions } from '../server/lib/versions';
import { listAuditEvents } from '../server/modules/audit/audit.service';
import { signInThroughApi, startBuiltServer } from './builtServer';
import { percentile, prng, reportApi } from './measure';

const DOCUMENTS = 20_000;
const VERSIONS_EACH = 50;
const AUDIT_EVENTS = 1_000_000;
const PEOPLE = 50;
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 20);
const DIRECT_QUERIES = 2_000;
const ADMIN_PASSWORD = 'bench-admin-password';

const count = async (db: Db, query: ReturnType<typeof sql>) =>
  (await queryRows<{ n: number }>(db, query))[0]!.n;

async function loadVersions(db: Db) {
  const have = await count(
    db,
    sql`select count(*)::int as n from versions where updated_by = 'bench'`,
  );
  if (have >= DOCUMENTS * VERSIONS_EACH) return;
  console.log(`Loading ${DOCUMENTS * VERSIONS_EACH} versions…`);
  const started = Date.now();
  // In slices of 1,000 books, so each statement stays short.
  for (let first = 0; first < DOCUMENTS; first += 1000) {
    await db.execute(sql`
      insert into versions (resource, document_id, action, updated_by, version_date, document)
      select 'books', d.id, case when v = 1 then 'create' else 'update' end, 'bench',
             now() - (${VERSIONS_EACH} - v) * interval '1 hour',
             jsonb_build_object('_id', d.id, 'title', 'Bench book ' || d.n || ' v' || v,
                                'author', 'Author ' || (d.n % 97), 'isbn', null)
      from (select gen_random_uuid() as id, n from generate_series(1, 1000) n) d,
           generate_series(1, ${VERSIONS_EACH}) v`);
  }
  console.log(`  in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

async function loadAuditEvents(db: Db) {
  const have = await count(
    db,
    sql`select count(*)::int as n from audit_events where user_agent = 'bench'`,
  );
  if (have >= AUDIT_EVENTS) return;
  console.log(`Loading ${AUDIT_EVENTS} audit events…`);
  const started = Date.now();
  const actions = sql.raw(`array[${AUDIT_ACTIONS.map((a) => `'${a}'`).join(',')}]`);
  for (let first = 0; first < AUDIT_EVENTS; first += 100_000) {
    await db.execute(sql`
      insert into audit_events (at, actor_id, actor_name, action, resource, resource_id, ip, user_agent, summary)
      select now() - random() * interval '365 days', null, 'person' || (n % ${PEOPLE}::int), a,
             split_part(a, '.', 1), gen_random_uuid()::text, '10.0.0.1', 'bench', 'Bench event ' || n
      from (select n, (${actions})[1 + floor(random() * ${AUDIT_ACTIONS.length}::int)::int] as a
            from generate_series(${first + 1}::int, ${first + 100_000}::int) n) e`);
  }
  // As autovacuum leaves a table in use: visibility map set (index-only scans), statistics.
  await db.execute(sql`vacuum analyze audit_events`);
  await db.execute(sql`vacuum analyze versions`);
  console.log(`  in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** The audit pages asked for: every filter the screen offers, alone and combined, pages 1–5. */
function auditMix(random: () => number): () => AuditQuery {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const day = 86_400_000;
  return () => {
    const query: AuditQuery = { page: 1 + Math.floor(random() * 5), perPage: 25 };
    const roll = random();
    if (roll < 0.2) return query;
    if (roll < 0.4) return { ...query, action: pick(AUDIT_ACTIONS) };
    if (roll < 0.6) return { ...query, actor: `person${Math.floor(random() * PEOPLE)}` };
    if (roll < 0.7)
      return { ...query, resource: pick(['auth', 'book', 'record', 'user'] as const) };
    const to = Date.now() - Math.floor(random() * 300) * day;
    return {
      ...query,
      action: pick(AUDIT_ACTIONS),
      actor: `person${Math.floor(random() * PEOPLE)}`,
      from: new Date(to - 30 * day).toISOString(),
      to: new Date(to).toISOString(),
    };
  };
}

const auditPath = (query: AuditQuery) =>
  `/api/audit?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`;

/** Runs `ask` DIRECT_QUERIES times one after another; the sorted latencies (ms). */
async function timeEach(ask: () => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < DIRECT_QUERIES; i++) {
    const t0 = performance.now();
    await ask();
    latencies.push(performance.now() - t0);
  }
  return latencies.sort((a, b) => a - b);
}

const line = (title: string, sorted: number[]) =>
  console.log(
    `${title}: p50 ${percentile(sorted, 50).toFixed(2)} ms   p99 ${percentile(sorted, 99).toFixed(2)} ms   max ${sorted.at(-1)!.toFixed(1)} ms`,
  );

async function main() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url)
    throw new Error(
      'Set BENCH_DATABASE_URL to a PostgreSQL database of its own that the benchmark may fill',
    );
  const server = await startBuiltServer({
    DATABASE_URL: url,
    SEED_JOBS: '0',
    ADMIN_PASSWORD,
  });
  const database = openPostgres(url);
  try {
    await loadVersions(database.db);
    await loadAuditEvents(database.db);
    const documents = (
      await queryRows<{ id: string }>(
        database.db,
        sql`select distinct document_id as id from versions tablesample system (1) where updated_by = 'bench' limit 2000`,
      )
    ).map((row) => row.id);

    const historyPages = (random: () => number) => () => ({
      id: documents[Math.floor(random() * documents.length)]!,
      page: 1 + Math.floor(random() * 3),
    });
    const nextHistory = historyPages(prng(7));
    const nextAudit = auditMix(prng(11));
    console.log(`\nIn this process, one query at a time (${DIRECT_QUERIES} of each):`);
    line(
      `  one book's history, a page of ${VERSION_PAGE_SIZE} (of ${VERSIONS_EACH})`,
      await timeEach(() => {
        const { id, page } = nextHistory();
        return listVersions(database.db, 'books', id, { page, perPage: VERSION_PAGE_SIZE });
      }),
    );
    line(
      '  a filtered audit page of 25, with its total',
      await timeEach(() => listAuditEvents(database.db, nextAudit())),
    );

    const { jwt } = await signInThroughApi(server.base, 'admin', ADMIN_PASSWORD).catch(() => {
      throw new Error(
        'The admin could not sign in: BENCH_DATABASE_URL must be a database of its own, first started by this benchmark',
      );
    });
    const drive = (path: () => string) =>
      autocannon({
        url: server.base,
        connections: CONNECTIONS,
        duration: DURATION_S,
        headers: { authorization: `Bearer ${jwt}` },
        requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }],
      });
    const apiHistory = historyPages(prng(7));
    const apiAudit = auditMix(prng(11));
    console.log(`\nThrough the API, autocannon: ${CONNECTIONS} connections, ${DURATION_S} s each`);
    reportApi(
      "One book's history page:",
      await drive(() => {
        const { id, page } = apiHistory();
        return `/api/books/${id}/versions?page=${page}&perPage=${VERSION_PAGE_SIZE}`;
      }),
    );
    reportApi('A filtered audit page:', await drive(() => auditPath(apiAudit())));
    const sizes = await queryRows<{ table: string; size: string }>(
      database.db,
      sql`select relname as table, pg_size_pretty(pg_total_relation_size(oid)) as size
          from pg_class where relname in ('versions', 'audit_events')`,
    );
    console.log(
      `\nOn disk (tables and indexes): ${sizes.map((row) => `${row.table} ${row.size}`).join(', ')}`,
    );
  } finally {
    await database.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
