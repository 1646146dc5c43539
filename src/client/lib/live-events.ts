import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { EVENTS_PATH, parseLiveEventJson, RESYNC_EVENT, type LiveEvent } from '../../common/api/live-events';
import { useCurrentUser } from './auth';
import { refetchChangedBy, ROOTS_AFTER_DROP } from './live-invalidation';
import { queryKeys } from './query-keys';

/** Longest wait between attempts when the server refuses the stream (EventSource then stops retrying). */
const MAX_RETRY_MS = 30_000;
const FIRST_RETRY_MS = 1_000;

export interface LiveEventListener {
  /** One change on the server: a comment or vote of a component, suggestions, a prompt. */
  onChange: (event: LiveEvent) => void;
  /**
   * The stream is open. `afterDrop` is true when it had been open before and broke (server restart,
   * network change): events of the gap are lost, so anything cached may be stale.
   */
  onOpen: (info: { afterDrop: boolean }) => void;
  /** The server may have missed events (its database connection dropped): anything cached may be stale. */
  onResync: () => void;
  /** The server refused the stream (its session ended: logout elsewhere, PIN reset, deactivation). */
  onRefused: () => void;
}

/**
 * One EventSource for the whole tab, shared by every subscriber: it opens with the first and
 * closes with the last. The browser reconnects by itself after a network drop (the server sends
 * `retry: 2000`); when the server answers with an error instead, EventSource gives up for good,
 * so a new one is opened with a growing delay.
 */
const listeners = new Set<LiveEventListener>();
let source: EventSource | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = FIRST_RETRY_MS;
let everOpened = false;
let dropped = false;

function connect(): void {
  const stream = new EventSource(EVENTS_PATH);
  source = stream;
  stream.addEventListener('open', () => {
    retryDelay = FIRST_RETRY_MS;
    const afterDrop = everOpened && dropped;
    everOpened = true;
    dropped = false;
    for (const listener of [...listeners]) listener.onOpen({ afterDrop });
  });
  stream.addEventListener('change', (message: MessageEvent<unknown>) => {
    if (typeof message.data !== 'string') return;
    const event = parseLiveEventJson(message.data);
    if (event === null) return;
    for (const listener of [...listeners]) listener.onChange(event);
  });
  stream.addEventListener(RESYNC_EVENT, () => {
    for (const listener of [...listeners]) listener.onResync();
  });
  stream.addEventListener('error', () => {
    if (everOpened) dropped = true;
    if (stream.readyState !== EventSource.CLOSED || source !== stream) return;
    // Refused (401 after the session ended, 5xx): try again later; a signed-out member's next call
    // answers 401 and the auth gate unmounts the subscribers, which ends the attempts.
    source = null;
    for (const listener of [...listeners]) listener.onRefused();
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (listeners.size > 0 && source === null) connect();
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, MAX_RETRY_MS);
  });
}

function disconnect(): void {
  if (retryTimer !== undefined) clearTimeout(retryTimer);
  retryTimer = undefined;
  source?.close();
  source = null;
  retryDelay = FIRST_RETRY_MS;
  // A later subscriber starts a new stream: what it fetched before may be stale, so its first open
  // counts as after a drop whenever a stream had been open in this tab.
  dropped = everOpened;
}

function subscribeLiveEvents(listener: LiveEventListener): () => void {
  listeners.add(listener);
  if (source === null && retryTimer === undefined) connect();
  else if (source?.readyState === EventSource.OPEN) listener.onOpen({ afterDrop: false });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) disconnect();
  };
}

/**
 * Listens to the server's change events while a member is signed in, so teammates' comments
 * and votes appear without reloading. Signing out or unmounting ends the subscription, and the
 * stream with the last one.
 */
function useLiveEvents(listener: LiveEventListener): void {
  const { user } = useCurrentUser();
  const signedIn = user !== null;
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => {
    if (!signedIn) return undefined;
    return subscribeLiveEvents({
      onChange: (event) => {
        latest.current.onChange(event);
      },
      onOpen: (info) => {
        latest.current.onOpen(info);
      },
      onResync: () => {
        latest.current.onResync();
      },
      onRefused: () => {
        latest.current.onRefused();
      },
    });
  }, [signedIn]);
}

/**
 * Teammates' changes, live, on every signed-in page: each change event refetches exactly what it
 * affects (the same rule a member's own mutations use). After the stream broke, events may have
 * been missed, so every comment and suggestion query is refetched; lists not on screen are only
 * marked stale and refetch when shown.
 */
export function useLiveQueryUpdates(): void {
  const queryClient = useQueryClient();
  const refetchAll = () => {
    for (const queryKey of ROOTS_AFTER_DROP) void queryClient.invalidateQueries({ queryKey });
  };
  useLiveEvents({
    onChange: (event) => {
      void refetchChangedBy(queryClient, event);
    },
    onOpen: ({ afterDrop }) => {
      if (afterDrop) refetchAll();
    },
    onResync: refetchAll,
    // Most likely the session ended: asking who is signed in shows the sign-in screen at once,
    // rather than on the member's next click.
    onRefused: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.user });
    },
  });
}
