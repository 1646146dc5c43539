import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VoteResult, VoteType } from '../../../../shared/contract/comments';
import { toast } from '../../../components/ui/use-toast';
import { apiJson, describeError } from '../../../lib/api-client';
import { reviewPaths } from './endpoints';
import { commentsQueryOptions } from './get-comments';

/** POST /api/comments/{id}/vote: the same vote again removes it, the other vote replaces it; answers the member's vote after the call. */
export function voteComment({ commentId, voteType }: { commentId: number; voteType: VoteType }): Promise<VoteResult> {
  return apiJson<VoteResult>('POST', reviewPaths.voteComment(commentId), { voteType });
}

export function useVoteComment(componentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: voteComment,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: commentsQueryOptions(componentId).queryKey });
      toast({ title: 'Vote recorded', description: 'Your vote has been saved.' });
    },
    onError: (error) => {
      toast({ title: 'Failed to vote', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
