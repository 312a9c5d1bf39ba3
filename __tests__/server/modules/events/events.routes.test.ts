import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Book } from '@common/schemas/books';
import type { ChangeEvent, PresenceEvent, ReadyEvent } from '@common/schemas/events';
import type { RoutePermission } from '@common/schemas/permissions';
import type { User } from '@common/schemas/users';
import { bearer, login, registerUser } from '../../helpers/auth';
import {
  changeOf,
  type OpenStream,
  openEventStream,
  type SseFrame,
} from '../../helpers/eventStream';
import { type TestApp, startTestApp } from '../../helpers/testApp';
import { testDbKinds } from '../../helpers/testDatabase';

describe.each(testDbKinds)('the event stream on %s', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  const tokens: Record<string, string> = {};
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    t = await startTestApp(kind, { EVENTS_HEARTBEAT_SECONDS: '1' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    for (const who of ['admin', 'contributor', 'viewer'])
      tokens[who] = (await login(t.app, who)).jwt;
  });
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });
  afterAll(() => t.close());

  /** A stream (to `base`, this server by default), open and listening once this resolves. */
  const open = async (token: string | undefined, lastEventId?: string, base = baseUrl) => {
    const stream = await openEventStream(base, token, lastEventId);
    streams.push(stream);
    if (stream.status === 200) await stream.waitFor((frame) => frame.event === 'ready');
    return stream;
  };
  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    who = 'admin',
    app: FastifyInstance = t.app,
  ) => app.inject({ method, url, payload, headers: bearer(tokens[who]!) });
  const dataOf = (frame: { data?: unknown }) => frame.data as ChangeEvent;

  it('answers 401 without a signed-in user', async () => {
    expect((await open(undefined)).status).toBe(401);
  });

  it('tells each kind of change: what, which, its version and who', async () => {
    const stream = await open(tokens.admin);
    const book: Book = (await call('POST', '/api/books/add', { title: 'Dune' })).json();
    expect(dataOf(await stream.waitFor(changeOf('books', 'create', book._id)))).toMatchObject({
      resource: 'books',
      id: book._id,
      action: 'create',
      version: 1,
      actor: 'admin',
      eventId: expect.any(Number),
    });
    await call('PUT', `/api/books/${book._id}`, { title: 'Dune II' });
    expect(dataOf(await stream.waitFor(changeOf('books', 'update', book._id))).version).toBe(2);
    await call('DELETE', `/api/books/${book._id}`);
    await stream.waitFor(changeOf('books', 'delete', book._id));
    const [deleted] = (await call('GET', `/api/books/${book._id}/versions`)).json();
    await call('POST', `/api/books/${book._id}/versions/${deleted._id}/restore`);
    expect(dataOf(await stream.waitFor(changeOf('books', 'restore', book._id))).version).toBe(3);

    const user: User = (
      await call('POST', '/api/users', { username: 'ada', password: 'a-good-password' })
    ).json();
    await stream.waitFor(changeOf('users', 'create', user._id));
    const role = (await call('POST', '/api/roles', { name: 'editors' })).json();
    await stream.waitFor(changeOf('roles', 'create', role._id));
    await call('PUT', `/api/roles/${role._id}/users/${user._id}`);
    await stream.waitFor(changeOf('roles', 'update', role._id));
    await stream.waitFor(changeOf('users', 'update', user._id));
    await call('DELETE', `/api/users/${user._id}`);
    await stream.waitFor(changeOf('users', 'delete', user._id));
    // A registration is a new user too.
    const { jwt } = await registerUser(t.app);
    const { sub } = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());
    await stream.waitFor(changeOf('users', 'create', sub));

    const car = (
      await call('POST', '/api/entities', { name: 'Car', fields: [{ name: 'make' }] })
    ).json();
    await stream.waitFor(changeOf('entities', 'create', car._id));
    const record = (
      await call('POST', '/api/entity-records/Car', { fields: { make: 'Ford' } })
    ).json();
    expect(
      dataOf(await stream.waitFor(changeOf('entity-records', 'create', record._id))),
    ).toMatchObject({ entityName: 'Car', version: 1 });
    await call('PUT', `/api/entity-records/Car/${record._id}`, { fields: { make: 'Fiat' } });
    await stream.waitFor(changeOf('entity-records', 'update', record._id));

    const routes: RoutePermission[] = (await call('GET', '/api/routes')).json();
    const route = routes.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/LIMS/jobs')!;
    await call('PUT', `/api/routes/${route._id}`, { allowedRoles: ['admin'] });
    await stream.waitFor(changeOf('routes', 'update', route._id));
    await call('PUT', `/api/routes/${route._id}`, { allowedRoles: route.allowedRoles });

    // Ids only grow along a stream.
    const ids = stream.frames.filter((frame) => frame.id).map((frame) => Number(frame.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('sends only what the user may read, checked at each event', async () => {
    const viewer = await open(tokens.viewer);
    const routes: RoutePermission[] = (await call('GET', '/api/routes')).json();
    const listBooks = routes.find((r) => r.routeVerb === 'GET' && r.routePath === '/api/books')!;
    try {
      const seen = (await call('POST', '/api/books/add', { title: 'Seen' })).json();
      await viewer.waitFor(changeOf('books', 'create', seen._id));

      await call('PUT', `/api/routes/${listBooks._id}`, { allowedRoles: ['admin', 'contributor'] });
      // A route the viewer may not read: only that permissions changed.
      await viewer.waitFor((frame) => frame.event === 'permissions');
      const unseen = (await call('POST', '/api/books/add', { title: 'Unseen' })).json();
      const user = (
        await call('POST', '/api/users', { username: 'grace', password: 'a-good-password' })
      ).json();
      // Events go out in order: once a later one arrives, an earlier one would have.
      const car = (
        await call('POST', '/api/entities', { name: 'Boat', fields: [{ name: 'hull' }] })
      ).json();
      await viewer.waitFor(changeOf('entities', 'create', car._id));
      expect(viewer.frames.some(changeOf('books', 'create', unseen._id))).toBe(false);
      expect(viewer.frames.some(changeOf('users', 'create', user._id))).toBe(false);
      expect(viewer.frames.some(changeOf('routes'))).toBe(false);
    } finally {
      await call('PUT', `/api/routes/${listBooks._id}`, { allowedRoles: listBooks.allowedRoles });
    }
  });

  it('carries a change made through another server on the same database', async () => {
    const stream = await open(tokens.contributor);
    const other = await t.startAnother();
    const book = (
      await call('POST', '/api/books/add', { title: 'From elsewhere' }, 'contributor', other)
    ).json();
    expect(dataOf(await stream.waitFor(changeOf('books', 'create', book._id))).actor).toBe(
      'contributor',
    );
  });

  it('resumes after the last event id, and says when it cannot', async () => {
    const first = await open(tokens.admin);
    const book = (await call('POST', '/api/books/add', { title: 'Before' })).json();
    const seen = await first.waitFor(changeOf('books', 'create', book._id));
    first.close();
    await call('PUT', `/api/books/${book._id}`, { title: 'While away' });
    await call('DELETE', `/api/books/${book._id}`);

    const resumed = await open(tokens.admin, seen.id);
    const ready = resumed.frames.findIndex((frame) => frame.event === 'ready');
    const missed = resumed.frames.slice(0, ready).filter((frame) => frame.event === 'change');
    expect(missed.map((frame) => dataOf(frame).action)).toEqual(['update', 'delete']);

    // An id older than what is kept: the client must refetch.
    await t.database.db.execute('delete from change_events where id <= ' + Number(seen.id));
    const tooLate = await open(tokens.admin, String(Number(seen.id) - 1));
    expect(tooLate.frames.some((frame) => frame.event === 'reset')).toBe(true);
  });

  it('tells a deleted user so, then ends their stream', async () => {
    const { jwt } = await registerUser(t.app);
    const stream = await open(jwt);
    const { sub } = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());
    await call('DELETE', `/api/users/${sub}`);
    await stream.waitFor(changeOf('users', 'delete', sub));
    await stream.ended;
  });

  it('sends heartbeats while idle', async () => {
    const stream = await open(tokens.viewer);
    await stream.waitFor((frame) => frame.event === 'comment', 3000);
  });

  it('tells a reader a record policy narrows only of the records it lets them read, presence too', async () => {
    const site = (
      await call('POST', '/api/entities', {
        name: 'Site',
        fields: [{ name: 'city', type: 'select', options: ['lyon', 'paris'] }],
      })
    ).json();
    await call('PUT', `/api/entities/${site._id}/policies`, {
      policies: [
        {
          role: 'viewer',
          read: { match: 'all', clauses: [{ field: 'city', op: 'eq', value: 'lyon' }] },
        },
      ],
    });
    const viewer = await open(tokens.viewer);
    const admin = await open(tokens.admin);
    const add = async (city: string) =>
      (await call('POST', '/api/entity-records/Site', { fields: { city } })).json()._id as string;
    const paris = await add('paris');
    const lyon = await add('lyon');
    await viewer.waitFor(changeOf('entity-records', 'create', lyon));
    await admin.waitFor(changeOf('entity-records', 'create', lyon));
    // The admin heard both, in order: had the viewer heard of Paris, it would be there now.
    expect(admin.frames.some(changeOf('entity-records', 'create', paris))).toBe(true);
    expect(viewer.frames.some(changeOf('entity-records', 'create', paris))).toBe(false);
    // A delete too: the record is read as it was last.
    await call('DELETE', `/api/entity-records/Site/${paris}`);
    await call('DELETE', `/api/entity-records/Site/${lyon}`);
    await viewer.waitFor(changeOf('entity-records', 'delete', lyon));
    expect(viewer.frames.some(changeOf('entity-records', 'delete', paris))).toBe(false);
    // Presence: of the Lyon record only, now and to a stream opened later.
    const kept = await add('lyon');
    const hidden = await add('paris');
    for (const id of [hidden, kept])
      await call(
        'POST',
        '/api/events/presence',
        { resource: 'entity-records', id, entityName: 'Site', editing: true },
        'contributor',
      );
    const editing = (stream: typeof viewer, id: string) =>
      stream.frames.some(
        (frame) => frame.event === 'presence' && (frame.data as { id: string }).id === id,
      );
    await viewer.waitFor(
      (frame) => frame.event === 'presence' && (frame.data as { id: string }).id === kept,
    );
    expect(editing(viewer, hidden)).toBe(false);
    const later = await open(tokens.viewer);
    // Both are written after `ready`, the hidden one first had it been told.
    await later.waitFor(
      (frame) => frame.event === 'presence' && (frame.data as { id: string }).id === kept,
    );
    expect(editing(later, hidden)).toBe(false);
    for (const id of [hidden, kept])
      await call(
        'POST',
        '/api/events/presence',
        { resource: 'entity-records', id, entityName: 'Site', editing: false },
        'contributor',
      );
  });

  it('passes on who is editing an item to those who may read it', async () => {
    const viewer = await open(tokens.viewer);
    const id = '00000000-0000-4000-8000-00000000000a';
    const res = await call(
      'POST',
      '/api/events/presence',
      { resource: 'entity-records', id, entityName: 'Car', editing: true },
      'contributor',
    );
    expect(res.statusCode).toBe(204);
    const presence = await viewer.waitFor((frame) => frame.event === 'presence');
    expect(presence.data).toMatchObject({
      resource: 'entity-records',
      id,
      editing: true,
      actor: 'contributor',
    });
    // A stream opened later hears who is editing at once, not at the next repeat.
    const later = await open(tokens.admin);
    await later.waitFor((frame) => frame.event === 'presence');
    await call(
      'POST',
      '/api/events/presence',
      { resource: 'entity-records', id, entityName: 'Car', editing: false },
      'contributor',
    );
    await viewer.waitFor(
      (frame) =>
        frame.event === 'presence' && (frame.data as { editing: boolean }).editing === false,
    );
    const afterStop = await open(tokens.admin);
    // Frames go out in order: once a later change arrives, a presence would have.
    const book = (await call('POST', '/api/books/add', { title: 'After the edit' })).json();
    await afterStop.waitFor(changeOf('books', 'create', book._id));
    expect(afterStop.frames.some((frame) => frame.event === 'presence')).toBe(false);
    const roleless = await registerUser(t.app);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/events/presence',
      headers: bearer(roleless.jwt),
      payload: { resource: 'books', id, editing: true },
    });
    expect(refused.statusCode).toBe(403);
  });

  describe('when an editor’s event stream closes', () => {
    const itemA = '00000000-0000-4000-8000-0000000000b1';
    const itemB = '00000000-0000-4000-8000-0000000000b2';
    const itemC = '00000000-0000-4000-8000-0000000000b3';
    /** The id its `ready` gave the stream. */
    const streamIdOf = (stream: OpenStream) =>
      (stream.frames.find((frame) => frame.event === 'ready')!.data as ReadyEvent).streamId;
    const presenceOf =
      (id: string, editing: boolean) =>
      ({ event, data }: SseFrame): boolean =>
        event === 'presence' &&
        (data as PresenceEvent).id === id &&
        (data as PresenceEvent).editing === editing;
    const announce = (who: string, id: string, streamId: string | undefined) =>
      call(
        'POST',
        '/api/events/presence',
        { resource: 'books', id, editing: true, ...(streamId ? { streamId } : {}) },
        who,
      );

    it('ends the presence announced with it at once, and no other', async () => {
      const viewer = await open(tokens.viewer);
      const editor = await open(tokens.contributor);
      const ready = editor.frames.find((frame) => frame.event === 'ready')!;
      expect(ready.data).toEqual({ streamId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const streamId = streamIdOf(editor);

      expect((await announce('contributor', itemA, streamId)).statusCode).toBe(204);
      // Another user naming the stream, and the same user without it.
      expect((await announce('admin', itemB, streamId)).statusCode).toBe(204);
      expect((await announce('contributor', itemC, undefined)).statusCode).toBe(204);
      const heard = await viewer.waitFor(presenceOf(itemA, true));
      await viewer.waitFor(presenceOf(itemB, true));
      await viewer.waitFor(presenceOf(itemC, true));
      // The stream it belongs to is no one else's business.
      expect(heard.data).not.toHaveProperty('streamId');

      editor.close();
      expect((await viewer.waitFor(presenceOf(itemA, false))).data).toMatchObject({
        resource: 'books',
        actor: 'contributor',
      });
      // Frames go out in order: once a later change arrives, an end of presence would have.
      const book = (await call('POST', '/api/books/add', { title: 'After the tab closed' })).json();
      await viewer.waitFor(changeOf('books', 'create', book._id));
      expect(viewer.frames.some(presenceOf(itemB, false))).toBe(false);
      expect(viewer.frames.some(presenceOf(itemC, false))).toBe(false);
      // A stream opened now still hears of those two.
      const later = await open(tokens.viewer);
      await later.waitFor(presenceOf(itemB, true));
      await later.waitFor(presenceOf(itemC, true));
      expect(later.frames.some(presenceOf(itemA, true))).toBe(false);
      for (const [who, id] of [
        ['admin', itemB],
        ['contributor', itemC],
      ] as const)
        await call('POST', '/api/events/presence', { resource: 'books', id, editing: false }, who);
    });

    it('ends it on every server, wherever it was announced', async () => {
      const other = await t.startAnother();
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherUrl = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      // Someone on each server.
      const viewer = await open(tokens.viewer);
      const adminThere = await open(tokens.admin, undefined, otherUrl);
      // The editor's stream is held by the other server; their announcement lands on this one.
      const editor = await open(tokens.contributor, undefined, otherUrl);
      expect((await announce('contributor', itemA, streamIdOf(editor))).statusCode).toBe(204);
      await viewer.waitFor(presenceOf(itemA, true));
      // Each server hears it in its own time: the other one has once it tells its streams.
      await adminThere.waitFor(presenceOf(itemA, true));

      editor.close();
      await adminThere.waitFor(presenceOf(itemA, false));
      await viewer.waitFor(presenceOf(itemA, false));
    });
  });
});

describe.each(testDbKinds)('event streams per user on %s', (kind) => {
  const STREAMS = 5;
  let t: TestApp;
  let baseUrl: string;
  const streams: OpenStream[] = [];
  beforeAll(async () => {
    t = await startTestApp(kind, {
      EVENT_STREAMS_PER_USER: String(STREAMS),
      EVENTS_HEARTBEAT_SECONDS: '1',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t.close();
  });
  const open = async (token: string) => {
    const stream = await openEventStream(baseUrl, token);
    streams.push(stream);
    if (stream.status === 200) await stream.waitFor((frame) => frame.event === 'ready');
    return stream;
  };

  it('closes the oldest beyond the limit, and refuses a user who opens them again and again', async () => {
    const { jwt } = await registerUser(t.app);
    const { jwt: someoneElse } = await registerUser(t.app);
    const heartbeatAfter = (stream: OpenStream) => {
      const seen = stream.frames.length;
      return stream.waitFor(
        (frame) => frame.event === 'comment' && stream.frames.indexOf(frame) >= seen,
      );
    };
    // As many as the limit stay open, each hearing the next heartbeat.
    const mine: OpenStream[] = [];
    for (let i = 0; i < STREAMS; i++) mine.push(await open(jwt));
    const others = await open(someoneElse);
    await Promise.all(mine.map(heartbeatAfter));
    // One more closes the oldest only: the others, and another user's, stay open.
    mine.push(await open(jwt));
    await mine[0]!.ended;
    await Promise.all([...mine.slice(1), others].map(heartbeatAfter));

    // Three times the limit may be opened in a minute.
    for (let i = STREAMS + 1; i < STREAMS * 3; i++) expect((await open(jwt)).status).toBe(200);
    const refused = await openEventStream(baseUrl, jwt);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user is not held back by it.
    expect((await open(someoneElse)).status).toBe(200);
  });

  it('ends the streams of a session that ends, and no other', async () => {
    const { jwt, refreshToken, email } = await registerUser(t.app);
    const elsewhere = await login(t.app, email, 'a-good-password');
    const ending = await open(jwt);
    const staying = await open(elsewhere.jwt);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: { refreshToken },
    });
    expect(logout.statusCode).toBe(204);
    await ending.ended;
    const seen = staying.frames.length;
    await staying.waitFor(
      (frame) => frame.event === 'comment' && staying.frames.indexOf(frame) >= seen,
    );
  });
});
