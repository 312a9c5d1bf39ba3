import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fromPglite, pgliteExtensions } from '@server/db/client';
import { projectRoot } from '@server/paths';
import { createTestPostgres } from './helpers/testDatabase';

/** The real server process (server/main.ts run by tsx), with its output collected. */
class ServerProcess {
  readonly child: ChildProcess;
  output = '';
  readonly exited: Promise<number | null>;

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'info', PORT: '0', ...env },
    });
    this.child.stdout!.on('data', (chunk) => (this.output += chunk));
    this.child.stderr!.on('data', (chunk) => (this.output += chunk));
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Resolves once the output matches, with the match; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this.output.match(pattern);
        if (match) {
          clearInterval(timer);
          resolve(match);
        } else if (this.child.exitCode !== null) {
          clearInterval(timer);
          reject(
            new Error(`exited with ${this.child.exitCode} before ${pattern}:\n${this.output}`),
          );
        }
      };
      const timer = setInterval(check, 20);
    });
  }

  async baseUrl(): Promise<string> {
    return (await this.waitFor(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
  }
}

function tempDataDir() {
  return mkdtempSync(path.join(os.tmpdir(), 'data-'));
}

async function countUsers(dataDir: string): Promise<number> {
  const client = await PGlite.create(path.join(dataDir, 'pglite'), {
    extensions: pgliteExtensions,
  });
  const { rows } = await client.query<{ n: number }>('select count(*)::int as n from users');
  await client.close();
  return rows[0]!.n;
}

describe('the server process', () => {
  it('refuses a bad variable at once, with one line naming it', async () => {
    const server = new ServerProcess({ PORT: 'abc' });
    expect(await server.exited).toBe(1);
    expect(server.output.trim()).toBe('Invalid PORT ("abc"): must be a number');
  });

  it('serves, refuses a second server on its DATA_DIR, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = tempDataDir();
    // A few jobs: seeding the default 10,000 on a busy machine took most of the test's time.
    const first = new ServerProcess({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'admin-password',
      INSTANCE_NAME: 'first',
      SEED_JOBS: '1000',
    });
    const url = await first.baseUrl();
    expect(await (await fetch(`${url}/api/health`)).json()).toEqual({
      status: 'ok',
      db: 'pglite',
      instance: 'first',
    });

    const second = new ServerProcess({ DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output).toMatch(/DATA_DIR .* is in use by another server/);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output).toContain('Database closed');
    expect(await countUsers(dataDir)).toBe(3);

    // The data folder opens again, as it was: nothing re-seeded.
    const again = new ServerProcess({ DATA_DIR: dataDir });
    await again.baseUrl();
    expect(again.output).not.toContain('Seeding the database');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, 60_000);

  it('answers every request in flight when told to stop under load', async () => {
    const server = new ServerProcess({
      DATA_DIR: tempDataDir(),
      ADMIN_PASSWORD: 'admin-password',
      SEED_JOBS: '2000',
      // Shedding load is another test's: here every request must be answered.
      MAX_EVENT_LOOP_DELAY_MS: '0',
    });
    const url = await server.baseUrl();
    const signIn = await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'admin-password' }),
    });
    const { jwt } = (await signIn.json()) as { jwt: string };
    const answered: (number | string)[] = [];
    const failures: string[] = [];
    let stopped = false;
    // 40 clients on keep-alive connections, each sending its next request on an answer.
    const client = async (n: number) => {
      for (let i = 0; !stopped || i < 1; i++) {
        try {
          const res = await fetch(
            `${url}/api/LIMS/jobs?filter=${n % 2 ? 'pass' : ''}&page=${1 + (i % 5)}`,
            {
              headers: { authorization: `Bearer ${jwt}` },
            },
          );
          const body = await res.text();
          answered.push(res.status === 200 ? 200 : `${res.status} ${body.slice(0, 80)}`);
        } catch (error) {
          const code = ((error as Error).cause as { code?: string } | undefined)?.code;
          // A new connection refused once the server stopped listening: never in flight.
          if (code === 'ECONNREFUSED') return;
          failures.push(String(code ?? error));
          return;
        }
      }
    };
    const clients = Array.from({ length: 40 }, (_, n) => client(n));
    // Under load for a while (past the first seconds, when the fresh embedded database
    // stalls the loop now and then: see the note on issue 17), then told to stop.
    while (answered.length < 1000) await new Promise((resolve) => setTimeout(resolve, 10));
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    stopped = true;
    await Promise.all(clients);
    const tally = (list: (string | number)[]) =>
      Object.fromEntries([...new Set(list)].map((k) => [k, list.filter((v) => v === k).length]));
    expect({
      exit,
      failures: tally(failures),
      notOk: tally(answered.filter((status) => status !== 200)),
    }).toEqual({ exit: 0, failures: {}, notOk: {} });
  }, 60_000);

  it('finishes seeding on the next start after being killed in the middle of it', async () => {
    const dataDir = tempDataDir();
    const seeded = { DATA_DIR: dataDir, ADMIN_PASSWORD: 'admin-password', SEED_JOBS: '2000' };
    const killed = new ServerProcess(seeded);
    await killed.waitFor(/Seeding the database/);
    killed.child.kill('SIGKILL');
    await killed.exited;

    const restarted = new ServerProcess(seeded);
    const url = await restarted.baseUrl();
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    expect(await countUsers(dataDir)).toBe(3);
  }, 60_000);

  it('reports a failed start without the SQL or its parameters (a password hash)', async () => {
    // A migrated database whose users table refuses every insert: seeding fails.
    const dataDir = tempDataDir();
    const client = await PGlite.create(path.join(dataDir, 'pglite'), {
      extensions: pgliteExtensions,
    });
    await fromPglite(client).migrate();
    await client.exec(`
      create function refuse_insert() returns trigger language plpgsql
        as $$ begin raise exception 'no new users'; end $$;
      create trigger refuse_insert before insert on users
        for each row execute function refuse_insert();
    `);
    await client.close();

    const server = new ServerProcess({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'admin-password' });
    expect(await server.exited).toBe(1);
    expect(server.output).toContain('The server could not start');
    expect(server.output).toMatch(/Database error P0001/);
    expect(server.output).not.toMatch(/argon2|insert into|params/i);
    // Migrating in this process, then starting another: as long as the test before on a busy machine.
  }, 60_000);

  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'uses the PostgreSQL server of DATABASE_URL instead of the embedded database',
    async () => {
      const { url: databaseUrl, drop } = await createTestPostgres();
      const server = new ServerProcess({ DATABASE_URL: databaseUrl, DATA_DIR: tempDataDir() });
      const url = await server.baseUrl();
      expect(await (await fetch(`${url}/api/health`)).json()).toEqual({
        status: 'ok',
        db: 'postgres',
        // Host and process when not named.
        instance: `${os.hostname()}-${server.child.pid}`,
      });
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await drop();
    },
  );
});
