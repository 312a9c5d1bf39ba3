import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { type BuildAppOptions, buildApp } from '@server/app';
import { type Config, loadConfig } from '@server/config';
import type { Database, DbKind } from '@server/db/client';
import { openTestDatabase } from './testDatabase';

export const TEST_ADMIN_PASSWORD = 'admin-test-password';

/** The built web app stand-in's files, each also written brotli- and gzip-compressed. */
export const STATIC_FILES = {
  'index.html': '<!doctype html><title>app shell</title>',
  'assets/main.0123abcd.js': 'console.log("app");',
};

/**
 * What a compressed copy of a stand-in file holds: the text with the encoding appended, so
 * a test can tell the build's copy from a compression made per request.
 */
export const compressedCopyText = (text: string, encoding: 'br' | 'gz') =>
  `${text}<!-- ${encoding} -->`;

/** A built web app stand-in: an index.html and one hashed asset, as the build writes them. */
export function makeStaticDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'static-'));
  mkdirSync(path.join(dir, 'assets'));
  for (const [name, text] of Object.entries(STATIC_FILES)) {
    writeFileSync(path.join(dir, name), text);
    writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(compressedCopyText(text, 'br')));
    writeFileSync(path.join(dir, `${name}.gz`), gzipSync(compressedCopyText(text, 'gz')));
  }
  return dir;
}

/** The configuration tests run with: the given variables over quiet, fixed defaults. */
export function testConfig(env: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    // Jobs are seeded only by the tests about them (10,000 by default would slow every file).
    SEED_JOBS: '0',
    // A loaded test machine stalls the loop now and then: no shedding unless a test asks.
    MAX_EVENT_LOOP_DELAY_MS: '0',
    STATIC_DIR: makeStaticDir(),
    ...env,
  });
}

/** A clock the test moves by hand. */
export class TestClock {
  time = Date.now();
  now = () => new Date(this.time);
  advance(ms: number) {
    this.time += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  clock: TestClock;
  /** Another server on the same database (as a second instance behind a load balancer). */
  startAnother(env?: NodeJS.ProcessEnv): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/**
 * The whole app on a fresh database of the given kind, for `app.inject()`; its log goes to
 * `logStream` when given (set LOG_LEVEL in `env`: tests run silent), and `onRoute` hears of
 * every route registered.
 */
export async function startTestApp(
  kind: DbKind,
  env: NodeJS.ProcessEnv = {},
  { logStream, onRoute }: Pick<BuildAppOptions, 'logStream' | 'onRoute'> = {},
): Promise<TestApp> {
  const config = testConfig(env);
  const database = await openTestDatabase(kind);
  const clock = new TestClock();
  const app = await buildApp(config, { database, now: clock.now, logStream, onRoute });
  const others: FastifyInstance[] = [];
  return {
    app,
    database,
    config,
    clock,
    startAnother: async (otherEnv = env) => {
      const other = await buildApp(testConfig(otherEnv), { database, now: clock.now });
      others.push(other);
      return other;
    },
    close: async () => {
      for (const other of others) await other.close();
      await app.close();
      await database.close();
    },
  };
}
