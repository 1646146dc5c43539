import type { GenerateSuggestionsResponse, NarrativeSummary, Suggestion, SuggestionVoteResult } from '../contract/ai.js';
import type { VoteRequest } from '../contract/comments.js';
import { defineRoute } from './route.js';

/** The suggestion calls: generate from all comments, list with votes, vote, the team narrative. */
export const suggestionRoutes = {
  generate: defineRoute<{ response: GenerateSuggestionsResponse }>()('POST', '/api/suggestions/generate'),
  withVotes: defineRoute<{ response: Suggestion[] }>()('GET', '/api/suggestions/with-votes'),
  vote: defineRoute<{ body: VoteRequest; response: SuggestionVoteResult }>()('POST', '/api/suggestions/:id/vote'),
  narrativeSummary: defineRoute<{ response: NarrativeSummary }>()('GET', '/api/suggestions/narrative-summary'),
} as const;
