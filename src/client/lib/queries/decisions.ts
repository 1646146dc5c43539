import { useQuery } from '@tanstack/react-query';
import { decisionRoutes } from '../../../common/api/decisions';
import { api } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * A component's decisions, newest first: the current one and its history. Refetched on every open,
 * as the comments are; `{ refetchOnMount: false }` for a second reader in the same panel, which
 * shares the first one's answer.
 */
export function useDecisions(componentId: string, options: { refetchOnMount?: false } = {}) {
  return useQuery({
    queryKey: queryKeys.decisions(componentId),
    queryFn: ({ signal }) => api(decisionRoutes.history, { params: { componentId } }, { signal }),
    refetchOnMount: options.refetchOnMount ?? 'always',
  });
}
