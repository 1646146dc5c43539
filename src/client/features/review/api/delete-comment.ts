import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../components/ui/use-toast';
import { apiRequest, describeError } from '../../../lib/api-client';
import { reviewPaths } from './endpoints';
import { commentCountsQueryOptions } from './get-comment-counts';
import { commentsQueryOptions } from './get-comments';

/** DELETE /api/comments/{id}: 204; 403 when the member is not the author, 404 when it is already gone. Its votes go with it. */
export async function deleteComment(commentId: number): Promise<void> {
  await apiRequest('DELETE', reviewPaths.deleteComment(commentId));
}

export function useDeleteComment(componentId: string, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteComment,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: commentsQueryOptions(componentId).queryKey }),
        queryClient.invalidateQueries({ queryKey: commentCountsQueryOptions().queryKey }),
      ]);
      toast({ title: 'Comment deleted', description: 'Your comment has been removed.' });
      options.onSuccess?.();
    },
    onError: (error) => {
      toast({ title: 'Failed to delete comment', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
