import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@server/app';
import { type Config, loadConfig } from '@server/config';
import type { Database, DbKind } from '@server/db/client';
import { openTestDatabase } from './testDatabase';

export const TEST_ADMIN_PASSWORD = 'admin-test-password';

/** A built web app stand-in: an index.html and one hashed asset. */
export function makeStaticDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'static-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app shell</title>');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'assets', 'main.0123abcd.js'), 'console.log("app");');
  return dir;
}

/** The configuration tests run with: the given variables over quiet, fixed defaults. */
export function testConfig(env: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    STATIC_DIR: makeStaticDir(),
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** The whole app on a fresh database of the given kind, for `app.inject()`. */
export async function startTestApp(kind: DbKind, env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const config = testConfig(env);
  const database = await openTestDatabase(kind);
  const app = await buildApp(config, { database });
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
