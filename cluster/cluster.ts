/**
 * Several API servers behind nginx, on one PostgreSQL (DATABASE_URL) and Redis
 * (REDIS_URL): what `npm run cluster` runs and what `npm run test:cluster` tests. Each
 * server is the built one (`dist/server/main.js`), named `api-1` … `api-N`
 * (INSTANCE_NAME), on a free port, trusting the proxy on loopback for the client address.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../server/paths';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Resolves once `url` answers 2xx; rejects when `child` exits first or after 60 s. */
async function waitUntilAnswering(url: string, child: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface ClusterOptions {
  size: number;
  /** nginx's port on 127.0.0.1. */
  port: number;
  /** The servers' environment (DATABASE_URL, REDIS_URL, …), over this process's. */
  env: NodeJS.ProcessEnv;
}

export async function startCluster({ size, port, env }: ClusterOptions) {
  if (!env.DATABASE_URL)
    throw new Error('The cluster needs DATABASE_URL: its servers share one PostgreSQL');
  const base = `http://127.0.0.1:${port}`;
  const children: ChildProcess[] = [];
  let nginx: ChildProcess | undefined;
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        // nginx stops gracefully on SIGQUIT; the servers on SIGTERM.
        child.kill(child === nginx ? 'SIGQUIT' : 'SIGTERM');
        await exited;
      }),
    );
  };
  try {
    const servers = [];
    for (let i = 1; i <= size; i++) {
      const serverPort = await freePort();
      const child = spawn(process.execPath, [path.join(projectRoot, 'dist/server/main.js')], {
        env: {
          ...process.env,
          ...env,
          PORT: String(serverPort),
          HOST: '127.0.0.1',
          INSTANCE_NAME: `api-${i}`,
          TRUST_PROXY: 'loopback',
          PUBLIC_URL: base,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      children.push(child);
      servers.push({ port: serverPort, child });
    }
    // One at a time would be slower; together they take turns on migrations and seeding
    // (advisory locks).
    await Promise.all(
      servers.map(({ port: p, child }) =>
        waitUntilAnswering(`http://127.0.0.1:${p}/api/health`, child),
      ),
    );

    const prefix = mkdtempSync(path.join(os.tmpdir(), 'cluster-nginx-'));
    for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
      mkdirSync(path.join(prefix, dir));
    const config = readFileSync(path.join(projectRoot, 'cluster', 'nginx.conf'), 'utf8')
      .replaceAll('{{PREFIX}}', prefix)
      .replaceAll('{{PORT}}', String(port))
      .replaceAll(
        '{{UPSTREAMS}}',
        servers.map(({ port: p }) => `    server 127.0.0.1:${p};`).join('\n'),
      );
    const configFile = path.join(prefix, 'nginx.conf');
    writeFileSync(configFile, config);
    nginx = spawn('nginx', ['-p', prefix, '-c', configFile], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(nginx);
    await waitUntilAnswering(`${base}/api/health`, nginx);
    return { base, servers: servers.map(({ port: p }) => `http://127.0.0.1:${p}`), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
