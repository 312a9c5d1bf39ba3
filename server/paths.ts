import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The project root: the nearest folder above this file that holds package.json.
 * Found by walking up, so it is the same whether the server runs from its sources
 * (tsx, jest) or from the bundle in dist/server.
 */
function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot(__dirname);
export const migrationsFolder = path.join(projectRoot, 'server/db/migrations');
export const defaultStaticDir = path.join(projectRoot, 'dist/public');
