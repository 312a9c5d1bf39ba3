/**
 * Starts the server: reads the configuration, builds the app, listens, and shuts down
 * cleanly on SIGTERM or SIGINT (stop accepting, finish in-flight requests, close the
 * database so the embedded one is never left half-written), then exits 0.
 * Bad configuration or a failed start exits 1 with a one-line message.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirInUseError } from './db/dataDirLock';

let app: FastifyInstance | undefined;
let stopping = false;

async function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  // A signal during start-up is handled once the app is built (see start()).
  if (!app) return;
  app.log.info({ signal }, 'Shutting down');
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
    console.error('The server could not start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
