import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PRESENCE_BEAT_MS } from '@common/constants';
import type { ChangeResource } from '@common/schemas/events';
import { itemKey } from '@/api/live.slice';
import { useAnnouncePresenceMutation } from '@/api/liveUpdates';
import { useAppSelector } from '@/lib/store';

/** An item someone may be editing. */
export interface EditedItem {
  resource: ChangeResource;
  id: string;
  entityName?: string;
}

/**
 * Tells the others who may read the item that this user is editing it: at once, every
 * PRESENCE_BEAT_MS while `item` is set, and that they stopped when it is unset. Each
 * announcement names this tab's event stream when it is open, so that the presence ends
 * when the tab goes; a new stream (a reconnection) is announced at once.
 */
export function useAnnounceEditing(item: EditedItem | undefined) {
  const [announce] = useAnnouncePresenceMutation();
  const streamId = useAppSelector((state) => state.live?.streamId ?? null);
  // Read when sending: as a dependency of the beat, a new stream id would rerun it, and its
  // cleanup would announce a stop.
  const announcedStream = useRef(streamId);
  // One announcement after another: a stop sent while the start is on its way would be
  // refused as a duplicate request, and the others would see an edit that ended.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const { resource, id, entityName } = item ?? {};
  const send = useCallback(
    (editing: boolean) => {
      if (!resource || !id) return;
      const stream = announcedStream.current;
      queue.current = queue.current.then(() =>
        announce({
          resource,
          id,
          entityName: entityName ?? null,
          editing,
          ...(stream ? { streamId: stream } : {}),
        }),
      );
    },
    [announce, resource, id, entityName],
  );
  useEffect(() => {
    if (!resource || !id) return;
    send(true);
    const beat = setInterval(() => send(true), PRESENCE_BEAT_MS);
    return () => {
      clearInterval(beat);
      send(false);
    };
  }, [send, resource, id]);
  // The last stream's close ended the presence on the server, or it went out before this
  // stream was ready and names none: tie it to this stream now, not at the next beat.
  useEffect(() => {
    if (announcedStream.current === streamId) return;
    announcedStream.current = streamId;
    if (streamId) send(true);
  }, [send, streamId]);
}

/**
 * Who else is editing each of the items of `resource` (by id), from the event stream;
 * a presence not repeated within PRESENCE_TTL_MS has expired.
 */
export function useEditors(resource: ChangeResource): Record<string, string[]> {
  const editors = useAppSelector((state) => state.live?.editors);
  const [now, setNow] = useState(() => Date.now());
  const live = useMemo(() => {
    const byId: Record<string, string[]> = {};
    const prefix = itemKey(resource, '');
    for (const [key, people] of Object.entries(editors ?? {})) {
      if (!key.startsWith(prefix)) continue;
      const names = Object.values(people)
        .filter((person) => person.until > now)
        .map((person) => person.actor);
      if (names.length > 0) byId[key.slice(prefix.length)] = names;
    }
    return byId;
  }, [editors, now, resource]);
  const anyone = Object.keys(live).length > 0;
  // While someone shows as editing, look again now and then: their presence may expire.
  useEffect(() => {
    if (!anyone) return;
    const tick = setInterval(() => setNow(Date.now()), 5000);
    return () => clearInterval(tick);
  }, [anyone]);
  return live;
}
