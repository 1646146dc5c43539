import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queriesChangedBy, refetchChangedBy } from './live-invalidation';
import { queryKeys } from './query-keys';

describe('queriesChangedBy', () => {
  it('refetches a component’s list, and the counts only when a comment came or went', () => {
    for (const type of ['comment.created', 'comment.deleted'] as const) {
      expect(queriesChangedBy({ type, componentId: 'a' })).toEqual({ lists: [queryKeys.comments('a'), queryKeys.commentCounts], aiAnswers: [] });
    }
    expect(queriesChangedBy({ type: 'vote.changed', componentId: 'a' })).toEqual({ lists: [queryKeys.comments('a')], aiAnswers: [] });
  });

  it('refetches the suggestions and the narrative over them; a new prompt the prompt lists and the narrative', () => {
    expect(queriesChangedBy({ type: 'suggestion.vote.changed' })).toEqual({ lists: [queryKeys.suggestions], aiAnswers: [queryKeys.narrativeSummary] });
    // A generation or a status changes the actions the counts carry too.
    for (const type of ['suggestions.generated', 'suggestion.outcome.changed'] as const) {
      expect(queriesChangedBy({ type })).toEqual({ lists: [queryKeys.suggestions, queryKeys.commentCounts], aiAnswers: [queryKeys.narrativeSummary] });
    }
    expect(queriesChangedBy({ type: 'ai-prompt.changed' })).toEqual({ lists: [queryKeys.promptsRoot], aiAnswers: [queryKeys.narrativeSummary] });
  });

  it('refetches the admin lists an admin event names', () => {
    expect(queriesChangedBy({ type: 'pin-resets.changed' }).lists).toEqual([queryKeys.pinResets, queryKeys.adminMembers]);
    expect(queriesChangedBy({ type: 'error-logs.changed' }).lists).toEqual([queryKeys.errorLogsRoot]);
    expect(queriesChangedBy({ type: 'qa.progress' }).lists).toEqual([queryKeys.qaProgress, queryKeys.qaResults]);
    expect(queriesChangedBy({ type: 'members.changed' }).lists).toContainEqual(queryKeys.adminMembers);
  });
});

describe('refetchChangedBy', () => {
  it('marks what changed stale, leaves other components and the list the caller already holds', async () => {
    const client = new QueryClient();
    for (const key of [queryKeys.comments('a'), queryKeys.comments('b'), queryKeys.commentCounts, queryKeys.suggestions, queryKeys.narrativeSummary]) {
      client.setQueryData(key, []);
    }
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;

    await refetchChangedBy(client, { type: 'comment.created', componentId: 'a' });
    expect([stale(queryKeys.comments('a')), stale(queryKeys.commentCounts), stale(queryKeys.comments('b'))]).toEqual([true, true, false]);

    await refetchChangedBy(client, { type: 'suggestions.generated' }, { fresh: queryKeys.suggestions });
    expect([stale(queryKeys.suggestions), stale(queryKeys.narrativeSummary)]).toEqual([false, true]);
  });
});
