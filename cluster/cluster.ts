/**
 * Several API servers behind nginx, on one PostgreSQL (DATABASE_URL) and Redis
 * (REDIS_URL): what `npm run cluster` runs and what `npm run test:cluster` tests. Each
 * server is the built one (`dist/server/main.js`), named `api-1` … `api-N`
 * (INSTANCE_NAME), on a free port, trusting the proxy on loopback for the client address.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { startBuiltServer } from '../bench/builtServer';
import { projectRoot } from '../server/paths';

/** Resolves once nginx answers for the servers; rejects when it exits first or after 60 s. */
async function waitForNginx(url: string, nginx: ChildProcess) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (nginx.exitCode !== null) throw new Error(`nginx exited with ${nginx.exitCode}`);
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
  if (!(env.DATABASE_URL ?? process.env.DATABASE_URL))
    throw new Error('The cluster needs DATABASE_URL: its servers share one PostgreSQL');
  const base = `http://127.0.0.1:${port}`;
  const servers: Awaited<ReturnType<typeof startBuiltServer>>[] = [];
  let nginx: ChildProcess | undefined;
  const stop = async () => {
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const exited = once(nginx, 'exit');
      // nginx stops gracefully on SIGQUIT.
      nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(servers.map((server) => server.stop()));
  };
  try {
    // Started together: they take turns on migrations and seeding (advisory locks).
    const started = await Promise.allSettled(
      Array.from({ length: size }, (_, i) =>
        startBuiltServer({
          ...env,
          HOST: '127.0.0.1',
          INSTANCE_NAME: `api-${i + 1}`,
          TRUST_PROXY: 'loopback',
          PUBLIC_URL: base,
        }),
      ),
    );
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;

    const prefix = mkdtempSync(path.join(os.tmpdir(), 'cluster-nginx-'));
    for (const dir of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
      mkdirSync(path.join(prefix, dir));
    const config = readFileSync(path.join(projectRoot, 'cluster', 'nginx.conf'), 'utf8')
      .replaceAll('{{PREFIX}}', prefix)
      .replaceAll('{{PORT}}', String(port))
      .replaceAll(
        '{{UPSTREAMS}}',
        servers.map((server) => `    server ${new URL(server.base).host};`).join('\n'),
      );
    const configFile = path.join(prefix, 'nginx.conf');
    writeFileSync(configFile, config);
    nginx = spawn('nginx', ['-p', prefix, '-c', configFile], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitForNginx(`${base}/api/health`, nginx);
    return { base, servers: servers.map((server) => server.base), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
