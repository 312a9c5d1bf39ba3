/**
 * `npm run cluster`: CLUSTER_SIZE (2) built API servers behind nginx on CLUSTER_PORT (8080),
 * on the PostgreSQL of DATABASE_URL and the Redis of REDIS_URL; Ctrl-C stops them all.
 */
import { startCluster } from './cluster';

async function main() {
  const size = Number(process.env.CLUSTER_SIZE ?? 2);
  const port = Number(process.env.CLUSTER_PORT ?? 8080);
  if (!Number.isInteger(size) || size < 1)
    throw new Error('CLUSTER_SIZE must be a whole number ≥ 1');
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error('CLUSTER_PORT must be a port');
  if (!process.env.REDIS_URL)
    console.warn('REDIS_URL is unset: each server counts sign-in attempts on its own');
  // The servers log at the server's own default level, not the benchmark helper's.
  const cluster = await startCluster({
    size,
    port,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
  });
  console.log(`${size} servers behind nginx at ${cluster.base} (Ctrl-C stops them all)`);
  const stop = async () => {
    await cluster.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
