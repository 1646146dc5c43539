import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Comment } from '../../../../shared/contract/comments';
import { apiJson } from '../../../lib/api-client';
import { COMMENT_QUERIES_ROOT, reviewPaths } from './endpoints';

/** GET /api/comments/{componentId}/with-votes: the component's comments, newest first, each with its votes. */
export function getComments(componentId: string, signal?: AbortSignal): Promise<Comment[]> {
  return apiJson<Comment[]>('GET', reviewPaths.commentsWithVotes(componentId), undefined, signal === undefined ? {} : { signal });
}

export function commentsQueryOptions(componentId: string) {
  return queryOptions({
    queryKey: [...COMMENT_QUERIES_ROOT, 'with-votes', componentId],
    queryFn: ({ signal }) => getComments(componentId, signal),
  });
}

/**
 * Live events keep an open panel current; opening the panel again refetches as well (showing the
 * cached list meanwhile), so an event lost while the stream reconnected can never leave it stale.
 */
export function useComments(componentId: string) {
  return useQuery({ ...commentsQueryOptions(componentId), refetchOnMount: 'always' });
}
