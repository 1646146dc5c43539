import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentRoutes } from '../../../../common/api/comments';
import type { VoteType } from '../../../../common/contract/comments';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';

/** The same vote again removes it, the other vote replaces it; answers the member's vote after the call. */
export function useVoteComment(commentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (voteType: VoteType) => api(commentRoutes.vote, { params: { id: commentId }, body: { voteType } }),
    onSuccess: async (result) => {
      await refetchChangedBy(queryClient, { type: 'vote.changed', componentId: result.componentId });
      toast({ title: 'Vote recorded', description: 'Your vote has been saved.' });
    },
    onError: (error) => {
      toast({ title: 'Failed to vote', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
