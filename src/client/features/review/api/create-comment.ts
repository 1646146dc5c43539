import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentRoutes } from '../../../../common/api/comments';
import type { Comment, CreateCommentInput } from '../../../../common/contract/comments';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';

/** 201 with the stored comment; 400 for empty or too long text, 404 for an unknown component. */
export function useCreateComment(options: { onSuccess?: (comment: Comment) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateCommentInput) => api(commentRoutes.create, { body: input }),
    // Waiting for the refetch keeps the form in 'Posting...' until the new comment is on screen.
    onSuccess: async (comment) => {
      await refetchChangedBy(queryClient, { type: 'comment.created', componentId: comment.componentId });
      toast({ title: 'Comment added', description: 'Your comment has been posted successfully.' });
      options.onSuccess?.(comment);
    },
    onError: (error) => {
      toast({ title: 'Failed to add comment', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
