import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder } from '../../../server/paths';

/** Where the migrated PGlite template for the current migrations lives. */
export function templatePath(): string {
  const hash = createHash('sha1');
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) {
      hash.update(file).update(readFileSync(path.join(migrationsFolder, file)));
    }
  }
  return path.join(os.tmpdir(), `pglite-template-${hash.digest('hex')}.tar`);
}
