import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { NotificationConnection } from '../db/client';

/** One subscriber of a NOTIFY channel. */
export interface PgEventSubscriber {
  /** A NOTIFY on the channel, from any server on this database, with its payload ('' for none). */
  onNotify(payload: string): void;
  /**
   * The listening connection dropped and is back: notifications sent meanwhile are lost,
   * so whatever they would have refreshed must be refreshed now.
   */
  onReconnect(): void;
}

/** The process's PostgreSQL notifications, as `app.pgEvents`. */
export interface PgEvents {
  /**
   * Calls the subscriber for every NOTIFY on `channel`. Resolves once the channel is
   * listened to, so a change committed after that reaches the subscriber (or, should the
   * connection drop first, its `onReconnect`). Resolves to the function that unsubscribes.
   * @throws when `channel` is not a lower-case SQL identifier (PGlite takes no other).
   */
  subscribe(channel: string, subscriber: PgEventSubscriber): Promise<() => void>;
  /**
   * Resolves once every notification committed before the call has reached its
   * subscribers, so that a request acts on every change made before it arrived, through
   * whichever server: NOTIFY reaches a listener asynchronously, and a client that heard
   * one server answer a change could otherwise ask another before it heard of it. Calls
   * that come while a round trip waits to be sent share it. Never rejects: with the
   * connection down, the reconnection resyncs the subscribers.
   */
  heard(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    pgEvents: PgEvents;
  }
}

/**
 * Channel names: PGlite sends its LISTEN unquoted and forgets a mixed-case channel's
 * callbacks when unlistening, so only lower-case identifiers work the same on both.
 */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The first wait before reconnecting; it doubles with each failed attempt, up to the max. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2000;

/**
 * The process's one LISTEN connection (DESIGN, Scale-out): every channel any part of the
 * server subscribes to is listened to on it, and each notification is handed to that
 * channel's subscribers. When the connection drops, it reconnects with backoff, listens
 * again to every channel, and tells every subscriber it may have missed notifications.
 */
export const pgEventsPlugin = fp(
  async (app: FastifyInstance) => {
    const subscribers = new Map<string, Set<PgEventSubscriber>>();
    let connection: NotificationConnection | undefined;
    let retry: NodeJS.Timeout | undefined;
    let closed = false;

    const dispatch = (channel: string, payload: string) => {
      for (const subscriber of [...(subscribers.get(channel) ?? [])]) {
        try {
          subscriber.onNotify(payload);
        } catch (error) {
          app.log.error({ err: error, channel }, 'A notification subscriber failed');
        }
      }
    };

    /**
     * Opens a connection and listens to every subscribed channel on it. Resolves to false
     * when the app closed meanwhile: the connection is then closed again, unused.
     */
    const connect = async (): Promise<boolean> => {
      // This attempt's connection once open: a drop before that fails the attempt instead.
      const attempt: { opened?: NotificationConnection } = {};
      const opened = (attempt.opened = await app.database.openNotificationConnection({
        onNotification: dispatch,
        onEnd: () => {
          if (closed || !attempt.opened || connection !== attempt.opened) return;
          connection = undefined;
          app.log.warn('The notification connection dropped; reconnecting');
          reconnect(0);
        },
      }));
      // onClose ran while this was opening (a reconnection): it could not close what did
      // not exist yet, so nobody else would close this one.
      if (closed) {
        await opened.close().catch(() => {});
        return false;
      }
      // From here on, a new subscriber listens on this connection itself; those already
      // there are listened to below.
      connection = opened;
      try {
        await Promise.all([...subscribers.keys()].map((channel) => opened.listen(channel)));
      } catch (error) {
        // The caller retries; a retry the drop scheduled meanwhile would be a second one.
        clearTimeout(retry);
        connection = undefined;
        await opened.close().catch(() => {});
        throw error;
      }
      // Closed while listening: onClose closed this connection; the database is closing.
      return !closed;
    };

    const reconnect = (attempt: number) => {
      clearTimeout(retry);
      retry = setTimeout(
        () => {
          connect().then(
            (open) => {
              // The app closed meanwhile: no subscriber may resync on a closing database.
              if (!open) return;
              app.log.info('The notification connection is back');
              for (const set of subscribers.values()) {
                for (const subscriber of [...set]) {
                  try {
                    subscriber.onReconnect();
                  } catch (error) {
                    app.log.error({ err: error }, 'A notification subscriber failed to resync');
                  }
                }
              }
            },
            (error: unknown) => {
              if (closed) return;
              app.log.warn({ err: error, attempt }, 'Reconnecting for notifications failed');
              reconnect(attempt + 1);
            },
          );
        },
        Math.min(FIRST_RETRY_MS * 2 ** attempt, MAX_RETRY_MS),
      );
      // Retrying must not keep a closing process alive.
      retry.unref();
    };

    await connect();

    // The round trip later callers may still share (not yet sent), and the latest one.
    let unsent: Promise<void> | undefined;
    let latest: Promise<void> = Promise.resolve();
    const heard = () => {
      if (unsent) return unsent;
      const roundTrip = latest.then(async () => {
        unsent = undefined;
        await connection
          ?.sync()
          .catch((error: unknown) =>
            app.log.warn({ err: error }, 'Could not sync the notification connection'),
          );
      });
      unsent = latest = roundTrip;
      return roundTrip;
    };

    app.decorate('pgEvents', {
      heard,
      subscribe: async (channel, subscriber) => {
        if (!CHANNEL_NAME.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
        let set = subscribers.get(channel);
        if (!set) subscribers.set(channel, (set = new Set()));
        set.add(subscriber);
        const current = connection;
        // Listening again is harmless, and waits for a first subscriber's LISTEN in flight.
        // Without a connection, the reconnection listens to the channel.
        if (current) {
          try {
            await current.listen(channel);
          } catch (error) {
            // The connection dropped meanwhile: the reconnection listens and resyncs.
            if (connection === current) {
              set.delete(subscriber);
              throw error;
            }
          }
        }
        return () => {
          if (!set.delete(subscriber) || set.size > 0) return;
          subscribers.delete(channel);
          connection
            ?.unlisten(channel)
            .catch((error: unknown) =>
              app.log.warn({ err: error, channel }, 'Could not stop listening'),
            );
        };
      },
    } satisfies PgEvents);

    app.addHook('onClose', async () => {
      closed = true;
      clearTimeout(retry);
      // The database may already be gone (it failed, or its owner closed it first).
      await connection
        ?.close()
        .catch((error: unknown) =>
          app.log.warn({ err: error }, 'Could not close the notification connection'),
        );
    });
  },
  { name: 'pgEvents', dependencies: ['db'] },
);
