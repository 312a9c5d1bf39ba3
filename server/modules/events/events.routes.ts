import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@common/messages';
import { apiErrorSchema } from '@common/schemas/apiError';
import { type ChangeEvent, presenceInputSchema, type ReadyEvent } from '@common/schemas/events';
import type { Config } from '../../config';
import { forbidden } from '../../lib/errors';
import { SESSIONS_ENDED_CHANNEL } from '../auth/endedSessions';
import { limitAttempts } from '../../lib/rateLimiter';
import { EventHub, type EventStream, READ_ROUTE, sseFrame } from './eventHub';
import { recordReader } from '../records/records.service';
import { POLICY_ROUTES } from '../records/recordPolicies';
import {
  announcePresence,
  CHANGES_CHANNEL,
  changesSince,
  PRESENCE_CHANNEL,
} from './events.service';

/** Past this much unsent text, a client is too slow: its stream closes, and it catches up on reconnecting. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** How soon a client reconnects after a drop (the SSE `retry`); ours backs off further. */
const RETRY_MS = 1000;
/** `Last-Event-ID`: an event id. */
const EVENT_ID = /^\d{1,15}$/;

/**
 * `GET /api/events`, the live event stream (Server-Sent Events, DESIGN: Live updates), and
 * `POST /api/events/presence`. Changes come from the change_events trigger's NOTIFY, so a
 * change made through any server reaches every stream.
 */
export const eventsRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  const hub = new EventHub({
    maxStreamsPerUser: config.eventStreamsPerUser,
    identityOf: (userId) => app.identityOf(userId),
    sessionEnded: (sessionId) => app.sessionEnded(sessionId),
    mayCall: (user, verb, path) => app.mayCall(user, verb, path),
    recordReader: async ({ entityName, id }) => {
      const reads = await recordReader(app.db, entityName!, id);
      return async (user) =>
        (await reads({
          user: { id: user._id, username: user.username },
          granted: (action) => app.rolesAllowed(user, ...POLICY_ROUTES[action]),
        })) !== false;
    },
    onError: (error) => app.log.error({ err: error }, 'Sending an event failed'),
  });
  const heard = (publish: (payload: string) => Promise<void>) => (payload: string) => {
    publish(payload).catch((error: unknown) =>
      app.log.error({ err: error }, 'A notification could not be sent on'),
    );
  };
  // After the listening connection dropped, events may have been missed.
  const onReconnect = () => hub.reset();
  await app.pgEvents.subscribe(CHANGES_CHANNEL, {
    onNotify: heard((payload) => hub.publishChange(JSON.parse(payload) as ChangeEvent)),
    onReconnect,
  });
  await app.pgEvents.subscribe(PRESENCE_CHANNEL, {
    onNotify: heard((payload) => hub.publishPresence(JSON.parse(payload))),
    // Nothing to catch up on: every editor repeats their presence within PRESENCE_BEAT_MS.
    onReconnect: () => {},
  });
  // A session that ends closes its streams at once (its requests are refused from then on).
  await app.pgEvents.subscribe(SESSIONS_ENDED_CHANNEL, {
    onNotify: (sessionId) => hub.endSession(sessionId),
    // A session that ended meanwhile: its streams close at their next event.
    onReconnect: () => {},
  });
  const heartbeat = setInterval(() => hub.heartbeat(), config.eventsHeartbeatMs);
  heartbeat.unref();
  // Ends of presence still on their way to the database.
  const ending = new Set<Promise<void>>();
  /**
   * A stream closed (its client left, or this server ended it): the presence announced with
   * it ends now, on every server, instead of when it expires.
   */
  const endPresenceOf = (stream: EventStream) => {
    for (const stop of hub.presenceEndedBy(stream)) {
      const sent = announcePresence(app.db, stop)
        .catch((error: unknown) =>
          app.log.error({ err: error }, 'The end of a presence could not be sent'),
        )
        .finally(() => ending.delete(sent));
      ending.add(sent);
    }
  };
  // Open streams would keep the server from closing.
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    hub.closeAll();
  });
  // Fastify runs this once every connection has closed, so every stream's 'close' has
  // begun its ends of presence, and before the database plugin's: they still go out.
  app.addHook('onClose', async () => {
    await Promise.all(ending);
  });

  app.get(
    '/events',
    {
      config: { signedIn: true },
      schema: {
        response: {
          // Written to the socket as events happen: the schema only documents it.
          200: {
            description:
              'Server-sent events: `ready` once caught up (`{ streamId }`: name it in POST /api/events/presence, and the presence ends when this stream closes), `change` (a ChangeEvent as JSON), `permissions`, `presence` (someone else is editing an item, or stopped) and `reset` (refetch everything)',
            content: { 'text/event-stream': { schema: z.string() } },
          },
          400: apiErrorSchema,
          401: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      // A stream costs the server memory and a catching up: opening one again and again
      // (a script, not a tab) is refused.
      await limitAttempts(
        app.rateLimitStore,
        [{ key: `events:user:${user._id}`, max: config.eventStreamsPerUser * 3 }],
        60_000,
      );
      const record = await app.identityOf(user._id);
      const lastHeader = request.headers['last-event-id'];
      const lastEventId =
        typeof lastHeader === 'string' && EVENT_ID.test(lastHeader)
          ? Number(lastHeader)
          : undefined;

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, no-transform',
        connection: 'keep-alive',
        // nginx: pass each event on at once.
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: ${RETRY_MS}\n\n`);
      const stream: EventStream = {
        id: randomUUID(),
        userId: user._id,
        sessionGeneration: record?.sessionGeneration ?? -1,
        sessionId: request.sessionId,
        write: (text) => {
          // Gone (its 'close' has not reached the hub yet): nothing more to send.
          if (raw.destroyed || raw.writableEnded) return false;
          raw.write(text);
          return raw.writableLength < MAX_BUFFERED_BYTES;
        },
        close: () => raw.end(),
      };
      raw.on('close', () => {
        hub.remove(stream);
        endPresenceOf(stream);
      });

      // In the hub's order: what the client missed, then it hears what comes next. Should the
      // catching up fail (the database away), the stream ends and the client reconnects.
      await hub
        .inOrder(async () => {
          if (raw.destroyed) return;
          if (lastEventId !== undefined) {
            const missed = await changesSince(app.db, lastEventId);
            if (!missed) stream.write(sseFrame('reset', {}));
            for (const event of missed ?? []) {
              const frame = hub.frameFor(user, event);
              if (frame && (await (await hub.readerOf(event))(user))) stream.write(frame);
            }
          }
          hub.add(stream);
          const ready: ReadyEvent = { streamId: stream.id };
          stream.write(sseFrame('ready', ready));
          for (const frame of await hub.presenceNow(user)) stream.write(frame);
        })
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'An event stream could not catch up');
          raw.end();
        });
    },
  );

  app.post(
    '/events/presence',
    {
      config: { signedIn: true },
      schema: {
        body: presenceInputSchema,
        response: { 204: z.null(), 400: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const { resource } = request.body;
      if (!app.mayCall(user, 'GET', READ_ROUTE[resource]))
        throw forbidden(messages.server.forbidden);
      await announcePresence(app.db, {
        ...request.body,
        actorId: user._id,
        actor: user.username,
      });
      return reply.status(204).send(null);
    },
  );
};
