import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentRoutes } from '../../../../common/api/comments';
import type { Comment } from '../../../../common/contract/comments';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';

/**
 * Resolve (its author or an admin, with an optional note) or reopen (anyone) a comment; answers the
 * comment as it is now. 409 when a teammate got there first: the list is refetched either way.
 */
export function useSetResolved(comment: Pick<Comment, 'id' | 'componentId'>, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  const refetch = () => refetchChangedBy(queryClient, { type: 'comment.resolution.changed', componentId: comment.componentId });
  return useMutation({
    mutationFn: (change: { resolved: true; note: string } | { resolved: false }) =>
      change.resolved
        ? api(commentRoutes.resolve, { params: { id: comment.id }, body: change.note.trim() === '' ? {} : { note: change.note } })
        : api(commentRoutes.reopen, { params: { id: comment.id } }),
    onSuccess: async (updated) => {
      await refetch();
      toast(updated.resolution === null ? { title: 'Comment reopened', description: 'It counts as open again.' } : { title: 'Comment resolved', description: 'It is folded in the list, with its votes.' });
      options.onSuccess?.();
    },
    onError: (error) => {
      // A teammate may have changed it first: show the list as it is now.
      void refetch().catch(() => undefined);
      toast({ title: 'Could not change the comment', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
