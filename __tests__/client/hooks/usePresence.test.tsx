import { render, waitFor } from '@testing-library/react';
import { reconnectDelayMs, useLiveUpdates } from '@/api/liveUpdates';
import { ApiReady } from '@/app/ApiReady';
import { AppProviders } from '@/app/App';
import { makeStore } from '@/app/store';
import { type EditedItem, useAnnounceEditing } from '@/hooks/usePresence';
import { eventStream, liveEvents, setupNetwork } from '../helpers/network';
import { signedInAs } from '../helpers/render';

const firstStream = '0b6e3f8e-5a55-4c1e-9d2f-7f1b1c2d3e41';
const secondStream = '0b6e3f8e-5a55-4c1e-9d2f-7f1b1c2d3e42';
const book: EditedItem = { resource: 'books', id: 'b1' };

/** A screen that follows the event stream and edits `item`. */
function Editor({ item }: { item: EditedItem }) {
  useLiveUpdates();
  useAnnounceEditing(item);
  return null;
}

describe('announcing an edit', () => {
  const network = setupNetwork();
  const lastPresence = async () =>
    (await network.calls('POST /api/events/presence').at(-1)?.clone().json()) as unknown;
  const renderEditor = () =>
    render(
      <AppProviders store={makeStore(signedInAs('ada', ['contributor']))}>
        <ApiReady>
          <Editor item={book} />
        </ApiReady>
      </AppProviders>,
    );

  it('names the event stream of the tab, so that the edit ends when the tab closes', async () => {
    network.use(eventStream({ streamId: firstStream }));
    const { unmount } = renderEditor();
    await waitFor(async () =>
      expect(await lastPresence()).toEqual({
        resource: 'books',
        id: 'b1',
        entityName: null,
        editing: true,
        streamId: firstStream,
      }),
    );
    unmount();
    await waitFor(async () =>
      expect(await lastPresence()).toMatchObject({ editing: false, streamId: firstStream }),
    );
  });

  it('names the new stream at once after a reconnection, not at the next beat', async () => {
    network.use(eventStream({ streamId: firstStream }));
    renderEditor();
    await waitFor(async () =>
      expect(await lastPresence()).toMatchObject({ editing: true, streamId: firstStream }),
    );
    network.use(eventStream({ streamId: secondStream }));
    for (const stream of liveEvents.streams) stream.close();
    liveEvents.streams.clear();
    await waitFor(
      async () =>
        expect(await lastPresence()).toMatchObject({ editing: true, streamId: secondStream }),
      { timeout: reconnectDelayMs(0) + 2000 },
    );
  });
});
