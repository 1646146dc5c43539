import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SuggestionVoteResult } from '../../../../shared/contract/ai';
import type { VoteType } from '../../../../shared/contract/comments';
import { toast } from '../../../components/ui/use-toast';
import { apiJson, describeError } from '../../../lib/api-client';
import { suggestionPaths } from './endpoints';
import { narrativeSummaryQueryOptions } from './get-narrative-summary';
import { suggestionsQueryOptions } from './get-suggestions';

/** POST /api/suggestions/{id}/vote: the same vote again removes it, the other vote replaces it; answers the member's vote after the call. */
export function voteSuggestion({ suggestionId, voteType }: { suggestionId: number; voteType: VoteType }): Promise<SuggestionVoteResult> {
  return apiJson<SuggestionVoteResult>('POST', suggestionPaths.vote(suggestionId), { voteType });
}

export function useVoteSuggestion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: voteSuggestion,
    onSuccess: async () => {
      // The narrative weighs themes by votes, so it is read again too (without holding the toast for it).
      void queryClient.invalidateQueries({ queryKey: narrativeSummaryQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: suggestionsQueryOptions().queryKey });
      toast({ title: 'Vote recorded', description: 'Your vote has been saved.' });
    },
    onError: (error) => {
      toast({ title: 'Failed to vote', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
