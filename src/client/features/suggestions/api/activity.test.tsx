import { describe, expect, test } from 'vitest';
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
  // The server logs generations and votes where they happen; the page posts no entry for them.
  test('a generation and a vote, taken back too, post no activity entry', async () => {
    const api = mockFetch().on(suggestionRoutes.generate, { body: GENERATED }).on(suggestionRoutes.vote, { body: { suggestionId: 5, myVote: null } });
    expect((await generate()).isSuccess).toBe(true);
    expect((await vote()).isSuccess).toBe(true);
    expect(loggedActivities(api)).toEqual([]);
  });
});
