import { SET_ASIDE_MAX, type SetAside } from '../../../common/contract/ai.js';
import type { CommentForAnalysis } from '../provider.js';
import { offTopic } from './relevance.js';
import { addressesTheTool } from './text.js';
import type { WordReading } from './word-model.js';

/**
 * Why a comment is left out of what the AI reads, in the words the comment panel shows a member
 * (and the words a model is given with the comment): one place for both.
 */
export const SET_ASIDE_REASONS = {
  addressedToTheTool: 'Written to the AI rather than to the team',
  offTopic: 'About something other than this component',
} as const;

export interface SortedOut {
  /** The comments written to the team, in the order given (off-topic ones included). */
  toTheTeam: CommentForAnalysis[];
  /** Indexes into `toTheTeam` of those about something else. */
  offTopic: Set<number>;
  /** Both kinds, in the order given, with their reasons. */
  setAside: SetAside[];
}

/**
 * The comments a summary leaves out, and why: first those addressed to the AI (text.ts), then, of
 * the rest, those about something else (relevance.ts; with the word models, measured against the
 * rest of the thread). Without `words`, the rules alone decide (no analyzer at hand).
 */
export function sortOut(comments: readonly CommentForAnalysis[], words?: WordReading): SortedOut {
  const addressed = new Set<number>();
  const toTheTeam: CommentForAnalysis[] = [];
  for (const comment of comments) {
    if (addressesTheTool(comment.content, words)) addressed.add(comment.id);
    else toTheTeam.push(comment);
  }
  const aside = offTopic(toTheTeam, words);
  const offTopicIds = new Set(toTheTeam.filter((_comment, i) => aside.has(i)).map((comment) => comment.id));
  const setAside = comments.flatMap((comment): SetAside[] =>
    addressed.has(comment.id)
      ? [{ id: comment.id, reason: SET_ASIDE_REASONS.addressedToTheTool }]
      : offTopicIds.has(comment.id)
        ? [{ id: comment.id, reason: SET_ASIDE_REASONS.offTopic }]
        : [],
  );
  return { toTheTeam, offTopic: aside, setAside };
}

/**
 * A summary's list, whichever provider made it: by comment id, so the same comments give the same
 * list in any order, and bounded as the contract bounds it (a summary reads no more comments).
 */
export function setAsideForSummary(setAside: readonly SetAside[]): SetAside[] {
  return [...setAside].sort((a, b) => a.id - b.id).slice(0, SET_ASIDE_MAX);
}
