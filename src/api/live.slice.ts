import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { PRESENCE_TTL_MS } from '@common/constants';
import type { ChangeEvent, ChangeResource, PresenceEvent } from '@common/schemas/events';

/** An item as the live state keys it. */
export const itemKey = (resource: ChangeResource, id: string) => `${resource}/${id}`;

/** The last change heard of an item, and by whom. */
export interface HeardChange {
  action: ChangeEvent['action'];
  version: number;
  actor: string | null;
  actorId: string | null;
}

export interface LiveState {
  /** The user whose event stream is open, if any. */
  following: string | null;
  /** The open stream's id (its `ready`): presence announced with it ends when it closes. */
  streamId: string | null;
  /** The last change heard of each item (by `itemKey`). */
  changes: Record<string, HeardChange>;
  /** Who else is editing each item: by their id, their name and when it expires (ms). */
  editors: Record<string, Record<string, { actor: string; until: number }>>;
}

const initialState: LiveState = { following: null, streamId: null, changes: {}, editors: {} };

/**
 * What the event stream told that screens show beside the cache (which the stream
 * invalidates): who last changed an item, and who else is editing it.
 */
export const liveSlice = createSlice({
  name: 'live',
  initialState,
  reducers: {
    followingStarted(state, action: PayloadAction<string>) {
      state.following = action.payload;
    },
    followingStopped() {
      return initialState;
    },
    streamOpened(state, action: PayloadAction<string | null>) {
      state.streamId = action.payload;
    },
    streamClosed(state) {
      state.streamId = null;
    },
    changeHeard(state, { payload }: PayloadAction<ChangeEvent>) {
      const key = itemKey(payload.resource, payload.id);
      state.changes[key] = {
        action: payload.action,
        version: payload.version,
        actor: payload.actor,
        actorId: payload.actorId,
      };
      // Their save ends their edit.
      if (payload.actorId) delete state.editors[key]?.[payload.actorId];
    },
    presenceHeard(state, { payload }: PayloadAction<PresenceEvent & { heardAt: number }>) {
      const key = itemKey(payload.resource, payload.id);
      const editors = (state.editors[key] ??= {});
      if (payload.editing)
        editors[payload.actorId] = {
          actor: payload.actor,
          until: payload.heardAt + PRESENCE_TTL_MS,
        };
      else delete editors[payload.actorId];
    },
  },
});

export const {
  followingStarted,
  followingStopped,
  streamOpened,
  streamClosed,
  changeHeard,
  presenceHeard,
} = liveSlice.actions;
