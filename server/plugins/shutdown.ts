import { Server, type Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The first half of a graceful stop (then `close()`): accepts no new connections, goes
     * on answering requests that arrive on open ones, each answer closing its connection,
     * and resolves once only event streams are left open, or after `timeoutMs`.
     */
    drain(timeoutMs?: number): Promise<void>;
  }
}

/**
 * Graceful stop. Fastify's `close()` alone answers 503 to requests that arrive on open
 * connections while it closes, and drops keep-alive connections it deems idle even when
 * their next request is on its way (on the embedded database, whose queries hold the event
 * loop, that window is wide): under load, 10–20 % of requests sent were refused or reset.
 * Here each connection ends after an answer, or after Node's keep-alive timeout (5 s)
 * when it stays idle, before `close()` runs.
 */
export const shutdownPlugin = fp(
  async (app: FastifyInstance) => {
    let draining = false;
    const sockets = new Set<Socket>();
    // Answers not finished yet; a hijacked one (an event stream) counts as sent.
    const open = new Set<FastifyReply>();
    let drained: (() => void) | undefined;
    const check = () => {
      if (!draining) return;
      const streams = new Set([...open].filter((reply) => reply.sent).map((r) => r.raw.socket));
      if ([...sockets].every((socket) => streams.has(socket))) drained?.();
    };

    app.server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => {
        sockets.delete(socket);
        check();
      });
    });
    app.addHook('onRequest', async (_request, reply) => {
      open.add(reply);
      reply.raw.once('close', () => {
        open.delete(reply);
        check();
      });
    });
    app.addHook('onSend', async (_request, reply) => {
      if (draining) reply.header('connection', 'close');
    });

    app.decorate('drain', async (timeoutMs = 10_000) => {
      draining = true;
      // net.Server's close, not http.Server's: that one also drops idle keep-alive sockets.
      Server.prototype.close.call(app.server);
      const done = new Promise<void>((resolve) => (drained = resolve));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      check();
      await Promise.race([done, late]);
      clearTimeout(timer);
    });
  },
  { name: 'shutdown' },
);
