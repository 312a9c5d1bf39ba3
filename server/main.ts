/**
 * Starts the server: reads the configuration, builds the app, listens, and shuts down
 * cleanly on SIGTERM or SIGINT (stop accepting, answer every request already sent, close
 * the database so the embedded one is never left half-written), then exits 0.
 * Bad configuration or a failed start exits 1 with a one-line message.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './db/dataDirLock';
import { errorForLog } from './lib/logSerializers';

let app: FastifyInstance | undefined;
let stopping = false;

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  // A signal during start-up is handled once the app is built (see start()).
  if (!app) return;
  app.log.info({ signal }, 'Shutting down');
  await app.drain();
  await app.close();
  process.exit(0);
}

async function start() {
  const config = loadConfig();
  process.once('SIGTERM', (signal) => void stop(signal));
  process.once('SIGINT', (signal) => void stop(signal));
  app = await buildApp(config);
  if (stopping) {
    stopping = false;
    await stop('SIGTERM');
    return;
  }
  await app.listen({ port: config.port, host: config.host });
}

start().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    // One line, as the log would hold it: a database error's own message is its SQL and
    // parameters (the seed's password hashes among them), so only its class and code show.
    const logged: Partial<ReturnType<typeof errorForLog>> = errorForLog(error);
    delete logged.stack;
    console.error('The server could not start:', JSON.stringify(logged));
  }
  process.exit(1);
});
