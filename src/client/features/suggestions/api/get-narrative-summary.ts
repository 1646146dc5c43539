import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NarrativeSummary } from '../../../../shared/contract/ai';
import { apiJson } from '../../../lib/api-client';
import { SUGGESTION_QUERIES_ROOT, suggestionPaths } from './endpoints';

/** GET /api/suggestions/narrative-summary: the team-level reading of the active suggestions and their votes. */
export function getNarrativeSummary(signal?: AbortSignal): Promise<NarrativeSummary> {
  return apiJson<NarrativeSummary>('GET', suggestionPaths.narrativeSummary, undefined, signal === undefined ? {} : { signal });
}

export function narrativeSummaryQueryOptions() {
  return queryOptions({
    queryKey: [...SUGGESTION_QUERIES_ROOT, 'narrative-summary'],
    queryFn: ({ signal }) => getNarrativeSummary(signal),
  });
}

/** Only asked for when there are suggestions: without them the summary has nothing to say. */
export function useNarrativeSummary(enabled: boolean) {
  return useQuery({ ...narrativeSummaryQueryOptions(), enabled, refetchOnMount: 'always' });
}
