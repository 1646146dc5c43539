import { useMutation, useQueryClient } from '@tanstack/react-query';
import { describeSample } from '../../../../common/analysis-sample';
import { suggestionRoutes } from '../../../../common/api/suggestions';
import type { GenerateSuggestionsResponse } from '../../../../common/contract/ai';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';
import { queryKeys } from '../../../lib/query-keys';
import { plural } from '../../../lib/plural';

/** The toast after a generation: what changed, from how many comments (a sample, when it was one), and any provider notice. */
export function describeGeneration(result: GenerateSuggestionsResponse): { title: string; description: string } {
  const changes = `${result.created} new, ${result.kept} kept, ${result.archived} archived`;
  const from = `from ${plural(result.commentCount, 'team comment')}`;
  // A very large review is read as a sample: the toast says so.
  const sample = result.sample === undefined ? '' : ` ${describeSample(result.sample)}`;
  const notice = result.fallback && result.notice !== undefined ? ` ${result.notice}` : '';
  if (result.reused) {
    return {
      title: 'Recent result reused',
      description: `Suggestions were generated less than 10 seconds ago, so that result is shown: ${changes} ${from}.${sample}${notice}`,
    };
  }
  return { title: 'Feedback and recommendations updated', description: `${changes} ${from}.${sample}${notice}` };
}

export function useGenerateSuggestions() {
  const queryClient = useQueryClient();
  return useMutation({
    // Reads every comment and stores the suggestions that follow from them. Suggestions that still
    // stand keep their id and votes; the rest are archived. Within 10 s of the last generation the
    // server answers that one again (`reused`).
    mutationFn: () => api(suggestionRoutes.generate),
    // The answer carries the new list: shown at once; the narrative over it is asked for again.
    onSuccess: async (result) => {
      queryClient.setQueryData(queryKeys.suggestions, result.suggestions);
      toast(describeGeneration(result));
      await refetchChangedBy(queryClient, { type: 'suggestions.generated' }, { fresh: queryKeys.suggestions });
    },
    onError: (error) => {
      toast({ title: 'Failed to generate suggestions', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
