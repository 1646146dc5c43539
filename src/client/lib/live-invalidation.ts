import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { CommentEvent, DecisionEvent, LiveEventType } from '../../common/api/live-events';
import { queryKeys } from './query-keys';

interface ChangedQueries {
  /** Lists a change shows up in; a mutation waits for them so its result is on screen when it settles. */
  lists: QueryKey[];
  /** AI-made answers over those lists: refetched, never waited for (they may take a model call). */
  aiAnswers: QueryKey[];
}

/** A change as the rule needs it: comment changes name their component; the others need only their type. */
export type Change = Pick<CommentEvent | DecisionEvent, 'type' | 'componentId'> | { type: Exclude<LiveEventType, CommentEvent['type'] | DecisionEvent['type']> };

/**
 * Which queries a change makes stale: the one rule used both by a member's own mutations and by
 * teammates' changes arriving on the live stream.
 */
export function queriesChangedBy(event: Change): ChangedQueries {
  switch (event.type) {
    case 'comment.created':
    case 'comment.deleted':
      return { lists: [queryKeys.comments(event.componentId), queryKeys.commentCounts], aiAnswers: [] };
    case 'vote.changed':
      return { lists: [queryKeys.comments(event.componentId)], aiAnswers: [] };
    case 'comment.resolution.changed':
      return { lists: [queryKeys.comments(event.componentId), queryKeys.commentCounts], aiAnswers: [] };
    case 'decision.recorded':
      return { lists: [queryKeys.decisions(event.componentId), queryKeys.commentCounts], aiAnswers: [] };
    case 'suggestions.generated':
    case 'suggestion.outcome.changed':
      // The counts carry how many actions there are and how many are done.
      return { lists: [queryKeys.suggestions, queryKeys.commentCounts], aiAnswers: [queryKeys.narrativeSummary] };
    case 'suggestion.vote.changed':
      // The narrative weighs themes by votes.
      return { lists: [queryKeys.suggestions], aiAnswers: [queryKeys.narrativeSummary] };
    case 'ai-prompt.changed':
      return { lists: [queryKeys.promptsRoot], aiAnswers: [queryKeys.narrativeSummary] };
    case 'members.changed':
      // A new member, a reset or a deactivation changes the names the sign-in and audit filters offer.
      return { lists: [queryKeys.adminMembers, queryKeys.teamNamesRoot, queryKeys.auditRoot], aiAnswers: [] };
    case 'pin-resets.changed':
      return { lists: [queryKeys.pinResets, queryKeys.adminMembers], aiAnswers: [] };
    case 'error-logs.changed':
      return { lists: [queryKeys.errorLogsRoot], aiAnswers: [] };
    case 'qa.progress':
      // Progress is announced at each suite and at the end, when the results change.
      return { lists: [queryKeys.qaProgress, queryKeys.qaResults], aiAnswers: [] };
    case 'activity.recorded':
      // The server never streams it; the analytics page polls what is active now.
      return { lists: [], aiAnswers: [] };
  }
}

/**
 * After the live stream broke, events may have been missed: every query of these areas is
 * refetched. The current user too: a role change ends the member's streams, and the reconnect
 * brings the new role to the header.
 */
export const ROOTS_AFTER_DROP: readonly QueryKey[] = [queryKeys.user, queryKeys.commentsRoot, queryKeys.suggestionsRoot, queryKeys.adminRoot];

/**
 * Refetches what `event` changed and resolves when the lists are back. `fresh`: a list the caller
 * already holds the new value of (a generation answers with its suggestions).
 */
export async function refetchChangedBy(queryClient: QueryClient, event: Change, options: { fresh?: QueryKey } = {}): Promise<void> {
  const { lists, aiAnswers } = queriesChangedBy(event);
  const freshKey = options.fresh === undefined ? undefined : JSON.stringify(options.fresh);
  for (const queryKey of aiAnswers) void queryClient.invalidateQueries({ queryKey });
  await Promise.all(lists.filter((queryKey) => JSON.stringify(queryKey) !== freshKey).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
