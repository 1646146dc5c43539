import { useQueryClient } from '@tanstack/react-query';
import { useLiveEvents } from '../../../lib/live-events';
import { isCommentEvent } from '../../../../shared/live-events';
import { COMMENT_QUERIES_ROOT } from './endpoints';
import { commentCountsQueryOptions } from './get-comment-counts';
import { commentsQueryOptions } from './get-comments';

/**
 * Teammates' comments and votes, live: each change event refetches exactly what it affects (that
 * component's list, and the counts when a comment came or went). After the stream broke, events
 * may have been missed, so every comment query is refetched; lists of closed panels are only
 * marked stale and refetch when opened.
 */
export function useLiveCommentUpdates(): void {
  const queryClient = useQueryClient();
  useLiveEvents({
    onChange: (event) => {
      if (!isCommentEvent(event)) return;
      void queryClient.invalidateQueries({ queryKey: commentsQueryOptions(event.componentId).queryKey });
      if (event.type !== 'vote.changed') void queryClient.invalidateQueries({ queryKey: commentCountsQueryOptions().queryKey });
    },
    onOpen: ({ afterDrop }) => {
      if (afterDrop) void queryClient.invalidateQueries({ queryKey: COMMENT_QUERIES_ROOT });
    },
  });
}
