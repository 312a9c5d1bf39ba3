import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
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

/** An open database: the query builder, which engine serves it, and how to close it. */
export interface Database {
  db: Db;
  kind: DbKind;
  /** Applies the pending migrations; safe when several servers start at once. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** Wraps an open PGlite instance; `onClose` runs after it is closed. */
export function fromPglite(client: PGlite, onClose: () => void = () => {}): Database {
  const db = drizzlePglite({ client, casing: 'snake_case' });
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(db, { migrationsFolder });
    },
    close: async () => {
      await client.close();
      onClose();
    },
  };
}

/** Opens a pooled connection to a PostgreSQL server. */
export function openPostgres(connectionString: string): Database {
  const pool = new pg.Pool({ connectionString, max: 10 });
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
    close: () => pool.end(),
  };
}

/**
 * Opens the configured database: the PostgreSQL server of `DATABASE_URL`, or else the
 * embedded PGlite database in `DATA_DIR`, which this process then holds alone.
 * @throws DataDirInUseError when another server holds `DATA_DIR`.
 */
export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const release = lockDataDir(config.dataDir);
  try {
    const client = await PGlite.create(path.join(config.dataDir, 'pglite'));
    return fromPglite(client, release);
  } catch (error) {
    release();
    throw error;
  }
}
