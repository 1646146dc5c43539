import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { CommentKind } from '../../../common/contract/comments';
import type { CurrentUser } from '../../../common/contract/user';
import { queryKeys } from '../../lib/query-keys';

/**
 * A member's unsent comment on one component, kept in localStorage so it outlives the panel, a
 * reload and a session that ended (the sign-in screen replaces the page; signing in again brings
 * it back). Keyed by member name: another member on the same browser never sees it.
 */
interface Draft {
  text: string;
  kind: CommentKind;
  savedAt: number;
}

const PREFIX = 'biggy:draft:';
const MAX_AGE_MS = 7 * 24 * 60 * 60_000;
/** Typing writes at most this often; closing the panel or the page writes at once. */
const SAVE_DELAY_MS = 400;

export function draftKey(memberName: string, componentId: string): string {
  return `${PREFIX}${encodeURIComponent(memberName)}:${componentId}`;
}

function parseDraft(raw: string): Draft | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { text, kind, savedAt } = value as Record<string, unknown>;
    if (typeof text !== 'string' || (kind !== 'comment' && kind !== 'proposal') || typeof savedAt !== 'number') return null;
    return { text, kind, savedAt };
  } catch {
    return null;
  }
}

// localStorage throws when storage is disabled or full: a draft is a convenience, never an error.
function removeDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

function writeDraft(key: string, text: string, kind: CommentKind): void {
  if (text.trim() === '') {
    removeDraft(key);
    return;
  }
  try {
    localStorage.setItem(key, JSON.stringify({ text, kind, savedAt: Date.now() } satisfies Draft));
  } catch {
    // Storage full or off: the text stays in the form, only not beyond it.
  }
}

let pruned = false;

/** Drops every member's drafts older than 7 days, once per page load, so forgotten ones do not pile up. */
function pruneOldDrafts(now: number): void {
  if (pruned) return;
  pruned = true;
  try {
    const keys = Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index));
    for (const key of keys) {
      if (key === null || !key.startsWith(PREFIX)) continue;
      const raw = localStorage.getItem(key);
      const draft = raw === null ? null : parseDraft(raw);
      if (draft === null || now - draft.savedAt > MAX_AGE_MS) localStorage.removeItem(key);
    }
  } catch {
    // Storage off: nothing to prune.
  }
}

function readDraft(key: string): Draft | null {
  const now = Date.now();
  pruneOldDrafts(now);
  try {
    const raw = localStorage.getItem(key);
    if (raw === null) return null;
    const draft = parseDraft(raw);
    if (draft !== null && now - draft.savedAt <= MAX_AGE_MS) return draft;
    localStorage.removeItem(key);
  } catch {
    // Storage off: no draft.
  }
  return null;
}

export interface CommentDraft {
  /** The draft found when the form opened, if any. */
  restored: Draft | null;
  /** Keeps the form's current text (an empty one removes the draft), written after a pause in typing. */
  save: (text: string, kind: CommentKind) => void;
  /** Writes a text still waiting for its pause. */
  flush: () => void;
  /** The comment was posted: its draft goes. */
  discard: () => void;
}

/** The draft under `key`; a null key (nobody signed in) stores nothing. */
function openDraft(key: string | null): CommentDraft {
  let pending: { text: string; kind: CommentKind } | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    if (key !== null && pending !== null) writeDraft(key, pending.text, pending.kind);
    pending = null;
  };
  return {
    restored: key === null ? null : readDraft(key),
    save: (text, kind) => {
      if (key === null) return;
      pending = { text, kind };
      clearTimeout(timer);
      timer = setTimeout(flush, SAVE_DELAY_MS);
    },
    flush,
    discard: () => {
      clearTimeout(timer);
      pending = null;
      if (key !== null) removeDraft(key);
    },
  };
}

/**
 * The comment form's draft for `componentId`, opened once per form (the panel keys its form by
 * component). Only inside the signed-in app, where the current member is always cached.
 */
export function useCommentDraft(componentId: string): CommentDraft {
  const queryClient = useQueryClient();
  const [draft] = useState(() => {
    const memberName = queryClient.getQueryData<CurrentUser | null>(queryKeys.user)?.name;
    return openDraft(memberName === undefined ? null : draftKey(memberName, componentId));
  });
  // The panel closing (or the sign-in screen replacing the page when the session has ended) and
  // the page going away write what the last keystrokes left unsaved.
  useEffect(() => {
    window.addEventListener('pagehide', draft.flush);
    return () => {
      window.removeEventListener('pagehide', draft.flush);
      draft.flush();
    };
  }, [draft]);
  return draft;
}
