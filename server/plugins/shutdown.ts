import { Server, type Socket } from 'node:net';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The first half of a graceful stop (then `close()`): accepts no new connections, goes
     * on answering requests that arrive on open ones, each answer closing its connection,
     * and resolves once only event streams and idle connections are left, or after
     * `timeoutMs`.
     */
    drain(timeoutMs?: number): Promise<void>;
  }
}

/**
 * Graceful stop. Fastify's `close()` alone answers 503 to requests that arrive on open
 * connections while it closes, and drops keep-alive connections it deems idle even when
 * their next request is on its way (on the embedded database, whose queries hold the event
 * loop, that window is wide): under load, 10–20 % of requests sent were refused or reset.
 * Here each connection ends after an answer; those left idle are dropped by `close()` once
 * no request has been in flight for QUIET_MS.
 */
/** How long no request may be in flight before idle keep-alive sockets count as left. */
const QUIET_MS = 2000;

export const shutdownPlugin = fp(
  async (app: FastifyInstance) => {
    let draining = false;
    const sockets = new Set<Socket>();
    // Answers not finished yet; a hijacked one (an event stream) counts as sent.
    const open = new Set<FastifyReply>();
    const answering = () => [...open].some((reply) => !reply.sent);
    let drained: (() => void) | undefined;
    let quiet: NodeJS.Timeout | undefined;
    const check = () => {
      if (!draining) return;
      clearTimeout(quiet);
      const streams = new Set([...open].filter((reply) => reply.sent).map((r) => r.raw.socket));
      if ([...sockets].every((socket) => streams.has(socket))) return drained?.();
      // Keep-alive sockets their clients leave idle: once nothing has been asked for a
      // while, none has a request on its way, and close() may drop them.
      if (!answering()) quiet = setTimeout(() => !answering() && drained?.(), QUIET_MS);
    };

    app.server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => {
        sockets.delete(socket);
        check();
      });
    });
    app.addHook('onRequest', async (_request, reply) => {
      clearTimeout(quiet);
      open.add(reply);
      reply.raw.once('close', () => {
        open.delete(reply);
        check();
      });
    });
    app.addHook('onSend', async (_request, reply) => {
      if (draining) reply.header('connection', 'close');
    });

    app.decorate('drain', async (timeoutMs = 30_000) => {
      // net.Server's close, not http.Server's: that one also drops idle keep-alive sockets.
      // Right after an I/O phase (setImmediate), when libuv has just accepted every pending
      // connection: closing with some still in the backlog resets them, requests and all.
      await new Promise((resolve) => setImmediate(resolve));
      Server.prototype.close.call(app.server);
      // Only now do answers close their connections: a client told so before would connect
      // again at once, into the backlog that closing the listener resets.
      draining = true;
      const done = new Promise<void>((resolve) => (drained = resolve));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      check();
      await Promise.race([done, late]);
      clearTimeout(timer);
      clearTimeout(quiet);
    });
  },
  { name: 'shutdown' },
);
