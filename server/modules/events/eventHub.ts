import { PRESENCE_TTL_MS } from '@common/constants';
import type { Identity } from '@common/schemas/auth';
import type { ChangeEvent, ChangeResource } from '@common/schemas/events';
import type { IdentityRecord } from '../auth/session.service';
import type { AnnouncedPresence } from './events.service';

/** The route whose GET lets a user hear of changes to each kind of item. */
export const READ_ROUTE: Record<ChangeResource, string> = {
  books: '/api/books',
  users: '/api/users',
  roles: '/api/roles',
  entities: '/api/entities',
  'entity-records': '/api/entity-records/:entityName',
  routes: '/api/routes',
};

/** A client's open event stream. */
export interface EventStream {
  /** Told to its client in `ready`: presence announced with it ends when the stream closes. */
  id: string;
  userId: string;
  /** The session generation its token was issued in: a later one (password set) ends it. */
  sessionGeneration: number;
  /** The session of its token (`sid`), if it names one: the stream ends with it. */
  sessionId: string | undefined;
  /** Writes SSE text; answers false once the client is too far behind (then it is closed). */
  write(text: string): boolean;
  close(): void;
}

interface EventHubDeps {
  /** How many streams one user may hold open here: a new one closes their oldest. */
  maxStreamsPerUser: number;
  identityOf(userId: string): Promise<IdentityRecord | undefined>;
  sessionEnded(sessionId: string | undefined): boolean;
  mayCall(user: Identity, verb: string, path: string): boolean;
  /**
   * For a record's change or presence, whom its entity's record policies let read it: a
   * check per user, made once per event.
   */
  recordReader(event: RecordEvent): Promise<(user: Identity) => Promise<boolean>>;
  onError(error: unknown): void;
}

/** What names a record in an event. */
type RecordEvent = { resource: ChangeResource; id: string; entityName: string | null };

/** A check that lets every user through (an event of anything but a record). */
const everyone = async () => true;

/** One SSE message. */
export const sseFrame = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The server's open event streams, and who may hear what (DESIGN, Live updates). Each
 * change is checked against each stream's user as it is sent: their roles now (the
 * identity cache, cleared by NOTIFY on any user or role change) and the route permissions
 * now, so a permission taken away applies to the very next event.
 */
export class EventHub {
  private readonly streams = new Set<EventStream>();
  /**
   * Who is editing what, as heard from every server (by item and editor), until their
   * presence expires: a stream that opens hears it at once, not at the next repeat.
   */
  private readonly editing = new Map<string, { event: AnnouncedPresence; until: number }>();
  /** Events go out one after another, in the order heard, so ids only grow on a stream. */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: EventHubDeps) {}

  get size(): number {
    return this.streams.size;
  }

  /**
   * Adds a stream; when its user already has as many as they may, their oldest is closed. A
   * stream whose session ended while it was opening is closed instead.
   */
  add(stream: EventStream): void {
    if (this.deps.sessionEnded(stream.sessionId)) {
      stream.close();
      return;
    }
    const own = [...this.streams].filter((open) => open.userId === stream.userId);
    const excess = Math.max(0, own.length + 1 - this.deps.maxStreamsPerUser);
    // A set keeps its order of insertion: the first of a user's are their oldest.
    for (const oldest of own.slice(0, excess)) this.end(oldest);
    this.streams.add(stream);
  }

  remove(stream: EventStream): void {
    this.streams.delete(stream);
  }

  /**
   * What `user` hears of a change: the change itself when they may read that kind of item
   * (their own account always: a deletion signs them out); for a route they may not read,
   * only that permissions changed; nothing otherwise.
   */
  frameFor(user: Identity, event: ChangeEvent): string | undefined {
    const own = event.resource === 'users' && event.id === user._id;
    if (own || this.deps.mayCall(user, 'GET', READ_ROUTE[event.resource]))
      return sseFrame('change', event, event.eventId);
    if (event.resource === 'routes') return sseFrame('permissions', {}, event.eventId);
    return undefined;
  }

  /**
   * Sends a change to every stream whose user may hear it. A user whose account it deletes
   * hears it before their streams close.
   */
  publishChange(event: ChangeEvent): Promise<void> {
    const frame = sseFrame('change', event, event.eventId);
    return this.inOrder(async () => {
      const reads = await this.readerOf(event);
      await this.each(
        async (stream, user) => {
          const told = this.frameFor(user, event);
          return told && (await reads(user)) ? told : undefined;
        },
        (stream) => (event.resource === 'users' && event.id === stream.userId ? frame : undefined),
      );
    });
  }

  /**
   * Whom the record policies let hear of the item of `event` (everyone, for an item that is
   * no record). An event about a record that cannot be read is no one's.
   */
  async readerOf(event: RecordEvent): Promise<(user: Identity) => Promise<boolean>> {
    if (event.resource !== 'entity-records' || !event.entityName) return everyone;
    try {
      return await this.deps.recordReader(event);
    } catch (error) {
      this.deps.onError(error);
      return async () => false;
    }
  }

  /** Tells each stream whose user may read the item that someone is (or stopped) editing it. */
  publishPresence(event: AnnouncedPresence): Promise<void> {
    const key = `${event.resource}/${event.id}/${event.actorId}`;
    if (event.editing) this.editing.set(key, { event, until: Date.now() + PRESENCE_TTL_MS });
    else this.editing.delete(key);
    return this.inOrder(async () => {
      const reads = await this.readerOf(event);
      await this.each(async (stream, user) => {
        const frame = this.presenceFrame(user, event);
        return frame && (await reads(user)) ? frame : undefined;
      });
    });
  }

  /** The presence frames of everyone editing now, as `user` may hear them. */
  async presenceNow(user: Identity): Promise<string[]> {
    this.forgetExpiredPresence();
    const frames: string[] = [];
    for (const { event } of this.editing.values()) {
      const frame = this.presenceFrame(user, event);
      if (frame && (await (await this.readerOf(event))(user))) frames.push(frame);
    }
    return frames;
  }

  /**
   * The ends of the presences `stream`'s user announced with it, once it has closed: their
   * tab is gone, so the others should not wait for them to expire. Another user naming the
   * stream in their own presence does not tie it to the stream.
   */
  presenceEndedBy(stream: EventStream): AnnouncedPresence[] {
    this.forgetExpiredPresence();
    return [...this.editing.values()]
      .filter(({ event }) => event.streamId === stream.id && event.actorId === stream.userId)
      .map(({ event }) => ({ ...event, editing: false }));
  }

  private presenceFrame(user: Identity, { streamId: _, ...event }: AnnouncedPresence) {
    // The stream id stays between servers: it is no one else's business.
    return user._id !== event.actorId && this.deps.mayCall(user, 'GET', READ_ROUTE[event.resource])
      ? sseFrame('presence', event)
      : undefined;
  }

  private forgetExpiredPresence() {
    const now = Date.now();
    for (const [key, { until }] of this.editing) if (until < now) this.editing.delete(key);
  }

  /** Runs `send` once every event heard before has gone out. */
  inOrder(send: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(send, send);
    return this.queue;
  }

  /** Tells every stream that events may have been missed: its client refetches everything. */
  reset(): void {
    for (const stream of this.streams) this.send(stream, sseFrame('reset', {}));
  }

  /** A comment on every stream: proxies close connections that stay silent. */
  heartbeat(): void {
    this.forgetExpiredPresence();
    for (const stream of this.streams) this.send(stream, ': heartbeat\n\n');
  }

  /** Closes the streams of a session that ended (logout, reuse, a password set). */
  endSession(sessionId: string): void {
    for (const stream of this.streams) if (stream.sessionId === sessionId) this.end(stream);
  }

  closeAll(): void {
    for (const stream of this.streams) stream.close();
    this.streams.clear();
  }

  /** The stream's user as they are now; undefined once they are gone or their session ended. */
  async userOf(stream: EventStream): Promise<Identity | undefined> {
    const record = await this.deps.identityOf(stream.userId);
    return record?.sessionGeneration === stream.sessionGeneration &&
      !this.deps.sessionEnded(stream.sessionId)
      ? record.identity
      : undefined;
  }

  /**
   * Sends each stream what `frameOf` makes for it, looking each user up once. A stream whose
   * user is gone gets `lastWord` (if any) and is closed.
   */
  private async each(
    frameOf: (stream: EventStream, user: Identity) => Promise<string | undefined>,
    lastWord: (stream: EventStream) => string | undefined = () => undefined,
  ) {
    const byUser = new Map<string, EventStream[]>();
    for (const stream of this.streams) {
      const key = `${stream.userId}/${stream.sessionGeneration}/${stream.sessionId ?? ''}`;
      const group = byUser.get(key);
      if (group) group.push(stream);
      else byUser.set(key, [stream]);
    }
    await Promise.all(
      [...byUser.values()].map(async (streams) => {
        try {
          const user = await this.userOf(streams[0]!);
          for (const stream of streams) {
            const frame = user ? await frameOf(stream, user) : lastWord(stream);
            if (frame) this.send(stream, frame);
            if (!user) this.end(stream);
          }
        } catch (error) {
          this.deps.onError(error);
        }
      }),
    );
  }

  private send(stream: EventStream, frame: string) {
    if (!stream.write(frame)) this.end(stream);
  }

  private end(stream: EventStream) {
    this.streams.delete(stream);
    stream.close();
  }
}
