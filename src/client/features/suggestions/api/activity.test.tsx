import { describe, expect, test, vi } from 'vitest';
import { activityRoutes } from '../../../../common/api/activity';
import { suggestionRoutes } from '../../../../common/api/suggestions';
import type { GenerateSuggestionsResponse } from '../../../../common/contract/ai';
import { loggedActivities, runMutation } from '../../../test/activity';
import { mockFetch } from '../../../test/mock-fetch';
import { useGenerateSuggestions } from './generate-suggestions';
import { useVoteSuggestion } from './vote-suggestion';

const GENERATED: GenerateSuggestionsResponse = {
  suggestions: [],
  commentCount: 4,
  reused: false,
  created: 2,
  kept: 1,
  archived: 0,
  generatedBy: { provider: 'local', model: 'analyzer-1', promptVersion: 'v1', inputHash: 'a'.repeat(64), generatedAt: '2025-01-02T03:04:05.000Z' },
  fallback: false,
};
const REFUSED = { status: 500, error: { code: 'INTERNAL_ERROR', message: 'Boom' } } as const;

const generate = () =>
  runMutation(
    () => useGenerateSuggestions(),
    (mutation) => {
      mutation.mutate();
    },
  );
const vote = () =>
  runMutation(
    () => useVoteSuggestion(5),
    (mutation) => {
      mutation.mutate('thumbs_down');
    },
  );

describe('suggestions activity', () => {
  test('a generation logs one suggestions_generated with what changed', async () => {
    const api = mockFetch().on(suggestionRoutes.generate, { body: GENERATED });
    await generate();
    expect(loggedActivities(api)).toEqual([{ activityType: 'suggestions_generated', details: { created: 2, kept: 1, archived: 0, reused: false } }]);
  });

  test('a vote, taken back too, logs one vote_cast', async () => {
    const api = mockFetch().on(suggestionRoutes.vote, { body: { suggestionId: 5, myVote: null } });
    await vote();
    expect(loggedActivities(api)).toEqual([{ activityType: 'vote_cast', details: { target: 'suggestion', suggestionId: 5, myVote: null } }]);
  });

  test('failed calls log nothing', async () => {
    const api = mockFetch().on(suggestionRoutes.generate, REFUSED).on(suggestionRoutes.vote, REFUSED);
    expect((await generate()).isError).toBe(true);
    expect((await vote()).isError).toBe(true);
    expect(loggedActivities(api)).toEqual([]);
  });

  test('a log the server refuses only warns: the generation still succeeds', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockFetch().on(suggestionRoutes.generate, { body: GENERATED }).on(activityRoutes.log, REFUSED);
    expect((await generate()).isSuccess).toBe(true);
    await vi.waitFor(() => {
      expect(warn).toHaveBeenCalledTimes(1);
    });
  });
});
