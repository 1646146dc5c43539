import { useEffect, useRef } from 'react';
import type { EVENTS_PATH, LiveEvent } from '../../shared/contract/events';
import { useCurrentUser } from './auth';

/**
 * Written out rather than imported: the events contract builds zod schemas at import time and a
 * value import would pull zod into the page (ADR 0005). Typed as the contract's constant, so the
 * compiler fails the day the two differ.
 */
const EVENTS_URL: typeof EVENTS_PATH = '/api/events';


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
}

/** Parses one `change` frame; anything not a known event is ignored rather than trusted. */
export function parseLiveEvent(data: string): LiveEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = new Map<string, unknown>(Object.entries(value));
  const type = record.get('type');
  const number = (key: string) => {
    const field = record.get(key);
    return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
  };
  switch (type) {
    case 'comment.created':
    case 'comment.deleted':
    case 'vote.changed': {
      const componentId = record.get('componentId');
      const commentId = number('commentId');
      return typeof componentId === 'string' && commentId !== undefined ? { type, componentId, commentId } : null;
    }
    case 'suggestions.generated': {
      const generationId = number('generationId');
      return generationId === undefined ? null : { type, generationId };
    }
    case 'suggestion.vote.changed': {
      const suggestionId = number('suggestionId');
      return suggestionId === undefined ? null : { type, suggestionId };
    }
    case 'ai-prompt.changed': {
      const promptId = number('promptId');
      return promptId === undefined ? null : { type, promptId };
    }
    default:
      return null;
  }
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
  const stream = new EventSource(EVENTS_URL);
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
    const event = parseLiveEvent(message.data);
    if (event === null) return;
    for (const listener of [...listeners]) listener.onChange(event);
  });
  stream.addEventListener('error', () => {
    if (everOpened) dropped = true;
    if (stream.readyState !== EventSource.CLOSED || source !== stream) return;
    // Refused (401 after the session ended, 5xx): try again later; a signed-out member's next call
    // answers 401 and the auth gate unmounts the subscribers, which ends the attempts.
    source = null;
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

export function subscribeLiveEvents(listener: LiveEventListener): () => void {
  listeners.add(listener);
  if (source === null && retryTimer === undefined) connect();
  else if (source?.readyState === EventSource.OPEN) listener.onOpen({ afterDrop: false });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) disconnect();
  };
}

/**
 * Listens to the server's change events while a member is signed in (spec: teammates' comments
 * and votes appear without reloading). Signing out or unmounting ends the subscription, and the
 * stream with the last one.
 */
export function useLiveEvents(listener: LiveEventListener): void {
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
    });
  }, [signedIn]);
}
