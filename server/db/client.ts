import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Config } from '../config';
import { migrationsFolder } from '../paths';
import { lockDataDir } from './dataDirLock';
import { migrateInJournalOrder } from './migrate';

/** The query builder, the same type over PGlite and over a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type DbKind = 'pglite' | 'postgres';
/** A transaction's query builder, as `db.transaction` hands it to its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The rows of a raw SQL query (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * `column = any($1)`: the values as one array parameter. Drizzle's `inArray` sends one
 * parameter per value, and for a bulk action's thousands of ids building and parsing those
 * held the event loop for ~100 ms a statement on the embedded database.
 */
export const isAnyOf = (column: AnyColumn, values: string[], type: 'uuid' | 'text') =>
  sql`${column} = any(${sql.param(values)}::${sql.raw(type)}[])`;

/**
 * One of something per database, made on first use: a query built once and run as a
 * prepared statement (on the hot paths, such as every request's identity, building the
 * query each time cost more than running it), or a cache of what the database answered.
 */
export function perDatabase<Made>(make: (db: Db) => Made): (db: Db) => Made {
  const made = new WeakMap<Db, Made>();
  return (db) => {
    let thing = made.get(db);
    if (!thing) made.set(db, (thing = make(db)));
    return thing;
  };
}

/**
 * Where named statements run: PGlite (during one turn of its queue, or in a transaction),
 * a PostgreSQL server's pool (see withSession), or one of its connections (a transaction's).
 */
export type Session = Pick<PGlite, 'query'> | pg.Pool | pg.PoolClient;

/** The session a query builder runs its statements in: a transaction's own for a transaction. */
export function sessionOf(db: Db | Tx): Session {
  // drizzle keeps it private: its session's client is the pool or the transaction's
  // connection (PostgreSQL), the queue or the open transaction (PGlite).
  return (db._.session as unknown as { client: Session }).client;
}

/** The PGlite client the query builder is given (see inTurnsWithTheEventLoop). */
type PGliteInTurns = Pick<PGlite, 'query' | 'transaction'> & {
  /** Runs `work` in one turn, alone on the database, without a transaction. */
  inOneTurn<T>(work: (session: Session) => Promise<T>): Promise<T>;
};

/**
 * Runs the statements of `work` together: on PGlite in one turn of its queue, so a call of
 * several statements waits its turn once rather than once each (under load each wait is
 * the whole queue: at 200 connections that took the slowest answer from 1.6 s to 0.7 s). On
 * PostgreSQL each statement takes any free connection of the pool: holding one for the
 * whole call left it idle while the server read each answer, and cost 12 % of the job
 * list's rate at 50 connections.
 */
export async function withSession<T>(db: Db, work: (session: Session) => Promise<T>): Promise<T> {
  const client = (db as unknown as { $client: pg.Pool | PGliteInTurns }).$client;
  return client instanceof pg.Pool ? work(client) : client.inOneTurn(work);
}

/** Connections of a PostgreSQL server's pool kept for searches (see withSearchSession). */
export const SEARCH_CONNECTIONS = 6;
/** The search pool of each PostgreSQL query builder. */
const searchPools = new WeakMap<Db, pg.Pool>();

/**
 * Runs a search's statements (the job list's filters, whose cost follows the data): on a
 * PostgreSQL server on a pool of their own, SEARCH_CONNECTIONS strong, so that searches,
 * however slow, never hold the connections every other request needs, and wait for one of
 * theirs holding nothing (a request that waits 2 s is answered OVERLOADED). On PGlite as
 * withSession: there every statement takes its turn on the one session anyway.
 */
export async function withSearchSession<T>(
  db: Db,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  const pool = searchPools.get(db);
  return pool ? work(pool) : withSession(db, work);
}

/**
 * Runs `work` on one connection of the pool when `session` is a PostgreSQL server's pool,
 * so statements that depend on each other wait for a free connection once, not once each;
 * the connection then idles while the server reads each answer (see withSession for when
 * that cost more than it saved). On the embedded database's queue, in one turn of it; on a
 * connection or a turn already had, right there. `work` runs its statements one at a time.
 */
export async function onOneConnection<T>(
  session: Session,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  if ('inOneTurn' in session) return (session as PGliteInTurns).inOneTurn(work);
  if (!(session instanceof pg.Pool)) return work(session);
  const connection = await session.connect();
  try {
    return await work(connection);
  } finally {
    connection.release();
  }
}

/**
 * Runs raw SQL as a named prepared statement on a PostgreSQL server, planned once per
 * connection rather than per call (0.3 to 0.6 ms of planning for the job list's queries);
 * PGlite runs it as it is. `name` must stand for one text.
 */
export async function namedQuery<Row>(
  session: Session,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const result =
    session instanceof pg.Pool || session instanceof pg.Client
      ? await session.query({ name, text, values })
      : await session.query(text, values);
  return result.rows as Row[];
}

/**
 * namedQuery through a query builder, in its transaction when it is one. For the writes'
 * hot statements: drizzle builds its SQL anew on every call, and that building was a
 * sixth of the server's time under the load bench.
 */
export const namedStatement = <Row>(db: Db | Tx, name: string, text: string, values: unknown[]) =>
  namedQuery<Row>(sessionOf(db), name, text, values);

/** An open database: the query builder, which engine serves it, and how to close it. */
export interface Database {
  db: Db;
  kind: DbKind;
  /** Applies the pending migrations; safe when several servers start at once. */
  migrate(): Promise<void>;
  /**
   * Opens a connection that receives NOTIFY messages, whichever server on this database
   * sent them (`plugins/pgEvents.ts` holds the process's one). It starts listening to no
   * channel; see NotificationConnection.
   */
  openNotificationConnection(handlers: NotificationHandlers): Promise<NotificationConnection>;
  close(): Promise<void>;
}

/** What a notification connection reports. */
export interface NotificationHandlers {
  /** A NOTIFY on a channel the connection listens to, with its payload ('' when none). */
  onNotification(channel: string, payload: string): void;
  /**
   * The connection dropped (a server restart, a terminated backend): it receives nothing
   * more. Called at most once, and never after `close()`. PGlite's never drops.
   */
  onEnd(): void;
}

/** A connection that LISTENs. Listening to a channel twice is the same as once. */
export interface NotificationConnection {
  listen(channel: string): Promise<void>;
  unlisten(channel: string): Promise<void>;
  /**
   * Resolves once every notification committed before the call has been handed to
   * `onNotification`: a round trip on the connection, as PostgreSQL sends a listener its
   * pending notifications ahead of a statement's answer. Immediate on PGlite, one session
   * in this process whose changes no other server makes.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** The `application_name` of the listening connection on a PostgreSQL server. */
export const NOTIFICATION_CONNECTION_NAME = 'notifications';

/** The extensions the migrations need (PGlite loads them only when asked). */
export const pgliteExtensions = { pg_trgm };

/**
 * The PGlite calls the query builder makes (`query`, `transaction`), taking turns with the
 * event loop. PGlite runs a statement synchronously on this thread and hands itself to the
 * next waiting one in a chain of promise callbacks, so under load hundreds of statements ran
 * back to back while no socket was read or written: with 200 connections, answers waited up
 * to 10 s and the lagging event loop shed most requests. Here each call waits its turn and
 * then for the event loop's next round, so requests are read and answered in between.
 */
function inTurnsWithTheEventLoop(client: PGlite): PGliteInTurns {
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const result = last
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(work);
    last = result.catch(() => undefined);
    return result;
  };
  return {
    query: (...args) => inTurn(() => client.query(...args)),
    transaction: (callback) => inTurn(() => client.transaction(callback)),
    inOneTurn: (work) => inTurn(() => work(client)),
  };
}

/** Wraps an open PGlite instance; `onClose` runs after it is closed. */
export function fromPglite(client: PGlite, onClose: () => void = () => {}): Database {
  const db = drizzlePglite({
    client: inTurnsWithTheEventLoop(client) as unknown as PGlite,
    casing: 'snake_case',
  });
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migrateInJournalOrder(db, migrationsFolder);
    },
    openNotificationConnection: async ({ onNotification }) => {
      // PGlite is one session in this process: "listening" is a callback per channel.
      const stops = new Map<string, Promise<() => Promise<void>>>();
      const stop = async (channel: string) => {
        const listening = stops.get(channel);
        stops.delete(channel);
        const unlisten = await listening;
        await unlisten?.();
      };
      return {
        listen: async (channel) => {
          if (!stops.has(channel)) {
            const listening = client.listen(channel, (payload) => onNotification(channel, payload));
            stops.set(channel, listening);
            listening.catch(() => {
              if (stops.get(channel) === listening) stops.delete(channel);
            });
          }
          await stops.get(channel);
        },
        unlisten: stop,
        sync: async () => {},
        close: async () => {
          for (const channel of [...stops.keys()]) await stop(channel);
        },
      };
    },
    close: async () => {
      await client.close();
      onClose();
    },
  };
}

/**
 * Opens a pooled connection to a PostgreSQL server. Connection errors outside a query
 * (the server restarting) go to `onError`; the pool then opens new connections.
 */
export function openPostgres(
  connectionString: string,
  onError: (error: unknown) => void = (error) => console.error(error),
): Database {
  // No JIT: our queries take milliseconds, and compiling one costs ~20 ms whenever a
  // plan's estimate crosses jit_above_cost (the job search's did).
  // A request that waits 2 s for a connection fails with 503: OVERLOADED when every connection
  // was busy, DATABASE_UNAVAILABLE when a new one could not be made (pgErrors.ts).
  const poolOf = (max: number, settings = '') => {
    const pool = new pg.Pool({
      connectionString,
      max,
      options: `-c jit=off${settings}`,
      connectionTimeoutMillis: 2000,
    });
    pool.on('error', onError);
    return pool;
  };
  const pool = poolOf(10);
  // A search sorts and counts up to hundreds of thousands of matches: with 16 MB (at most
  // 96 MB for the pool) rather than 4, they stay in memory instead of going to disk. No
  // parallel workers: each is a new process that first maps every shared buffer it reads
  // (without huge pages, `was by` at 1,000,000 jobs spent 520 ms in each of two workers where
  // one warm connection spends 120), and under load they take the cores other requests need.
  const searchPool = poolOf(
    SEARCH_CONNECTIONS,
    ' -c work_mem=16MB -c max_parallel_workers_per_gather=0',
  );
  const db = drizzlePg({ client: pool, casing: 'snake_case' });
  searchPools.set(db, searchPool);
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // A session advisory lock on one connection: instances starting together migrate one at a time.
      const connection = await pool.connect();
      try {
        await connection.query('select pg_advisory_lock(hashtext($1))', ['migrations']);
        await migrateInJournalOrder(
          drizzlePg({ client: connection, casing: 'snake_case' }),
          migrationsFolder,
        );
      } finally {
        await connection.query('select pg_advisory_unlock(hashtext($1))', ['migrations']);
        connection.release();
      }
    },
    openNotificationConnection: async ({ onNotification, onEnd }) => {
      // LISTEN holds its connection, so it gets its own, outside the pool; it is named so
      // that it can be told apart in pg_stat_activity.
      const client = new pg.Client({
        connectionString,
        application_name: NOTIFICATION_CONNECTION_NAME,
        connectionTimeoutMillis: 2000,
      });
      let closing = false;
      client.on('notification', (message) =>
        onNotification(message.channel, message.payload ?? ''),
      );
      client.on('error', onError);
      client.on('end', () => {
        if (!closing) onEnd();
      });
      await client.connect();
      // One statement at a time: pg queues overlapping queries on a client, but warns that
      // it will stop doing so.
      let last: Promise<unknown> = Promise.resolve();
      const inTurn = (sql: string) => {
        const result = last.catch(() => undefined).then(() => client.query(sql));
        last = result;
        return result;
      };
      return {
        listen: async (channel) => {
          await inTurn(`listen ${client.escapeIdentifier(channel)}`);
        },
        unlisten: async (channel) => {
          await inTurn(`unlisten ${client.escapeIdentifier(channel)}`);
        },
        sync: async () => {
          await inTurn('select 1');
        },
        close: async () => {
          closing = true;
          await client.end();
        },
      };
    },
    close: async () => {
      await Promise.all([pool.end(), searchPool.end()]);
    },
  };
}

/**
 * Opens the configured database: the PostgreSQL server of `DATABASE_URL`, or else the
 * embedded PGlite database in `DATA_DIR`, which this process then holds alone.
 * @throws DataDirInUseError when another server holds `DATA_DIR`.
 */
export async function openDatabase(
  config: Config,
  onError?: (error: unknown) => void,
): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, onError);
  const release = lockDataDir(config.dataDir);
  try {
    const client = await PGlite.create(path.join(config.dataDir, 'pglite'), {
      extensions: pgliteExtensions,
    });
    return fromPglite(client, release);
  } catch (error) {
    release();
    throw error;
  }
}
