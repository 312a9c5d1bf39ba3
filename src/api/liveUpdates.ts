import { createAction } from '@reduxjs/toolkit';
import type { TagDescription } from '@reduxjs/toolkit/query';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { useEffect } from 'react';
import {
  type ChangeEvent,
  changeEventSchema,
  type PresenceInput,
  presenceEventSchema,
  readyEventSchema,
} from '@common/schemas/events';
import { loggedOut } from '@/auth/auth.slice';
import { type AppStartListening, useAppDispatch } from '@/lib/store';
import { api } from './api';
import { API_HOST } from './apiHost';
import {
  changeHeard,
  followingStarted,
  followingStopped,
  presenceHeard,
  streamClosed,
  streamOpened,
} from './live.slice';
import { refreshAccessToken } from './session';
import {
  bookVersionsTag,
  deletedBooksTag,
  deletedEntitiesTag,
  deletedRecordsTag,
  entityVersionsTag,
  recordListTag,
  recordVersionsTag,
} from './tags';

type TagType = 'Book' | 'User' | 'Role' | 'Entity' | 'Record' | 'Route' | 'Permissions';
type Tag = TagDescription<TagType>;

/** Every cached answer a change of another person may have made stale. */
export function tagsOf(event: ChangeEvent): Tag[] {
  const { id } = event;
  switch (event.resource) {
    case 'books':
      // The book read alone (the edit form's) too.
      return [
        { type: 'Book', id: 'LIST' },
        { type: 'Book', id },
        bookVersionsTag(id),
        deletedBooksTag,
      ];
    case 'users':
      // Role pages list every user.
      return [
        { type: 'User', id: 'LIST' },
        { type: 'Role', id: 'USERS' },
      ];
    case 'roles':
      // Users' rows show their roles.
      return [
        { type: 'Role', id: 'LIST' },
        { type: 'Role', id },
        { type: 'Role', id: `${id}/users` },
        { type: 'User', id: 'LIST' },
      ];
    case 'entities':
      return [
        { type: 'Entity', id: 'LIST' },
        { type: 'Entity', id },
        entityVersionsTag(id),
        deletedEntitiesTag,
      ];
    case 'entity-records':
      return event.entityName
        ? [
            recordListTag(event.entityName),
            recordVersionsTag(id),
            deletedRecordsTag(event.entityName),
          ]
        : [recordVersionsTag(id)];
    case 'routes':
      // Its grants may be the user's own.
      return [{ type: 'Route', id: 'LIST' }, 'Permissions'];
  }
}

const EVERY_TAG: TagType[] = ['Book', 'User', 'Role', 'Entity', 'Record', 'Route', 'Permissions'];

/** Screens that want live data say so on mounting; the stream opens once per user. */
export const liveUpdatesWanted = createAction('live/updatesWanted');

/** The wait before reconnecting after `failures` failed attempts: 1 s doubling to 30 s. */
export const reconnectDelayMs = (failures: number) => Math.min(1000 * 2 ** failures, 30_000);

type ListenerApi = Parameters<Parameters<AppStartListening>[0]['effect']>[1];

/** Reads the event stream until it ends (or is refused); calls `onMessage` with each message. */
async function readStream(
  listenerApi: ListenerApi,
  lastEventId: string | undefined,
  onMessage: (message: EventSourceMessage) => void,
): Promise<void> {
  const { accessToken } = listenerApi.getState().auth;
  let response: Response;
  try {
    response = await fetch(`${API_HOST}/api/events`, {
      // The bearer header, like every call: no token goes in a URL (DESIGN).
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'text/event-stream',
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      credentials: 'include',
      signal: listenerApi.signal,
    });
  } catch {
    return; // Unreachable (or aborted: the loop below stops).
  }
  if (response.status === 401) {
    // An expired access token: the next attempt goes with a fresh one (or none: signed out).
    await refreshAccessToken(listenerApi.dispatch, listenerApi.getState);
    return;
  }
  if (!response.ok || !response.body) return;
  const parser = createParser({ onEvent: onMessage });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    // Dropped (or aborted: the loop below stops).
  }
}

/**
 * Follows the event stream while the user is signed in: each change invalidates what it
 * made stale, a change of the user's own account refetches their permissions (or signs
 * them out, when deleted), and after a drop it reconnects with backoff, asking for what it
 * missed after the last event it heard (the server replays it, or says `reset`: then
 * every cached answer is refetched).
 */
async function follow(listenerApi: ListenerApi, userId: string) {
  const { dispatch } = listenerApi;
  let lastEventId: string | undefined;
  let failures = 0;
  let connectedBefore = false;
  const onMessage = (message: EventSourceMessage) => {
    if (message.event === 'ready') {
      // Without an id to resume from, a reconnection cannot know what it missed.
      if (connectedBefore && !lastEventId) dispatch(api.util.invalidateTags(EVERY_TAG));
      connectedBefore = true;
      failures = 0;
      // A server from before stream ids (during a rolling deploy) names none: presence
      // announced meanwhile ends only when it expires.
      const ready = readyEventSchema.safeParse(JSON.parse(message.data));
      dispatch(streamOpened(ready.success ? ready.data.streamId : null));
    } else if (message.event === 'change') {
      const event = changeEventSchema.parse(JSON.parse(message.data));
      lastEventId = message.id ?? lastEventId;
      dispatch(changeHeard(event));
      dispatch(api.util.invalidateTags(tagsOf(event)));
      if (event.resource === 'users' && event.id === userId) {
        if (event.action === 'delete') dispatch(loggedOut());
        else dispatch(api.util.invalidateTags(['Permissions']));
      }
    } else if (message.event === 'permissions') {
      lastEventId = message.id ?? lastEventId;
      dispatch(api.util.invalidateTags(['Permissions']));
    } else if (message.event === 'presence') {
      const presence = presenceEventSchema.parse(JSON.parse(message.data));
      dispatch(presenceHeard({ ...presence, heardAt: Date.now() }));
    } else if (message.event === 'reset') {
      dispatch(api.util.invalidateTags(EVERY_TAG));
    }
  };
  while (listenerApi.getState().auth.user?._id === userId) {
    // An attempt fails unless the stream says `ready` (which starts the count again): refused,
    // unreachable, or ended before catching up, the next waits longer.
    failures++;
    await readStream(listenerApi, lastEventId, onMessage);
    listenerApi.throwIfCancelled();
    // Its id now names a closed stream: announcements go without one until the next `ready`.
    dispatch(streamClosed());
    await listenerApi.delay(reconnectDelayMs(failures));
  }
}

/** Follows the event stream while a screen wants it and a user is signed in (see `follow`). */
export function addLiveListeners(startListening: AppStartListening): void {
  startListening({
    predicate: (action, state, previous) =>
      (liveUpdatesWanted.match(action) &&
        state.auth.user !== null &&
        state.live?.following !== state.auth.user._id) ||
      (previous.live?.following != null && state.auth.user?._id !== previous.auth.user?._id),
    effect: async (_action, listenerApi) => {
      listenerApi.cancelActiveListeners();
      const userId = listenerApi.getState().auth.user?._id;
      if (!userId) {
        listenerApi.dispatch(followingStopped());
        return;
      }
      listenerApi.dispatch(followingStarted(userId));
      try {
        await follow(listenerApi, userId);
      } finally {
        if (listenerApi.getState().live?.following === userId)
          listenerApi.dispatch(followingStopped());
      }
    },
  });
}

/** Opens the event stream for the signed-in user (once, whichever screens ask). */
export function useLiveUpdates() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(liveUpdatesWanted());
  }, [dispatch]);
}

const presenceApi = api.injectEndpoints({
  endpoints: (build) => ({
    announcePresence: build.mutation<null, PresenceInput>({
      query: (body) => ({ url: '/api/events/presence', method: 'POST', body }),
      // Presence is a courtesy: a failure changes nothing for the user.
      extraOptions: { quiet: true },
    }),
  }),
});

export const { useAnnouncePresenceMutation } = presenceApi;
