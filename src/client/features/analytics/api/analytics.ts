import { useQuery } from '@tanstack/react-query';
import { analyticsRoutes } from '../../../../common/api/activity';
import { api } from '../../../lib/api-client';
import { commentCountsQueryOptions } from '../../../lib/queries/comment-counts';
import { queryKeys } from '../../../lib/query-keys';

/** Who is active now, asked again this often while the Activity tab is open. */
export const ACTIVE_NOW_REFETCH_MS = 30_000;

/**
 * Analytics change all the time and no live event names them: what was seen before shows at once
 * and is asked for again on every visit.
 */
const freshOnVisit = { staleTime: 0, refetchOnMount: 'always' } as const;

/** Every member's totals: logins, comments, votes, active time, last sign-in. */
export function useAnalyticsUsers() {
  return useQuery({
    queryKey: queryKeys.analyticsUsers,
    queryFn: ({ signal }) => api(analyticsRoutes.users, undefined, { signal }),
    ...freshOnVisit,
  });
}

/** One member's figures, recent activity and days. */
export function useMemberAnalytics(memberName: string) {
  return useQuery({
    queryKey: queryKeys.analyticsMember(memberName),
    queryFn: ({ signal }) => api(analyticsRoutes.user, { params: { memberName } }, { signal }),
    ...freshOnVisit,
  });
}

/** The team's comments, votes and active time per day, oldest first. */
export function useDailyTotals() {
  return useQuery({
    queryKey: queryKeys.analyticsDaily,
    queryFn: ({ signal }) => api(analyticsRoutes.daily, undefined, { signal }),
    ...freshOnVisit,
  });
}

/** Sessions seen in the last few minutes; polled while shown. */
export function useActiveSessions() {
  return useQuery({
    queryKey: queryKeys.activeSessions,
    queryFn: ({ signal }) => api(analyticsRoutes.activeSessions, undefined, { signal }),
    ...freshOnVisit,
    refetchInterval: ACTIVE_NOW_REFETCH_MS,
  });
}

/** The team's recent activity, newest first; polled with the active sessions. */
export function useTeamActivity() {
  return useQuery({
    queryKey: queryKeys.teamActivity,
    queryFn: ({ signal }) => api(analyticsRoutes.activity, undefined, { signal }),
    ...freshOnVisit,
    refetchInterval: ACTIVE_NOW_REFETCH_MS,
  });
}

/** Who commented on or voted on each component. */
export function useReviewCoverage() {
  return useQuery({
    queryKey: queryKeys.reviewCoverage,
    queryFn: ({ signal }) => api(analyticsRoutes.coverage, undefined, { signal }),
    ...freshOnVisit,
  });
}

/**
 * Each component's current decision, carried by the comment counts: the review page's query, so
 * the cache is shared. No live event reaches this page, so it is asked again on every visit.
 */
export function useComponentDecisions() {
  return useQuery({ ...commentCountsQueryOptions(), refetchOnMount: 'always' });
}
