import { queryOptions, useQuery } from '@tanstack/react-query';
import { commentRoutes } from '../../../common/api/comments';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * A component's comments, newest first, each with its votes: the review's comment panel and the
 * suggestions page's sources both read them.
 */
export function commentsQueryOptions(componentId: string) {
  return queryOptions({
    queryKey: queryKeys.comments(componentId),
    queryFn: ({ signal }) => api(commentRoutes.withVotes, { params: { componentId } }, { signal }),
  });
}

/**
 * Live events keep an open panel current; opening the panel again refetches as well (showing the
 * cached list meanwhile), so an event lost while the stream reconnected can never leave it stale.
 */
export function useComments(componentId: string) {
  return useQuery({ ...commentsQueryOptions(componentId), refetchOnMount: 'always' });
}
