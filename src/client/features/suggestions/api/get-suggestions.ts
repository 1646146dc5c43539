import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Suggestion } from '../../../../shared/contract/ai';
import { apiJson } from '../../../lib/api-client';
import { SUGGESTION_QUERIES_ROOT, suggestionPaths } from './endpoints';

/** GET /api/suggestions/with-votes: the active suggestions, in the latest generation's order, each with its votes. */
export function getSuggestions(signal?: AbortSignal): Promise<Suggestion[]> {
  return apiJson<Suggestion[]>('GET', suggestionPaths.withVotes, undefined, signal === undefined ? {} : { signal });
}

export function suggestionsQueryOptions() {
  return queryOptions({
    queryKey: [...SUGGESTION_QUERIES_ROOT, 'with-votes'],
    queryFn: ({ signal }) => getSuggestions(signal),
  });
}

/** Live events keep the list current while the page is open; coming back to the page refetches as well. */
export function useSuggestions() {
  return useQuery({ ...suggestionsQueryOptions(), refetchOnMount: 'always' });
}
