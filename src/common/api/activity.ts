import type {
  ActivityLogAccepted,
  ActivityLogRequest,
  ActivitySyncRequest,
  ActivitySyncResult,
  ActiveSessionEntry,
  AnalyticsUser,
  CoverageMatrix,
  DailyTotals,
  MemberAnalytics,
  TeamActivityEntry,
} from '../contract/activity.js';
import { defineRoute } from './route.js';

/**
 * The types of the activity log. The server writes sign-ins, comments, votes and generations itself,
 * where they happen; the client may log page views only (any other type is refused).
 */
export const ACTIVITY_TYPES = ['login', 'page_view', 'comment_added', 'vote_cast', 'suggestions_generated'] as const;
export const CLIENT_ACTIVITY_TYPES = ['page_view'] as const;

/**
 * The activity tracker's clock: idle after 30 s without input (checked every 30 s) or when the tab
 * is hidden; active time is sent every 60 s, on unload and when tracking stops.
 */
export const ACTIVITY_TRACKING = {
  idleMs: 30_000,
  idleCheckMs: 30_000,
  syncMs: 60_000,
  inputEvents: ['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart', 'click'],
} as const;

export const ACTIVITY_LIMITS = {
  /** One sync claims at most two minutes (a late sync after a slow minute); more is refused. */
  maxSyncSeconds: 120,
  /**
   * Active seconds a member gains per minute of the clock, across all their sessions: a sync counts
   * only the seconds since the member's last counted ones, at most this many; the rest is answered
   * with `countedSeconds` below the claim.
   */
  countedSecondsPerMinute: 60,
  /** The details of a log entry, as JSON text. */
  detailsBytes: 2048,
  /** Page views a minute per member (the client logs one per route change); 429 beyond. */
  pageViewsPerMinute: 20,
  /** The same page again within this time is answered but not stored again: no flooding the team's feed. */
  pageViewRepeatMs: 30_000,
  /** A page view's path. */
  pagePathChars: 500,
} as const;

export const ANALYTICS = {
  /** The overview's leaderboard. */
  topMembers: 5,
  /** A session seen this recently counts as active. */
  activeSessionMs: 5 * 60_000,
  /** The overview chart's span. */
  chartDays: 30,
  /** A member's timeline and the team's recent activity. */
  recentActivity: 50,
} as const;

export const activityRoutes = {
  sync: defineRoute<{ body: ActivitySyncRequest; response: ActivitySyncResult }>()('POST', '/api/activity/sync'),
  log: defineRoute<{ body: ActivityLogRequest; response: ActivityLogAccepted }>()('POST', '/api/activity/log'),
} as const;

export const analyticsRoutes = {
  users: defineRoute<{ response: AnalyticsUser[] }>()('GET', '/api/analytics/users'),
  activeSessions: defineRoute<{ response: ActiveSessionEntry[] }>()('GET', '/api/analytics/sessions/active'),
  user: defineRoute<{ response: MemberAnalytics }>()('GET', '/api/analytics/user/:memberName'),
  /** The overview chart, the team's recent activity and the review coverage. */
  daily: defineRoute<{ response: DailyTotals }>()('GET', '/api/analytics/daily'),
  activity: defineRoute<{ response: TeamActivityEntry[] }>()('GET', '/api/analytics/activity'),
  coverage: defineRoute<{ response: CoverageMatrix }>()('GET', '/api/analytics/coverage'),
} as const;
