import type { aiContract } from '../../../../shared/contract/ai';

/**
 * The suggestion calls' paths as the client calls them. Written out rather than imported: the
 * contract module builds zod schemas at import time and a value import would pull zod into the
 * page (ADR 0005). Each literal is typed as the contract's own path, so the compiler fails the
 * build the day the two differ.
 */
type Ai = typeof aiContract;

const WITH_VOTES: Ai['suggestionsWithVotes']['path'] = '/api/suggestions/with-votes';
const NARRATIVE: Ai['narrativeSummary']['path'] = '/api/suggestions/narrative-summary';
const GENERATE: Ai['generateSuggestions']['path'] = '/api/suggestions/generate';
const VOTE: Ai['voteSuggestion']['path'] = '/api/suggestions/:id/vote';

export const suggestionPaths = {
  withVotes: WITH_VOTES,
  narrativeSummary: NARRATIVE,
  generate: GENERATE,
  vote: (id: number) => VOTE.replace(':id', String(id)),
} as const;

/** Every suggestion query key starts with this: a reconnect of the live stream refetches them all at once. */
export const SUGGESTION_QUERIES_ROOT = ['suggestions'] as const;
