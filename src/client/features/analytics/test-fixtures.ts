import { routes } from '../../../common/api';
import type { Route, RouteResponse } from '../../../common/api/route';
import type { AnalyticsUser, CoverageMatrix, DayTotals, TeamActivityEntry } from '../../../common/contract/activity';
import type { CommentCounts } from '../../../common/contract/comments';
import type { CurrentUser } from '../../../common/contract/user';

/** Analytics are for every member, not only the admin. */
export const MEMBER: CurrentUser = { name: 'Morgan Member', firstName: 'Morgan', lastName: 'Member', email: null, profileImageUrl: null, role: 'member', permissions: { canAdminister: false, canDecide: false } };

/** Puts the browser on /analytics (at `tab`, when given); render the page next. */
export function openAnalyticsAt(tab?: string): void {
  window.history.replaceState(null, '', tab === undefined ? '/analytics' : `/analytics?tab=${tab}`);
}

export function userOf(overrides: Partial<AnalyticsUser> = {}): AnalyticsUser {
  return { memberName: 'Ada Lovelace', totalLogins: 3, totalComments: 4, totalVotes: 2, totalActiveTime: 7500, lastLogin: new Date(Date.now() - 2 * 3_600_000).toISOString(), ...overrides };
}

export const USERS: AnalyticsUser[] = [
  userOf(),
  userOf({ memberName: 'Grace Hopper', totalLogins: 9, totalComments: 7, totalVotes: 1, totalActiveTime: 720, lastLogin: new Date(Date.now() - 5 * 60_000).toISOString() }),
  userOf({ memberName: 'Alan Turing', totalLogins: 0, totalComments: 0, totalVotes: 0, totalActiveTime: 0, lastLogin: null }),
];

/** 30 days ending today (UTC), zeros unless `busy` gives a day's figures by its index. */
export function daysOf(busy: Readonly<Record<number, Partial<DayTotals>>> = {}): DayTotals[] {
  const today = Date.UTC(2026, 10, 25);
  return Array.from({ length: 30 }, (_, index) => ({
    day: new Date(today - (29 - index) * 86_400_000).toISOString().slice(0, 10),
    comments: 0,
    votes: 0,
    activeTime: 0,
    ...busy[index],
  }));
}

export function activityOf(id: number, overrides: Partial<TeamActivityEntry> = {}): TeamActivityEntry {
  return { id, memberName: 'Ada Lovelace', activityType: 'comment_added', timestamp: new Date(Date.now() - id * 60_000).toISOString(), details: null, ...overrides };
}

export const COVERAGE: CoverageMatrix = {
  members: ['Ada Lovelace', 'Grace Hopper'],
  components: [
    { id: 'alert-ingestion', title: 'Alert Ingestion', comments: 3, cells: [{ comments: 2, votes: 1 }, { comments: 1, votes: 0 }] },
    { id: 'deduplication', title: 'Deduplication', comments: 0, cells: [{ comments: 0, votes: 2 }, { comments: 0, votes: 0 }] },
    { id: 'root-cause', title: 'Root Cause Analysis', comments: 0, cells: [{ comments: 0, votes: 0 }, { comments: 0, votes: 0 }] },
  ],
};

/**
 * The counts carrying the decisions: Alert Ingestion accepted with changes, Deduplication counted
 * but undecided, Root Cause Analysis absent (no comments, no decision).
 */
export const COUNTS: CommentCounts = {
  components: {
    'alert-ingestion': { open: 2, resolved: 1, decision: 'accepted_with_changes' },
    deduplication: { open: 0, resolved: 0, decision: null },
  },
  actions: { total: 0, done: 0 },
};

/** What of the test's fetch mock (`mockFetch()`) this file needs: answering a route. */
interface Answers {
  on<R extends Route>(route: R, answer: { body: RouteResponse<R> }): unknown;
}

/** Answers the signed-in member and every analytics call with data on `mock`; a test overrides what it is about. */
export function answerAnalytics<M extends Answers>(mock: M): M {
  mock.on(routes.auth.user, { body: MEMBER });
  mock.on(routes.analytics.users, { body: USERS });
  mock.on(routes.analytics.daily, { body: { days: daysOf({ 28: { comments: 3, votes: 2, activeTime: 3600 }, 29: { comments: 1, activeTime: 600 } }) } });
  mock.on(routes.analytics.activeSessions, { body: [] });
  mock.on(routes.analytics.activity, { body: [] });
  mock.on(routes.analytics.coverage, { body: COVERAGE });
  mock.on(routes.comments.counts, { body: COUNTS });
  mock.on(routes.suggestions.withVotes, { body: [] });
  return mock;
}

/**
 * Loads the page's lazy parts ahead (call in `beforeAll`): a test then waits for data, not for a
 * first module transform on a busy machine.
 */
export async function preloadLazyParts(): Promise<void> {
  await Promise.all([import('./components/users-tab'), import('./components/activity-tab'), import('./components/coverage-tab'), import('./components/member-detail')]);
}
