import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startBookService, volume } from '../__tests__/server/helpers/bookService';
import { OIDC_CLIENT, startOidcProvider } from '../__tests__/server/helpers/oidcProvider';
import { E2E_ADMIN_PASSWORD } from './accounts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server (`npm run build` first) on a free port with a fresh data folder,
 * with a real OpenID Connect provider on loopback standing in for Google, and hands its
 * address to the tests in E2E_BASE_URL. Returns the teardown.
 */
export default async function globalSetup() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'e2e-data-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider(`${baseUrl}/api/auth/google/callback`);
  // The book lookup stand-in finds one edition of whatever title it is asked for.
  const bookService = await startBookService();
  bookService.answer(200, {
    items: [
      volume('The Hobbit, or There and Back Again', {
        authors: ['J. R. R. Tolkien', 'Christopher Tolkien'],
        description: 'A hobbit goes on an unexpected journey.',
        ids: { ISBN_10: '0261102214', ISBN_13: '9780261102217' },
      }),
    ],
  });
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: baseUrl,
      GOOGLE_ISSUER: provider.issuer,
      GOOGLE_CLIENT_ID: OIDC_CLIENT.clientId,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.clientSecret,
      BOOKS_API_URL: bookService.url,
      // Every test signs in from the same address, and as the same few accounts: the sign-in
      // limits (per address, and a password's budget per account) would stop the run. The
      // server tests hold both to their numbers.
      AUTH_RATE_LIMIT: '1000',
      PASSWORD_ATTEMPTS_PER_USER: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => server.on('exit', resolve));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('The server did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.env.E2E_BASE_URL = baseUrl;

  return async () => {
    server.kill('SIGTERM');
    await exited;
    await provider.close();
    await bookService.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
