import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Comment, CreateCommentInput } from '../../../../shared/contract/comments';
import { toast } from '../../../components/ui/use-toast';
import { apiJson, describeError } from '../../../lib/api-client';
import { reviewPaths } from './endpoints';
import { commentCountsQueryOptions } from './get-comment-counts';
import { commentsQueryOptions } from './get-comments';

/** POST /api/comments: 201 with the stored comment; 400 for empty or too long text, 404 for an unknown component. */
export function createComment(input: CreateCommentInput): Promise<Comment> {
  return apiJson<Comment>('POST', reviewPaths.createComment, input);
}

export function useCreateComment(options: { onSuccess?: (comment: Comment) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createComment,
    // Returning the refetch keeps the form in 'Posting...' until the new comment is on screen.
    onSuccess: async (comment) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: commentsQueryOptions(comment.componentId).queryKey }),
        queryClient.invalidateQueries({ queryKey: commentCountsQueryOptions().queryKey }),
      ]);
      toast({ title: 'Comment added', description: 'Your comment has been posted successfully.' });
      options.onSuccess?.(comment);
    },
    onError: (error) => {
      toast({ title: 'Failed to add comment', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
