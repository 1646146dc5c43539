import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminRoutes, type AuditEventName } from '../../../../common/api/admin';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface AuditFilter {
  member?: string | undefined;
  event?: AuditEventName | undefined;
  /** Whether the self-test's own entries are listed. */
  qa: 'show' | 'hide';
  page: number;
}

/**
 * One page of the audit trail, newest first. The previous page stays on screen while the next
 * loads. The trail grows all the time and no live event names it, so a page seen before is shown
 * at once and asked for again.
 */
export function useAuditPage(filter: AuditFilter) {
  return useQuery({
    queryKey: queryKeys.audit(filter),
    queryFn: ({ signal }) => api(adminRoutes.audit, { query: { member: filter.member, event: filter.event, qa: filter.qa, page: String(filter.page) } }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}
