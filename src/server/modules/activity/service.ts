import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { ACTIVITY_LIMITS, ANALYTICS } from '../../../common/api/activity.js';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import { authRoutes } from '../../../common/api/auth.js';
import { commentRoutes } from '../../../common/api/comments.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import { suggestionRoutes } from '../../../common/api/suggestions.js';
import { generateSuggestionsResponseSchema, suggestionVoteResultSchema } from '../../../common/contract/ai.js';
import { commentSchema, voteResultSchema } from '../../../common/contract/comments.js';
import { currentUserSchema } from '../../../common/contract/user.js';
import { nameKey } from '../../../common/names.js';
import type { ActiveSessionEntry, ActivityLogRequest, ActivityType, ActivitySyncResult, AnalyticsUser, CoverageMatrix, DayTotals, MemberAnalytics, TeamActivityEntry } from '../../../common/contract/activity.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { RateLimiter } from '../../http/rate-limit.js';
import { isCommentEvent, isSuggestionEvent, type LiveEvent } from '../../../common/api/live-events.js';
import { ReadCache } from '../../http/read-cache.js';
import {
  DAY_MS,
  activeSecondsByMember,
  activeSessions,
  addActiveSeconds,
  analyticsMembers,
  coverageCounts,
  creditActiveSeconds,
  dailyActiveSeconds,
  dailyReviewCounts,
  dayOf,
  insertActivity,
  memberIdByNameKey,
  recentActivity,
  reviewCountsByMember,
  rollUpActivity,
  totalActiveSecondsOf,
  type DailyReviewCounts,
  type DayCountRow,
  type MemberRowForAnalytics,
  type ReviewCountsByMember,
} from './repo.js';

const iso = (epochMs: number) => new Date(epochMs).toISOString();

/** A log entry the server writes: its type and details as JSON text. */
export interface ServerActivityEntry {
  activityType: ActivityType;
  details: string | null;
}

const methodPath = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
const signInMethods = new Map([
  [methodPath(authRoutes.login), 'password'],
  [methodPath(authRoutes.setupPin), 'pin-setup'],
  [methodPath(authRoutes.quickLogin), 'quick'],
]);

/** What a successful answer of the sign-in, comment, vote and generation routes writes to the log; null for any other. */
export function serverActivityOf(
  method: string,
  url: string | undefined,
  statusCode: number,
  payload: unknown,
): { signIn: { memberName: string; details: string } } | { entry: ServerActivityEntry } | null {
  if (url === undefined) return null;
  const route = `${method} ${url}`;
  const signInMethod = signInMethods.get(route);
  // A 202 from the password route asks for a first PIN: nobody is signed in yet.
  if (signInMethod !== undefined) {
    const user = currentUserSchema.safeParse(payload);
    return statusCode === 200 && user.success ? { signIn: { memberName: user.data.name, details: JSON.stringify({ method: signInMethod }) } } : null;
  }
  if (statusCode < 200 || statusCode >= 300) return null;
  const entry = (activityType: ActivityType, details: Record<string, unknown>) => ({ entry: { activityType, details: JSON.stringify(details) } });
  if (route === methodPath(commentRoutes.create)) {
    const comment = commentSchema.safeParse(payload);
    return comment.success ? entry('comment_added', { componentId: comment.data.componentId, commentId: comment.data.id }) : null;
  }
  if (route === methodPath(commentRoutes.vote)) {
    const vote = voteResultSchema.safeParse(payload);
    return vote.success ? entry('vote_cast', { target: 'comment', commentId: vote.data.commentId, componentId: vote.data.componentId, myVote: vote.data.myVote }) : null;
  }
  if (route === methodPath(suggestionRoutes.vote)) {
    const vote = suggestionVoteResultSchema.safeParse(payload);
    return vote.success ? entry('vote_cast', { target: 'suggestion', suggestionId: vote.data.suggestionId, myVote: vote.data.myVote }) : null;
  }
  if (route === methodPath(suggestionRoutes.generate)) {
    const result = generateSuggestionsResponseSchema.safeParse(payload);
    return result.success ? entry('suggestions_generated', { created: result.data.created, kept: result.data.kept, archived: result.data.archived, reused: result.data.reused }) : null;
  }
  return null;
}

/** What a member's own work writes: active time and log entries. */
export class ActivityService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly events: EventBus,
    private readonly limiter: RateLimiter,
    private readonly retentionDays: number,
  ) {}

  /**
   * Adds a sync's seconds to the member's day, bounded by the clock: whatever the number of sessions
   * and calls, a member gains at most the seconds that passed since their last counted ones (and at
   * most a minute at once), so a script cannot inflate anyone's time. The bound is kept in the
   * database, so it holds across instances.
   */
  async sync(member: MemberRow, activeTime: number, now = Date.now()): Promise<ActivitySyncResult> {
    let countedSeconds = 0;
    if (activeTime > 0) {
      countedSeconds = await this.db.transaction().execute(async (trx) => {
        const credit = await creditActiveSeconds(trx, member.id, activeTime, ACTIVITY_LIMITS.countedSecondsPerMinute, now);
        if (credit > 0) await addActiveSeconds(trx, member.id, dayOf(now), credit);
        return credit;
      });
      if (countedSeconds > 0) await this.events.publish({ type: 'activity.recorded' });
    }
    return { countedSeconds, totalActiveTime: await totalActiveSecondsOf(this.db, member.id) };
  }

  /**
   * A page view from the member's page (the only entry a client may write): at most
   * `pageViewsPerMinute` are stored a minute, and the same page again within `pageViewRepeatMs` is
   * not stored again, so a member cannot fill the team's feed. Views past either are answered null,
   * not refused: a member clicking quickly through the pages has done nothing wrong, and a 429
   * would be an error in their browser's console. Both counters are database buckets, so they hold
   * across instances.
   */
  async logPageView(member: MemberRow, entry: ActivityLogRequest, now = Date.now()): Promise<number | null> {
    const { hits: views } = await this.limiter.hit(`activity-page-view:member:${member.id}`, 60_000, now);
    if (views > ACTIVITY_LIMITS.pageViewsPerMinute) return null;
    const details = entry.details ?? null;
    const page = createHash('sha256').update(details ?? '').digest('hex').slice(0, 32);
    const { hits } = await this.limiter.hit(`activity-page-repeat:${member.id}:${page}`, ACTIVITY_LIMITS.pageViewRepeatMs, now);
    if (hits > 1) return null;
    return this.record(member.id, { activityType: entry.activityType, details }, now);
  }

  /** An entry the server writes where the thing happened (a sign-in, a generation). */
  async record(memberId: number, entry: ServerActivityEntry, now = Date.now()): Promise<number> {
    const id = await insertActivity(this.db, { memberId, activityType: entry.activityType, details: entry.details, now });
    await this.events.publish({ type: 'activity.recorded' });
    return id;
  }

  /**
   * The same inside the transaction of the write it logs (a comment, a vote): it commits with the
   * write. No event of its own: the write's event drops what reads the log.
   */
  async recordIn(trx: Transaction<Database>, memberId: number, entry: ServerActivityEntry, now = Date.now()): Promise<void> {
    await insertActivity(trx, { memberId, activityType: entry.activityType, details: entry.details, now });
  }

  /** The same, for a sign-in answered with the member's name. */
  async recordSignIn(memberName: string, details: string, now = Date.now()): Promise<void> {
    const memberId = await memberIdByNameKey(this.db, nameKey(memberName));
    if (memberId !== undefined) await this.record(memberId, { activityType: 'login', details }, now);
  }

  /** Rolls log rows past the retention into daily counts; answers how many rows went. */
  async rollUp(now = Date.now()): Promise<number> {
    return rollUpActivity(this.db, now - this.retentionDays * DAY_MS);
  }
}

/** YYYY-MM-DD of a day number. */
const dayText = (day: number) => iso(day * DAY_MS).slice(0, 10);

/** One entry per day of the span, oldest first, zeros included. */
function daySeries(lastDay: number, days: number, review: DailyReviewCounts, activeRows: DayCountRow[]): DayTotals[] {
  const byDay = (rows: DayCountRow[]) => new Map(rows.map((row) => [row.day, row.count]));
  const comments = byDay(review.comments);
  const votes = byDay(review.votes);
  const active = byDay(activeRows);
  return Array.from({ length: days }, (_, index) => {
    const day = lastDay - days + 1 + index;
    return { day: dayText(day), comments: comments.get(day) ?? 0, votes: votes.get(day) ?? 0, activeTime: active.get(day) ?? 0 };
  });
}

function analyticsUser(member: MemberRowForAnalytics, review: ReviewCountsByMember, active: ReadonlyMap<number, number>): AnalyticsUser {
  return {
    memberName: member.full_name,
    totalLogins: member.login_count,
    totalComments: review.comments.get(member.id) ?? 0,
    totalVotes: review.votes.get(member.id) ?? 0,
    totalActiveTime: active.get(member.id) ?? 0,
    lastLogin: member.last_sign_in_at === null ? null : iso(member.last_sign_in_at),
  };
}

/**
 * A comment or vote change the analytics count. The self-test's scratch component takes only the QA
 * member's comments and votes, which no figure counts: its runs leave the team's figures (and the
 * grouped reads behind them) alone.
 */
export function isCountedCommentEvent(event: LiveEvent): boolean {
  return isCommentEvent(event) && event.componentId !== QA_TEST_COMPONENT_ID;
}

/** Changes to what the review counts hold: comments, votes (on comments and suggestions), members. */
function changesReviewCounts(event: LiveEvent): boolean {
  return isCountedCommentEvent(event) || isSuggestionEvent(event) || event.type === 'members.changed';
}

/**
 * An opaque handle for a session in the list: stable while the session lives, unrelated to its
 * cookie (the stored hash never leaves the server either).
 */
function sessionHandle(tokenHash: string): string {
  return createHash('sha256').update(`analytics-session:${tokenHash}`).digest('hex').slice(0, 16);
}

/**
 * The team's figures; the QA member is left out of every one. The counts over the large tables
 * (comments and votes by member and by day) are kept in memory until a review change: members'
 * active time changes every minute and is read fresh from its small table, so a sync never makes
 * the next answer recount a quarter of a million votes.
 */
export class AnalyticsService {
  private readonly byMember: ReadCache<ReviewCountsByMember>;
  private readonly byDay: ReadCache<DailyReviewCounts>;

  constructor(
    private readonly db: Kysely<Database>,
    events: EventBus,
    /** The commentable components in page order, with their titles (the QA component excluded). */
    private readonly components: readonly { id: string; title: string }[],
  ) {
    const maxAgeMs = 60_000;
    this.byMember = new ReadCache(events, { maxAgeMs });
    this.byDay = new ReadCache(events, { maxAgeMs });
    const dropAll = () => {
      this.byMember.invalidateAll();
      this.byDay.invalidateAll();
    };
    events.onChange((event) => {
      if (changesReviewCounts(event)) dropAll();
    });
    events.onGap(dropAll);
  }

  private reviewCounts(): Promise<ReviewCountsByMember> {
    return this.byMember.get('all', () => reviewCountsByMember(this.db));
  }

  async users(): Promise<AnalyticsUser[]> {
    const [members, review, active] = await Promise.all([analyticsMembers(this.db), this.reviewCounts(), activeSecondsByMember(this.db)]);
    return members.map((member) => analyticsUser(member, review, active));
  }

  async activeSessions(now = Date.now()): Promise<ActiveSessionEntry[]> {
    const rows = await activeSessions(this.db, now - ANALYTICS.activeSessionMs, now);
    return rows.map((row) => ({ id: sessionHandle(row.token_hash), memberName: row.member_name, loginTime: iso(row.created_at), lastSeen: iso(row.last_seen_at) }));
  }

  /** One member's figures, by their name in any case and spacing. */
  async member(memberName: string, now = Date.now()): Promise<MemberAnalytics> {
    const [member] = await analyticsMembers(this.db, { memberKey: nameKey(memberName) });
    if (member === undefined) throw notFound(`No team member named ${memberName}`, ERROR_CODES.memberNotFound);
    const today = dayOf(now);
    const fromDay = today - ANALYTICS.chartDays + 1;
    const [review, active, activity, reviewDays, activeDays] = await Promise.all([
      this.reviewCounts(),
      activeSecondsByMember(this.db, [member.id]),
      recentActivity(this.db, ANALYTICS.recentActivity, member.id),
      dailyReviewCounts(this.db, fromDay, member.id),
      dailyActiveSeconds(this.db, fromDay, member.id),
    ]);
    return {
      user: analyticsUser(member, review, active),
      recentActivity: activity.map(({ id, activity_type: activityType, created_at: createdAt, details }) => ({ id, activityType, timestamp: iso(createdAt), details })),
      daily: daySeries(today, ANALYTICS.chartDays, reviewDays, activeDays),
    };
  }

  async daily(now = Date.now()): Promise<{ days: DayTotals[] }> {
    const today = dayOf(now);
    const fromDay = today - ANALYTICS.chartDays + 1;
    const [review, active] = await Promise.all([this.byDay.get(String(fromDay), () => dailyReviewCounts(this.db, fromDay)), dailyActiveSeconds(this.db, fromDay)]);
    return { days: daySeries(today, ANALYTICS.chartDays, review, active) };
  }

  async activity(): Promise<TeamActivityEntry[]> {
    const rows = await recentActivity(this.db, ANALYTICS.recentActivity);
    return rows.map((row) => ({ id: row.id, memberName: row.member_name, activityType: row.activity_type, timestamp: iso(row.created_at), details: row.details }));
  }

  async coverage(): Promise<CoverageMatrix> {
    const [members, counts] = await Promise.all([analyticsMembers(this.db, { activeOnly: true }), coverageCounts(this.db)]);
    const key = (componentId: string, memberId: number) => `${componentId}\u0000${memberId}`;
    const comments = new Map(counts.comments.map((row) => [key(row.component_id, row.member_id), row.count]));
    const votes = new Map(counts.votes.map((row) => [key(row.component_id, row.member_id), row.count]));
    const componentComments = new Map<string, number>();
    for (const row of counts.comments) componentComments.set(row.component_id, (componentComments.get(row.component_id) ?? 0) + row.count);
    return {
      members: members.map((member) => member.full_name),
      components: this.components.map(({ id, title }) => ({
        id,
        title,
        comments: componentComments.get(id) ?? 0,
        cells: members.map((member) => ({ comments: comments.get(key(id, member.id)) ?? 0, votes: votes.get(key(id, member.id)) ?? 0 })),
      })),
    };
  }
}
