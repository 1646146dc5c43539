import { sql, type Kysely } from 'kysely';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import type { Database } from '../../db/schema.js';

export const DAY_MS = 86_400_000;

/** Whole days since the epoch, UTC: the key of a member's daily rows. */
export function dayOf(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

/**
 * Moves the member's active-time clock for a sync claiming `claimSeconds` (at most `lookbackSeconds`
 * of it count) and answers the seconds it counts: only seconds of the clock since what was last
 * counted, by any of the member's sessions on any instance. One atomic upsert (the SET expressions
 * read the row as it was), so concurrent syncs are serialised by the row and never count one second twice.
 */
export async function creditActiveSeconds(db: Kysely<Database>, memberId: number, claimSeconds: number, lookbackSeconds: number, now: number): Promise<number> {
  const credit = Math.min(claimSeconds, lookbackSeconds);
  const nowMs = sql<number>`cast(${now} as bigint)`;
  const floor = sql<number>`cast(${now - credit * 1000} as bigint)`;
  const until = sql.ref('activity_clock.counted_until');
  // Seconds between the old mark and now, when the mark is within the claim (a mark ahead of this
  // instance's clock counts nothing).
  const gapSeconds = sql<number>`case when ${until} < ${nowMs} then (${nowMs} - ${until}) / 1000 else 0 end`;
  const row = await db
    .insertInto('activity_clock')
    .values({ member_id: memberId, counted_until: now, last_credit: credit })
    .onConflict((oc) =>
      oc.column('member_id').doUpdateSet({
        last_credit: sql<number>`case when ${until} > ${floor} then ${gapSeconds} else ${credit} end`,
        // The mark moves by the seconds counted, not to now: a fraction of a second is not lost.
        counted_until: sql<number>`case when ${until} > ${floor} then ${until} + ${gapSeconds} * 1000 else ${nowMs} end`,
      }),
    )
    .returning('last_credit')
    .executeTakeFirstOrThrow();
  return row.last_credit;
}

/** Adds a sync's seconds to the member's row of the day: one upsert, however often they sync. */
export async function addActiveSeconds(db: Kysely<Database>, memberId: number, day: number, seconds: number): Promise<void> {
  await db
    .insertInto('activity_time')
    .values({ member_id: memberId, day, active_seconds: seconds })
    .onConflict((oc) => oc.columns(['member_id', 'day']).doUpdateSet({ active_seconds: sql<number>`activity_time.active_seconds + ${seconds}` }))
    .execute();
}

export async function totalActiveSecondsOf(db: Kysely<Database>, memberId: number): Promise<number> {
  const row = await db
    .selectFrom('activity_time')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('active_seconds'), sql<number>`0`).as('total'))
    .where('member_id', '=', memberId)
    .executeTakeFirst();
  return row?.total ?? 0;
}

export async function insertActivity(db: Kysely<Database>, entry: { memberId: number; activityType: string; details: string | null; now: number }): Promise<number> {
  const row = await db
    .insertInto('activity_log')
    .values({ member_id: entry.memberId, activity_type: entry.activityType, details: entry.details, created_at: entry.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A member's id by name key; never the QA member's, whose work (the self-test's) is not logged. */
export async function memberIdByNameKey(db: Kysely<Database>, memberKey: string): Promise<number | undefined> {
  const row = await db.selectFrom('members').select('id').where('name_key', '=', memberKey).where('is_qa', '=', 0).executeTakeFirst();
  return row?.id;
}

/**
 * Folds log rows older than `before` into per-member, per-day, per-type counts and deletes them, in
 * one transaction, so the log stays bounded and what it counted is kept.
 */
export async function rollUpActivity(db: Kysely<Database>, before: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const groups = await trx
      .selectFrom('activity_log')
      .select((eb) => ['member_id', 'activity_type', sql<number>`created_at / ${sql.lit(DAY_MS)}`.as('day'), eb.fn.countAll<number>().as('entries')])
      .where('created_at', '<', before)
      .groupBy(['member_id', 'activity_type', sql`created_at / ${sql.lit(DAY_MS)}`])
      .execute();
    for (const group of groups) {
      const { entries } = group;
      await trx
        .insertInto('activity_daily')
        .values({ member_id: group.member_id, day: group.day, activity_type: group.activity_type, entries })
        .onConflict((oc) => oc.columns(['member_id', 'day', 'activity_type']).doUpdateSet({ entries: sql<number>`activity_daily.entries + ${entries}` }))
        .execute();
    }
    const deleted = await trx.deleteFrom('activity_log').where('created_at', '<', before).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}

export interface MemberRowForAnalytics {
  id: number;
  full_name: string;
  login_count: number;
  last_sign_in_at: number | null;
}

/** Every member but the QA member by name (deactivated ones too, unless `activeOnly`), or only the one with `memberKey` (a name key). */
export async function analyticsMembers(db: Kysely<Database>, options: { memberKey?: string; activeOnly?: boolean } = {}): Promise<MemberRowForAnalytics[]> {
  let query = db.selectFrom('members').select(['id', 'full_name', 'login_count', 'last_sign_in_at']).where('is_qa', '=', 0);
  if (options.memberKey !== undefined) query = query.where('name_key', '=', options.memberKey);
  if (options.activeOnly === true) query = query.where('active', '=', 1);
  return query.orderBy('full_name').execute();
}

/** What each member wrote and voted, by member id: the large tables' part of the figures, which only reviews change. */
export interface ReviewCountsByMember {
  comments: ReadonlyMap<number, number>;
  votes: ReadonlyMap<number, number>;
}

/** Three grouped reads over member indexes; comments on the self-test's scratch component never count. */
export async function reviewCountsByMember(db: Kysely<Database>): Promise<ReviewCountsByMember> {
  const [comments, commentVotes, suggestionVotes] = await Promise.all([countBy(db, 'comments'), countBy(db, 'comment_votes'), countBy(db, 'suggestion_votes')]);
  const votes = new Map(commentVotes);
  for (const [memberId, count] of suggestionVotes) votes.set(memberId, (votes.get(memberId) ?? 0) + count);
  return { comments, votes };
}

async function countBy(db: Kysely<Database>, table: 'comments' | 'comment_votes' | 'suggestion_votes'): Promise<Map<number, number>> {
  let query = db.selectFrom(table).select((eb) => ['member_id', eb.fn.countAll<number>().as('count')]);
  if (table === 'comments') query = query.where('component_id', '!=', QA_TEST_COMPONENT_ID);
  const rows = await query.groupBy('member_id').execute();
  return new Map(rows.map((row) => [row.member_id, row.count]));
}

/** Active seconds in all, by member id: one row a member and day, so a small read. */
export async function activeSecondsByMember(db: Kysely<Database>, memberIds?: readonly number[]): Promise<Map<number, number>> {
  let query = db.selectFrom('activity_time').select((eb) => ['member_id', eb.fn.sum<number>('active_seconds').as('total')]);
  if (memberIds !== undefined) query = query.where('member_id', 'in', memberIds);
  const rows = await query.groupBy('member_id').execute();
  return new Map(rows.map((row) => [row.member_id, row.total]));
}

export interface DayCountRow {
  day: number;
  count: number;
}

export interface DailyReviewCounts {
  comments: DayCountRow[];
  votes: DayCountRow[];
}

/** Comments and votes per day since `fromDay` (by the creation indexes), optionally of one member; the QA member's are left out. */
export async function dailyReviewCounts(db: Kysely<Database>, fromDay: number, memberId?: number): Promise<DailyReviewCounts> {
  const from = fromDay * DAY_MS;
  const qaIds = db.selectFrom('members').select('id').where('is_qa', '=', 1);
  // Integer division on both engines (the times are positive bigints, the divisor a literal).
  const dayExpression = (column: string) => sql<number>`${sql.ref(column)} / ${sql.lit(DAY_MS)}`;
  let comments = db
    .selectFrom('comments')
    .select((eb) => [dayExpression('comments.created_at').as('day'), eb.fn.countAll<number>().as('count')])
    .where('comments.created_at', '>=', from)
    .where('comments.member_id', 'not in', qaIds)
    .where('comments.component_id', '!=', QA_TEST_COMPONENT_ID);
  let votes = db
    .selectFrom('comment_votes')
    .select((eb) => [dayExpression('comment_votes.created_at').as('day'), eb.fn.countAll<number>().as('count')])
    .where('comment_votes.created_at', '>=', from)
    .where('comment_votes.member_id', 'not in', qaIds);
  if (memberId !== undefined) {
    comments = comments.where('comments.member_id', '=', memberId);
    votes = votes.where('comment_votes.member_id', '=', memberId);
  }
  const [commentRows, voteRows] = await Promise.all([
    comments.groupBy(dayExpression('comments.created_at')).execute(),
    votes.groupBy(dayExpression('comment_votes.created_at')).execute(),
  ]);
  return { comments: commentRows.map(dayCount), votes: voteRows.map(dayCount) };
}

/** Active seconds per day since `fromDay`, of the team (the QA member left out) or of one member. */
export async function dailyActiveSeconds(db: Kysely<Database>, fromDay: number, memberId?: number): Promise<DayCountRow[]> {
  let query = db
    .selectFrom('activity_time')
    .select((eb) => ['day', eb.fn.sum<number>('active_seconds').as('count')])
    .where('day', '>=', fromDay)
    .where('member_id', 'not in', db.selectFrom('members').select('id').where('is_qa', '=', 1));
  if (memberId !== undefined) query = query.where('member_id', '=', memberId);
  return (await query.groupBy('day').execute()).map(dayCount);
}

const dayCount = (row: { day: number; count: number | string | bigint }): DayCountRow => ({ day: row.day, count: Number(row.count) });

export interface ActivityRow {
  id: number;
  member_name: string;
  activity_type: string;
  details: string | null;
  created_at: number;
}

/** The most recent log entries, of one member or of the team (the QA member's left out). */
export async function recentActivity(db: Kysely<Database>, limit: number, memberId?: number): Promise<ActivityRow[]> {
  let query = db
    .selectFrom('activity_log')
    .innerJoin('members', 'members.id', 'activity_log.member_id')
    .select(['activity_log.id', 'members.full_name as member_name', 'activity_log.activity_type', 'activity_log.details', 'activity_log.created_at'])
    .where('members.is_qa', '=', 0);
  if (memberId !== undefined) query = query.where('activity_log.member_id', '=', memberId);
  return query.orderBy('activity_log.created_at', 'desc').orderBy('activity_log.id', 'desc').limit(limit).execute();
}

export interface ActiveSessionRow {
  token_hash: string;
  member_name: string;
  created_at: number;
  last_seen_at: number;
}

export async function activeSessions(db: Kysely<Database>, seenSince: number, now: number): Promise<ActiveSessionRow[]> {
  return db
    .selectFrom('sessions')
    .innerJoin('members', 'members.id', 'sessions.member_id')
    .select(['sessions.token_hash', 'members.full_name as member_name', 'sessions.created_at', 'sessions.last_seen_at'])
    .where('members.is_qa', '=', 0)
    .where('members.active', '=', 1)
    .where('sessions.last_seen_at', '>=', seenSince)
    .where('sessions.expires_at', '>', now)
    .orderBy('sessions.last_seen_at', 'desc')
    .execute();
}

export interface CoverageRow {
  component_id: string;
  member_id: number;
  count: number;
}

/** Comments and votes per component and member (the QA member's left out): two grouped reads. */
export async function coverageCounts(db: Kysely<Database>): Promise<{ comments: CoverageRow[]; votes: CoverageRow[] }> {
  const qaIds = db.selectFrom('members').select('id').where('is_qa', '=', 1);
  const [comments, votes] = await Promise.all([
    db
      .selectFrom('comments')
      .select((eb) => ['component_id', 'member_id', eb.fn.countAll<number>().as('count')])
      .where('member_id', 'not in', qaIds)
      .groupBy(['component_id', 'member_id'])
      .execute(),
    db
      .selectFrom('comment_votes')
      .innerJoin('comments', 'comments.id', 'comment_votes.comment_id')
      .select((eb) => ['comments.component_id', 'comment_votes.member_id', eb.fn.countAll<number>().as('count')])
      .where('comment_votes.member_id', 'not in', qaIds)
      .groupBy(['comments.component_id', 'comment_votes.member_id'])
      .execute(),
  ]);
  const numeric = (rows: readonly { component_id: string; member_id: number; count: number | string | bigint }[]) =>
    rows.map((row) => ({ component_id: row.component_id, member_id: row.member_id, count: Number(row.count) }));
  return { comments: numeric(comments), votes: numeric(votes) };
}
