import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '@server/db/client';
import { migrateInJournalOrder } from '@server/db/migrate';
import { openTestDatabase, testDbKinds } from '../helpers/testDatabase';

/** A migrations folder holding `entries` (tag, journal date, SQL), as drizzle-kit writes one. */
function migrationsFolder(entries: [tag: string, when: number, text: string][]) {
  const folder = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  mkdirSync(path.join(folder, 'meta'));
  const journal = entries.map(([tag, when], idx) => ({
    idx,
    version: '7',
    when,
    tag,
    breakpoints: true,
  }));
  writeFileSync(
    path.join(folder, 'meta', '_journal.json'),
    JSON.stringify({ version: '7', dialect: 'postgresql', entries: journal }),
  );
  for (const [tag, , text] of entries) writeFileSync(path.join(folder, `${tag}.sql`), text);
  return folder;
}

const tables = async (database: Database) =>
  (
    await queryRows<{ name: string }>(
      database.db,
      sql`select tablename as name from pg_tables where tablename like 'm\\_%' order by tablename`,
    )
  ).map((row) => row.name);

const first: [string, number, string] = ['0000_first', 1000, 'create table m_first (x int);'];
// Dated ahead of the one after it, as 0023 was.
const ahead: [string, number, string] = [
  '0001_ahead',
  3000,
  'create table m_ahead (x int);--> statement-breakpoint\ninsert into m_ahead values (1);',
];
const later: [string, number, string] = ['0002_later', 2000, 'create table m_later (x int);'];

describe.each(testDbKinds)('migrations on %s', (kind) => {
  let database: Database;
  const folders: string[] = [];
  const folder = (entries: Parameters<typeof migrationsFolder>[0]) => {
    folders.push(migrationsFolder(entries));
    return folders.at(-1)!;
  };
  beforeEach(async () => {
    database = await openTestDatabase(kind);
  });
  afterEach(async () => {
    await database.close();
    for (const made of folders.splice(0)) rmSync(made, { recursive: true });
  });

  it('applies a migration that comes after the last one applied, though dated before it', async () => {
    await migrateInJournalOrder(database.db, folder([first, ahead]));
    expect(await tables(database)).toEqual(['m_ahead', 'm_first']);
    const all = folder([first, ahead, later]);
    await migrateInJournalOrder(database.db, all);
    expect(await tables(database)).toEqual(['m_ahead', 'm_first', 'm_later']);
    // Nothing applied twice: the statements would fail on tables that exist.
    await migrateInJournalOrder(database.db, all);
    expect(await queryRows(database.db, sql`select x from m_ahead`)).toEqual([{ x: 1 }]);
  });

  it('applies nothing of a run where one migration fails', async () => {
    await migrateInJournalOrder(database.db, folder([first]));
    const broken: [string, number, string] = ['0002_broken', 4000, 'create table m_first (x int);'];
    await expect(
      migrateInJournalOrder(database.db, folder([first, ahead, broken])),
    ).rejects.toThrow();
    expect(await tables(database)).toEqual(['m_first']);
  });
});
