import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Book } from '@common/schemas/books';
import type { ChangeEvent } from '@common/schemas/events';
import { reconnectDelayMs } from '@/api/liveUpdates';
import { liveEvents, setupNetwork } from '../helpers/network';
import { renderApp, signedInAs } from '../helpers/render';

const change = (event: Partial<ChangeEvent>): ChangeEvent => ({
  eventId: 1,
  resource: 'books',
  id: 'b9',
  entityName: null,
  action: 'create',
  version: 1,
  actorId: 'id-ada',
  actor: 'ada',
  ...event,
});

describe('live updates', () => {
  let library: Book[];
  const network = setupNetwork(http.get('/api/books', () => HttpResponse.json(library)));
  beforeEach(() => {
    library = [{ _id: 'b1', title: 'Emma', author: null, isbn: null, _version: 1 }];
  });

  it('opens the event stream with the bearer header, never a token in the URL', async () => {
    renderApp('/books', signedInAs('viewer', ['viewer']));
    await liveEvents.opened();
    const [request] = network.calls('GET /api/events');
    expect(request!.headers.get('authorization')).toMatch(/^Bearer /);
    expect(new URL(request!.url).search).toBe('');
  });

  it("shows another person's new book without a reload", async () => {
    renderApp('/books', signedInAs('viewer', ['viewer']));
    expect(await screen.findByRole('listitem', { name: 'Emma' })).toBeInTheDocument();
    await liveEvents.opened();
    library = [
      { _id: 'b9', title: 'Persuasion', author: null, isbn: null, _version: 1 },
      ...library,
    ];
    liveEvents.send('change', change({}), 1);
    expect(await screen.findByRole('listitem', { name: 'Persuasion' })).toBeInTheDocument();
  });

  it('refetches the permissions when the routes or the user’s own roles change', async () => {
    renderApp('/books', signedInAs('viewer', ['viewer']));
    await screen.findByRole('listitem', { name: 'Emma' });
    await liveEvents.opened();
    const before = network.calls('GET /api/auth/permissions').length;
    liveEvents.send('permissions', {}, 2);
    await waitFor(() =>
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(before + 1),
    );
    liveEvents.send('change', change({ resource: 'users', id: 'id-viewer', action: 'update' }), 3);
    await waitFor(() =>
      expect(network.calls('GET /api/auth/permissions')).toHaveLength(before + 2),
    );
  });

  it('signs out a user whose account is deleted', async () => {
    const { store } = renderApp('/books', signedInAs('viewer', ['viewer']));
    await screen.findByRole('listitem', { name: 'Emma' });
    await liveEvents.opened();
    liveEvents.send('change', change({ resource: 'users', id: 'id-viewer', action: 'delete' }), 4);
    await waitFor(() => expect(store.getState().auth.user).toBeNull());
  });

  it('reconnects after a drop, asking for what came after the last event it heard', async () => {
    renderApp('/books', signedInAs('viewer', ['viewer']));
    await screen.findByRole('listitem', { name: 'Emma' });
    await liveEvents.opened();
    liveEvents.send('change', change({ action: 'update', id: 'b1' }), 41);
    await waitFor(() => expect(network.calls('GET /api/books')).toHaveLength(2));
    for (const stream of liveEvents.streams) stream.close();
    liveEvents.streams.clear();
    await waitFor(() => expect(network.calls('GET /api/events')).toHaveLength(2), {
      timeout: reconnectDelayMs(0) + 2000,
    });
    expect(network.calls('GET /api/events')[1]!.headers.get('last-event-id')).toBe('41');
  });

  it('backs off from 1 s to at most 30 s between failed attempts', () => {
    expect([0, 1, 2, 5, 10].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 30_000, 30_000]);
  });
});
