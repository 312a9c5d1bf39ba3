import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Config } from '../config';
import { migrationsFolder } from '../paths';
import { lockDataDir } from './dataDirLock';

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
 * A query built once per database and run as a prepared statement: on the hot paths
 * (every request's identity, the job list) building the query each time costs more
 * than running it.
 */
export function preparedQuery<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}

/** An open database: the query builder, which engine serves it, and how to close it. */
export interface Database {
  db: Db;
  kind: DbKind;
  /** Applies the pending migrations; safe when several servers start at once. */
  migrate(): Promise<void>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel`, whichever server on this database sent
   * it. Resolves once listening, with the function that stops it.
   */
  listen(channel: string, onNotify: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The extensions the migrations need (PGlite loads them only when asked). */
export const pgliteExtensions = { pg_trgm };

/** Wraps an open PGlite instance; `onClose` runs after it is closed. */
export function fromPglite(client: PGlite, onClose: () => void = () => {}): Database {
  const db = drizzlePglite({ client, casing: 'snake_case' });
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(db, { migrationsFolder });
    },
    listen: (channel, onNotify) => client.listen(channel, onNotify),
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
  const pool = new pg.Pool({ connectionString, max: 10 });
  pool.on('error', onError);
  return {
    db: drizzlePg({ client: pool, casing: 'snake_case' }),
    kind: 'postgres',
    migrate: async () => {
      // A session advisory lock on one connection: instances starting together migrate one at a time.
      const connection = await pool.connect();
      try {
        await connection.query('select pg_advisory_lock(hashtext($1))', ['migrations']);
        await migratePg(drizzlePg({ client: connection, casing: 'snake_case' }), {
          migrationsFolder,
        });
      } finally {
        await connection.query('select pg_advisory_unlock(hashtext($1))', ['migrations']);
        connection.release();
      }
    },
    listen: async (channel, onNotify) => {
      // LISTEN holds its connection, so it gets its own, outside the pool. When that
      // connection drops (a server restart), it reconnects and reports a change, since
      // notifications may have been missed meanwhile.
      let listener: pg.Client | undefined;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const connect = async () => {
        const client = new pg.Client({ connectionString });
        client.on('notification', (message) => {
          if (message.channel === channel) onNotify();
        });
        client.on('error', onError);
        client.on('end', () => {
          if (!stopped && listener === client) scheduleReconnect();
        });
        await client.connect();
        await client.query(`listen "${channel.replaceAll('"', '')}"`);
        listener = client;
      };
      const scheduleReconnect = () => {
        listener = undefined;
        clearTimeout(retry);
        retry = setTimeout(() => {
          connect().then(onNotify, (error: unknown) => {
            onError(error);
            if (!stopped) scheduleReconnect();
          });
        }, 1000);
        retry.unref();
      };
      await connect();
      return async () => {
        stopped = true;
        clearTimeout(retry);
        await listener?.end();
      };
    },
    close: () => pool.end(),
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
