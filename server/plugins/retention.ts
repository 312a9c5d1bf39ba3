import type { FastifyInstance } from 'fastify';
import type { RetentionPolicy } from '../config';
import { pruneRetained } from '../lib/retention';

const HOUR_MS = 3_600_000;

/**
 * Prunes history and audit events past the retention policy once the server is ready,
 * then every hour (one pass at a time; a failed pass is logged and tried again the next
 * hour). Change events are pruned whatever the policy.
 */
export async function retentionPlugin(
  app: FastifyInstance,
  { policy }: { policy: RetentionPolicy },
) {
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function pass() {
    try {
      const pruned = await pruneRetained(app.db, policy, app.now());
      if (pruned.versions + pruned.auditEvents + pruned.changeEvents > 0)
        app.log.info(pruned, 'Pruned versions and events past their retention');
    } catch (error) {
      app.log.error({ err: error }, 'Pruning versions and audit events failed');
    }
  }
  const run = () => {
    running ??= pass().finally(() => (running = undefined));
  };

  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, HOUR_MS).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
