import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentRoutes } from '../../../../common/api/comments';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';

/** 204; 403 when the member is not the author, 404 when it is already gone. Its votes go with it. */
export function useDeleteComment(componentId: string, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (commentId: number) => api(commentRoutes.remove, { params: { id: commentId } }),
    onSuccess: async () => {
      await refetchChangedBy(queryClient, { type: 'comment.deleted', componentId });
      toast({ title: 'Comment deleted', description: 'Your comment has been removed.' });
      options.onSuccess?.();
    },
    onError: (error) => {
      toast({ title: 'Failed to delete comment', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
