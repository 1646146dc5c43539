import { queryOptions, useQuery } from '@tanstack/react-query';
import { suggestionRoutes } from '../../../../common/api/suggestions';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The team-level reading of the active suggestions and their votes. */
function narrativeSummaryQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.narrativeSummary,
    queryFn: ({ signal }) => api(suggestionRoutes.narrativeSummary, undefined, { signal }),
  });
}

/** Not asked for once there are known to be no suggestions: without them the summary has nothing to say. */
export function useNarrativeSummary(enabled: boolean) {
  return useQuery({ ...narrativeSummaryQueryOptions(), enabled, refetchOnMount: 'always' });
}
