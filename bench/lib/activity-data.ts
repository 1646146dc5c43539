/**
 * The analytics scenarios' data set (its shape: bench/README.md): 1,000,000 activity log rows over
 * the generated members and the last 178 days, their active time per member and day, and their
 * sign-in counts, written in bulk through the app's own Kysely handle before the bench server
 * listens. Seeded: only the dates' anchor (the time of the run) and the ids change between runs.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema.js';
import { prng } from '../../src/server/seed/random.js';
import { SEEDS } from './random.js';

export const ACTIVITY_DATA_TARGETS = {
  logRows: 1_000_000,
  /**
   * Days back from today. Under the server's ACTIVITY_RETENTION_DAYS (180 by default), so the
   * roll-up sweep never folds generated rows into daily counts while the bench runs.
   */
  days: 178,
} as const;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** SQLite: rows per multi-row INSERT (4 parameters a row, far under SQLite's 32,766). One transaction for everything. */
const SQLITE_LOG_ROWS_PER_STATEMENT = 500;
const SQLITE_TIME_ROWS_PER_STATEMENT = 1_000;
/** PostgreSQL: rows per `insert … select * from unnest(…)` (four array parameters). */
const POSTGRES_ROWS_PER_STATEMENT = 20_000;

export type ActivityType = 'login' | 'page_view' | 'comment_added' | 'vote_cast' | 'suggestions_generated';

export interface ActivityDataSummary {
  generationMs: number;
  /** Split of generationMs: clearing an earlier run's rows, the log, active time, members' sign-in figures, the commit, ANALYZE (PostgreSQL only). */
  phasesMs: { clear: number; log: number; time: number; members: number; commit: number; analyze: number };
  logRows: number;
  byType: Record<ActivityType, number>;
  /** activity_time rows: one per member and active day. */
  timeRows: number;
  members: number;
  days: number;
  /** The member with the most log rows: the one GET /api/analytics/user/:memberName asks for. */
  busiestMember: { name: string; logRows: number; activeDays: number };
  /** Log rows of these members removed first: a PostgreSQL bench database keeps the previous run's. */
  cleared: number;
}

export interface ActivityGenerateOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  /** The generated members (lib/comment-data.ts) the activity is spread over. */
  members: readonly { id: number; full_name: string }[];
  /** Members whose earlier activity is removed too (the bench member). */
  alsoClearMemberIds: readonly number[];
  /** Component ids named in the details of comment and suggestion entries. */
  componentIds: readonly string[];
  /** The highest comment id, for the details of vote entries. */
  maxCommentId: number;
  now?: number;
}

interface LogRow {
  member_id: number;
  activity_type: ActivityType;
  details: string;
  created_at: number;
}

interface TimeRow {
  member_id: number;
  day: number;
  active_seconds: number;
}

const PAGES = [
  '{"path":"/","view":"review"}',
  '{"path":"/","view":"review","componentId":"%"}',
  '{"path":"/analytics","tab":"overview"}',
  '{"path":"/analytics","tab":"users"}',
  '{"path":"/analytics","tab":"coverage"}',
  '{"path":"/suggestions"}',
] as const;

/** One member's day: a session that starts with a sign-in and is mostly page views. */
function entryType(random: () => number, first: boolean): ActivityType {
  if (first) return 'login';
  const draw = random();
  if (draw < 0.865) return 'page_view';
  if (draw < 0.915) return 'comment_added';
  if (draw < 0.975) return 'vote_cast';
  if (draw < 0.985) return 'suggestions_generated';
  return 'login';
}

function detailsOf(type: ActivityType, random: () => number, options: ActivityGenerateOptions): string {
  const component = () => options.componentIds[Math.floor(random() * options.componentIds.length)] ?? 'event-correlation';
  switch (type) {
    case 'login':
      return random() < 0.7 ? '{"method":"pin"}' : '{"method":"device"}';
    case 'page_view': {
      const page = PAGES[Math.floor(random() * PAGES.length)] ?? PAGES[0];
      return page.replace('%', component());
    }
    case 'comment_added':
      return JSON.stringify({ componentId: component(), kind: random() < 0.12 ? 'proposal' : 'comment' });
    case 'vote_cast':
      return JSON.stringify({ commentId: 1 + Math.floor(random() * Math.max(1, options.maxCommentId)), voteType: random() < 0.75 ? 'thumbs_up' : 'thumbs_down' });
    case 'suggestions_generated':
      return JSON.stringify({ componentId: component(), suggestions: 1 + Math.floor(random() * 5) });
  }
}

/** Splits `total` over `weights` proportionally, exactly (the rounding left over goes to random entries). */
function proportionalSplit(random: () => number, weights: readonly number[], total: number): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((weight) => Math.floor((total * weight) / sum));
  let left = total - counts.reduce((a, b) => a + b, 0);
  while (left > 0) {
    const index = Math.floor(random() * counts.length);
    counts[index] = (counts[index] ?? 0) + 1;
    left -= 1;
  }
  return counts;
}

export async function generateActivityData(options: ActivityGenerateOptions): Promise<ActivityDataSummary> {
  const started = performance.now();
  const { db, dialect, members } = options;
  const now = options.now ?? Date.now();
  const random = prng(SEEDS.activityData);
  const T = ACTIVITY_DATA_TARGETS;
  let last = performance.now();
  const lap = () => {
    const current = performance.now();
    const elapsed = Math.round(current - last);
    last = current;
    return elapsed;
  };
  if (members.length === 0) throw new Error('the activity data needs generated members');

  // A PostgreSQL bench database keeps the previous run's rows: this run's members start empty.
  const clearIds = [...members.map((member) => member.id), ...options.alsoClearMemberIds];
  const cleared = await db.deleteFrom('activity_log').where('member_id', 'in', clearIds).executeTakeFirst();
  await db.deleteFrom('activity_time').where('member_id', 'in', clearIds).execute();
  await db.deleteFrom('activity_daily').where('member_id', 'in', clearIds).execute();
  const clearMs = lap();

  // Who is active on which day, and how much: a few heavy users, many occasional ones, quiet weekends.
  const today = Math.floor(now / DAY_MS);
  const firstDay = today - T.days + 1;
  const memberWeight = members.map(() => (-Math.log(1 - random())) ** 1.3 + 0.05);
  const memberPresence = members.map(() => 0.35 + random() * 0.55);
  const cells: { member: number; day: number; weight: number }[] = [];
  for (let day = firstDay; day <= today; day += 1) {
    // Day 0 of the epoch was a Thursday: (day + 4) % 7 is 0 on Sundays, 6 on Saturdays.
    const weekday = (day + 4) % 7;
    const weekend = weekday === 0 || weekday === 6;
    members.forEach((_, member) => {
      const presence = (memberPresence[member] ?? 0.5) * (weekend ? 0.15 : 1);
      if (random() < presence) cells.push({ member, day, weight: (memberWeight[member] ?? 1) * (0.5 + random()) });
    });
  }
  const rowsPerCell = proportionalSplit(
    random,
    cells.map((cell) => cell.weight),
    T.logRows,
  );

  const byType: Record<ActivityType, number> = { login: 0, page_view: 0, comment_added: 0, vote_cast: 0, suggestions_generated: 0 };
  const perMember = members.map(() => ({ rows: 0, days: 0, logins: 0, lastLogin: null as number | null }));
  const timeRows: TimeRow[] = [];
  let inserted = 0;
  let logMs = 0;

  /** The rows of one day, every member's, in time order: ids grow with time, as in real use. */
  const dayRows = (from: number, to: number): LogRow[] => {
    const rows: LogRow[] = [];
    for (let index = from; index < to; index += 1) {
      const cell = cells[index];
      const count = rowsPerCell[index] ?? 0;
      const member = members[cell?.member ?? -1];
      const stats = perMember[cell?.member ?? -1];
      if (cell === undefined || member === undefined || stats === undefined || count === 0) continue;
      const dayStart = cell.day * DAY_MS;
      // Working hours in UTC; today only up to now.
      const sessionStart = dayStart + (6 + random() * 9) * HOUR_MS;
      const sessionEnd = Math.min(sessionStart + (1 + random() * 7) * HOUR_MS, now - 1_000);
      const start = Math.min(sessionStart, sessionEnd - 60_000);
      const times = Array.from({ length: count }, () => Math.floor(Math.max(dayStart, start) + random() * Math.max(1, sessionEnd - Math.max(dayStart, start)))).sort((a, b) => a - b);
      times.forEach((createdAt, position) => {
        const type = entryType(random, position === 0);
        byType[type] += 1;
        if (type === 'login') {
          stats.logins += 1;
          stats.lastLogin = Math.max(stats.lastLogin ?? 0, createdAt);
        }
        rows.push({ member_id: member.id, activity_type: type, details: detailsOf(type, random, options), created_at: createdAt });
      });
      stats.rows += count;
      stats.days += 1;
      timeRows.push({ member_id: member.id, day: cell.day, active_seconds: Math.min(8 * 3_600, Math.max(60, Math.round(count * (15 + random() * 30)))) });
    }
    return rows.sort((a, b) => a.created_at - b.created_at);
  };

  const insertLog = async (trx: Kysely<Database>, rows: readonly LogRow[]) => {
    if (dialect === 'postgres') {
      for (let start = 0; start < rows.length; start += POSTGRES_ROWS_PER_STATEMENT) {
        const batch = rows.slice(start, start + POSTGRES_ROWS_PER_STATEMENT);
        // Four array parameters a statement, not 80,000 VALUES parameters: markedly faster.
        await trx.executeQuery(
          CompiledQuery.raw(
            'insert into activity_log (member_id, activity_type, details, created_at) select * from unnest($1::integer[], $2::varchar[], $3::text[], $4::bigint[])',
            [batch.map((row) => row.member_id), batch.map((row) => row.activity_type), batch.map((row) => row.details), batch.map((row) => row.created_at)],
          ),
        );
      }
      return;
    }
    for (let start = 0; start < rows.length; start += SQLITE_LOG_ROWS_PER_STATEMENT) {
      const batch = rows.slice(start, start + SQLITE_LOG_ROWS_PER_STATEMENT);
      // The same text for every full batch: the app's statement cache prepares it once.
      const text = `insert into activity_log (member_id, activity_type, details, created_at) values ${batch.map(() => '(?, ?, ?, ?)').join(', ')}`;
      await trx.executeQuery(CompiledQuery.raw(text, batch.flatMap((row) => [row.member_id, row.activity_type, row.details, row.created_at])));
    }
  };

  const insertTime = async (trx: Kysely<Database>) => {
    if (dialect === 'postgres') {
      await trx.executeQuery(
        CompiledQuery.raw('insert into activity_time (member_id, day, active_seconds) select * from unnest($1::integer[], $2::integer[], $3::integer[])', [
          timeRows.map((row) => row.member_id),
          timeRows.map((row) => row.day),
          timeRows.map((row) => row.active_seconds),
        ]),
      );
      return;
    }
    for (let start = 0; start < timeRows.length; start += SQLITE_TIME_ROWS_PER_STATEMENT) {
      await trx
        .insertInto('activity_time')
        .values(timeRows.slice(start, start + SQLITE_TIME_ROWS_PER_STATEMENT))
        .execute();
    }
  };

  let timeMs = 0;
  let membersMs = 0;
  await db.transaction().execute(async (trx) => {
    // Cells are in day order: one day at a time keeps memory flat (a day is ~5,600 rows).
    let from = 0;
    let pending: LogRow[] = [];
    while (from < cells.length) {
      const day = cells[from]?.day;
      let to = from;
      while (to < cells.length && cells[to]?.day === day) to += 1;
      pending = pending.concat(dayRows(from, to));
      from = to;
      if (pending.length >= POSTGRES_ROWS_PER_STATEMENT || from >= cells.length) {
        await insertLog(trx, pending);
        inserted += pending.length;
        pending = [];
      }
    }
    logMs = lap();

    await insertTime(trx);
    timeMs = lap();

    // Sign-in figures as the sign-ins would have left them.
    for (const [index, member] of members.entries()) {
      const stats = perMember[index];
      if (stats === undefined) continue;
      await trx.updateTable('members').set({ login_count: stats.logins, last_sign_in_at: stats.lastLogin }).where('id', '=', member.id).execute();
    }
    membersMs = lap();
  });
  const commitMs = lap();
  if (inserted !== T.logRows) throw new Error(`inserted ${inserted} activity rows, expected ${T.logRows}`);

  // Tables as production has them: autovacuum would soon analyse PostgreSQL's and vacuum away a
  // previous run's deleted rows (see comment-data.ts); the app never analyses SQLite.
  if (dialect === 'postgres') await sql`vacuum (analyze) activity_log, activity_time, members`.execute(db);
  const analyzeMs = lap();

  let busiest = 0;
  perMember.forEach((stats, index) => {
    if (stats.rows > (perMember[busiest]?.rows ?? 0)) busiest = index;
  });
  return {
    generationMs: Math.round(performance.now() - started),
    phasesMs: { clear: clearMs, log: logMs, time: timeMs, members: membersMs, commit: commitMs, analyze: analyzeMs },
    logRows: inserted,
    byType,
    timeRows: timeRows.length,
    members: members.length,
    days: T.days,
    busiestMember: { name: members[busiest]?.full_name ?? '', logRows: perMember[busiest]?.rows ?? 0, activeDays: perMember[busiest]?.days ?? 0 },
    cleared: Number(cleared.numDeletedRows),
  };
}
