import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Db } from './client';

/**
 * Applies the migrations of `migrationsFolder` not applied yet, in the journal's order, in
 * one transaction, recorded where drizzle records them (drizzle.__drizzle_migrations: the
 * hash of each file and its journal date, `created_at`). Drizzle's own migrator applies
 * only the migrations dated after the newest one recorded, so one dated ahead (0023 was)
 * made it skip every later migration dated before it, silently: a database migrated with
 * 0023 and 0024 never got 0025. Here a migration is applied when it comes after the last
 * one recorded in the journal, whatever its date.
 */
export async function migrateInJournalOrder(
  db: Pick<Db, 'execute' | 'transaction'>,
  migrationsFolder: string,
): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder });
  await db.execute(sql`create schema if not exists drizzle`);
  await db.execute(sql`create table if not exists drizzle.__drizzle_migrations
    (id serial primary key, hash text not null, created_at bigint)`);
  const { rows } = (await db.execute(
    sql`select created_at::float8 as "createdAt" from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { createdAt: number }[] };
  const recorded = new Set(rows.map((row) => row.createdAt));
  const last = migrations.findLastIndex((migration) => recorded.has(migration.folderMillis));
  const pending = migrations.slice(last + 1);
  if (!pending.length) return;
  await db.transaction(async (tx) => {
    for (const migration of pending) {
      for (const statement of migration.sql)
        if (statement.trim()) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at)
        values (${migration.hash}, ${migration.folderMillis})`);
    }
  });
}
