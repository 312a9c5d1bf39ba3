import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { fromPglite, pgliteExtensions } from '../../../server/db/client';
import { templatePath } from './templatePath';

/**
 * Builds, once per set of migrations, a migrated PGlite database that each test file
 * then loads (well under a second) instead of running initdb (several seconds).
 */
export default async function globalSetup(): Promise<void> {
  const target = templatePath();
  if (existsSync(target)) return;
  const client = await PGlite.create({ extensions: pgliteExtensions });
  const database = fromPglite(client);
  await database.migrate();
  const dump = await client.dumpDataDir('none');
  await database.close();
  const partial = `${target}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, target);
}
