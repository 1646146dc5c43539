import { queryOptions, useQuery } from '@tanstack/react-query';
import { commentRoutes } from '../../../common/api/comments';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/** Every component's number of comments, in one request for the whole page. */
export function commentCountsQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.commentCounts,
    queryFn: ({ signal }) => api(commentRoutes.counts, undefined, { signal }),
  });
}

export function useCommentCounts() {
  return useQuery(commentCountsQueryOptions());
}
