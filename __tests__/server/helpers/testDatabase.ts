import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import {
  type Database,
  type DbKind,
  fromPglite,
  openPostgres,
  pgliteExtensions,
} from '@server/db/client';
import { templatePath } from '../setup/templatePath';

/** The engines server tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const testDbKinds: DbKind[] = process.env.TEST_DATABASE_URL
  ? ['pglite', 'postgres']
  : ['pglite'];

/** A migrated, empty PGlite database in memory, loaded from the template. */
export async function openTestPglite(): Promise<Database> {
  const loadDataDir = new Blob([readFileSync(templatePath())]);
  return fromPglite(await PGlite.create({ loadDataDir, extensions: pgliteExtensions }));
}

/**
 * A new, empty database on the server of TEST_DATABASE_URL (created for this file and
 * dropped when closed), with the URL to reach it.
 */
export async function createTestPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `${base.pathname.slice(1)}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.href });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: base.href });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

/** A fresh, migrated database of the given kind; closing it also drops a PostgreSQL one. */
export async function openTestDatabase(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') return openTestPglite();
  const { url, drop } = await createTestPostgres();
  // Connections dropped when a test drops its database are expected.
  const database = openPostgres(url, () => {});
  await database.migrate();
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}
