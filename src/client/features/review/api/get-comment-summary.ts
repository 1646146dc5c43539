import { queryOptions, useQuery } from '@tanstack/react-query';
import { commentRoutes } from '../../../../common/api/comments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The AI summary of a component's comments, with the ids of the comments it was made from. */
export function commentSummaryQueryOptions(componentId: string, title: string) {
  return queryOptions({
    queryKey: queryKeys.commentSummary(componentId),
    queryFn: ({ signal }) => api(commentRoutes.summary, { params: { componentId }, query: { title } }, { signal }),
  });
}

/**
 * Requested only while the component has comments. Opening the panel again asks once more,
 * showing the summary already at hand meanwhile; the server answers from its cache when nothing
 * changed.
 */
export function useCommentSummary(componentId: string, title: string, enabled: boolean) {
  return useQuery({ ...commentSummaryQueryOptions(componentId, title), enabled, refetchOnMount: 'always' });
}
