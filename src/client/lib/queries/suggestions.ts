import { queryOptions, useQuery } from '@tanstack/react-query';
import { suggestionRoutes } from '../../../common/api/suggestions';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** The active suggestions, in the latest generation's order, each with its votes. */
export function suggestionsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.suggestions,
    queryFn: ({ signal }) => api(suggestionRoutes.withVotes, undefined, { signal }),
  });
}

/** Live events keep the list current while the page is open; coming back to the page refetches as well. */
export function useSuggestions() {
  return useQuery({ ...suggestionsQueryOptions(), refetchOnMount: 'always' });
}
