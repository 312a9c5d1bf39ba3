import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';

/** A TCP port free on 127.0.0.1 just now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server (`dist/server/main.js`, so `npm run build` first) on a free port
 * with `env` added to this process's environment, and waits until /api/health answers.
 */
export async function startBuiltServer(env: Record<string, string>) {
  const port = await freePort();
  const started = performance.now();
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => server.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    if (server.exitCode !== null) throw new Error(`The server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      if (tries > 600) throw new Error('The server did not start within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    readySeconds: (performance.now() - started) / 1000,
    /** The server's whole resident memory in MB (Linux). */
    residentMegabytes: () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) / 1024,
    stop: async () => {
      server.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Watches a server's resident memory from now (sampled every 50 ms) until `stop`, which
 * answers it idle (at the start) and at its peak, in MB.
 */
export function watchMemory(server: { residentMegabytes(): number }) {
  const idle = server.residentMegabytes();
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.residentMegabytes());
  }, 50);
  return {
    stop() {
      clearInterval(sampler);
      return { idle, peak };
    },
  };
}

/** Signs in through the API; the access and refresh tokens. */
export async function signInThroughApi(base: string, username: string, password: string) {
  const answer = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!answer.ok) throw new Error(`Signing in as ${username} answered ${answer.status}`);
  return (await answer.json()) as { jwt: string; refreshToken: string };
}

/**
 * The database of `url` with another name on the same server (`suffix` added), created when
 * missing; dropped first when `fresh`.
 */
export async function siblingDatabase(url: string, suffix: string, { fresh = false } = {}) {
  const other = new URL(url);
  other.pathname = `${other.pathname}${suffix}`;
  const name = other.pathname.slice(1);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  if (fresh) await admin.query(`drop database if exists "${name}" with (force)`);
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
  if (!rowCount) await admin.query(`create database "${name}"`);
  await admin.end();
  return other.href;
}
