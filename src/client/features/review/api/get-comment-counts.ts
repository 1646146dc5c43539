import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CommentCounts } from '../../../../shared/contract/comments';
import { apiJson } from '../../../lib/api-client';
import { COMMENT_QUERIES_ROOT, reviewPaths } from './endpoints';

/** GET /api/comments/counts: every component's number of comments, in one request for the whole page. */
export function getCommentCounts(signal?: AbortSignal): Promise<CommentCounts> {
  return apiJson<CommentCounts>('GET', reviewPaths.commentCounts, undefined, signal === undefined ? {} : { signal });
}

export function commentCountsQueryOptions() {
  return queryOptions({
    queryKey: [...COMMENT_QUERIES_ROOT, 'counts'],
    queryFn: ({ signal }) => getCommentCounts(signal),
  });
}

export function useCommentCounts() {
  return useQuery(commentCountsQueryOptions());
}
