import { useMutation, useQueryClient } from '@tanstack/react-query';
import { suggestionRoutes } from '../../../../common/api/suggestions';
import type { VoteType } from '../../../../common/contract/comments';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';

/** The same vote again removes it, the other vote replaces it; answers the member's vote after the call. */
export function useVoteSuggestion(suggestionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (voteType: VoteType) => api(suggestionRoutes.vote, { params: { id: suggestionId }, body: { voteType } }),
    onSuccess: async () => {
      await refetchChangedBy(queryClient, { type: 'suggestion.vote.changed' });
      toast({ title: 'Vote recorded', description: 'Your vote has been saved.' });
    },
    onError: (error) => {
      toast({ title: 'Failed to vote', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
