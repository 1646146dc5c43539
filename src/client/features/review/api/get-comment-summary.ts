import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CommentSummary } from '../../../../shared/contract/ai';
import { apiJson } from '../../../lib/api-client';
import { reviewPaths } from './endpoints';

/**
 * GET /api/comments/{componentId}/summary?title=…: the AI summary of the component's comments
 * (spec section 7), with the ids of the comments it was made from.
 */
export function getCommentSummary(componentId: string, title: string, signal?: AbortSignal): Promise<CommentSummary> {
  return apiJson<CommentSummary>('GET', reviewPaths.commentSummary(componentId, title), undefined, signal === undefined ? {} : { signal });
}

/**
 * Not under the comment queries' root on purpose: a live comment event, or the stream's catch-up
 * after a drop, refetches comment lists, and a summary may cost a model call. The panel says when
 * new comments arrived after the summary was made and offers a refresh instead.
 */
export function commentSummaryQueryOptions(componentId: string, title: string) {
  return queryOptions({
    queryKey: ['comment-summary', componentId] as const,
    queryFn: ({ signal }) => getCommentSummary(componentId, title, signal),
  });
}

/**
 * Requested only while the component has comments (spec section 7). Opening the panel again asks
 * once more, showing the summary already at hand meanwhile; the server answers from its cache when
 * nothing changed.
 */
export function useCommentSummary(componentId: string, title: string, enabled: boolean) {
  return useQuery({ ...commentSummaryQueryOptions(componentId, title), enabled, refetchOnMount: 'always' });
}
