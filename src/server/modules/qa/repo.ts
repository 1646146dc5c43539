import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/connection.js';
import type { Database, QaStatus } from '../../db/schema.js';

// ---------------------------------------------------------------- runs and results

export interface QaRunRow {
  id: number;
  status: 'running' | 'done' | 'abandoned';
  run_by: string;
  started_at: number;
  finished_at: number | null;
  passed: number;
  failed: number;
  skipped: number;
  total_suites: number;
  completed_suites: number;
  current_suite: string | null;
}

const RUN_COLUMNS = ['id', 'status', 'run_by', 'started_at', 'finished_at', 'passed', 'failed', 'skipped', 'total_suites', 'completed_suites', 'current_suite'] as const;

/**
 * Starts a run unless one is in progress: runs whose heartbeat is older than `staleBefore` are
 * marked abandoned first, then the insert either takes the one 'running' slot (a partial unique
 * index) or does nothing. Atomic on both engines and across instances; undefined when busy.
 */
export async function claimRun(db: Kysely<Database>, run: { runBy: string; totalSuites: number; now: number; staleBefore: number }): Promise<number | undefined> {
  await db
    .updateTable('qa_runs')
    .set((eb) => ({ status: 'abandoned', finished_at: eb.ref('heartbeat_at'), current_suite: null }))
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', run.staleBefore)
    .execute();
  const inserted = await db
    .insertInto('qa_runs')
    .values({ status: 'running', run_by: run.runBy, started_at: run.now, heartbeat_at: run.now, total_suites: run.totalSuites })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}

export interface QaResultRow {
  position: number;
  testName: string;
  testSuite: string;
  status: QaStatus;
  durationMs: number;
  reason: string | null;
}

function resultValues(runId: number, runBy: string, rows: readonly QaResultRow[]) {
  return rows.map((row) => ({
    run_id: runId,
    position: row.position,
    test_name: row.testName.slice(0, 200),
    test_suite: row.testSuite.slice(0, 100),
    status: row.status,
    duration_ms: row.durationMs,
    run_by: runBy.slice(0, 100),
    reason: row.reason?.slice(0, 1000) ?? null,
  }));
}

/**
 * The results of the suite just done and the suite starting now, in one transaction: one commit per
 * suite (one fsync on SQLite, which blocks the event loop) rather than one per check. It also moves
 * the heartbeat.
 */
export async function saveProgress(
  db: Kysely<Database>,
  runId: number,
  progress: { runBy: string; results: readonly QaResultRow[]; suite: string; completedSuites: number; now: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (progress.results.length > 0) await trx.insertInto('qa_results').values(resultValues(runId, progress.runBy, progress.results)).execute();
    await trx
      .updateTable('qa_runs')
      .set({ current_suite: progress.suite, completed_suites: progress.completedSuites, heartbeat_at: progress.now })
      .where('id', '=', runId)
      .execute();
  });
}

/** The last results and the tally; the run stops holding the one 'running' slot. */
export async function finishRun(
  db: Kysely<Database>,
  runId: number,
  outcome: { runBy: string; results: readonly QaResultRow[]; passed: number; failed: number; skipped: number; completedSuites: number; now: number },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (outcome.results.length > 0) await trx.insertInto('qa_results').values(resultValues(runId, outcome.runBy, outcome.results)).execute();
    await trx
      .updateTable('qa_runs')
      .set({
        status: 'done',
        finished_at: outcome.now,
        passed: outcome.passed,
        failed: outcome.failed,
        skipped: outcome.skipped,
        completed_suites: outcome.completedSuites,
        current_suite: null,
        heartbeat_at: outcome.now,
      })
      .where('id', '=', runId)
      .execute();
  });
}

/** The run in progress, unless its heartbeat is older than `staleBefore`. */
export function findRunningRun(db: Kysely<Database>, staleBefore: number): Promise<QaRunRow | undefined> {
  return db
    .selectFrom('qa_runs')
    .select(RUN_COLUMNS)
    .where('status', '=', 'running')
    .where('heartbeat_at', '>=', staleBefore)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function findLatestFinishedRun(db: Kysely<Database>): Promise<QaRunRow | undefined> {
  return db.selectFrom('qa_runs').select(RUN_COLUMNS).where('status', '=', 'done').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export function listResults(db: Kysely<Database>, runId: number) {
  return db
    .selectFrom('qa_results')
    .select(['id', 'test_name', 'test_suite', 'status', 'duration_ms', 'run_by', 'reason'])
    .where('run_id', '=', runId)
    .orderBy('position')
    .execute();
}

// ---------------------------------------------------------------- what the checks read and write directly

/**
 * Writes a comment of the QA member on the QA component inside a transaction, reads it back, and
 * rolls the transaction back: the database round trip leaves nothing behind.
 */
export async function scratchRoundTrip(db: Kysely<Database>, scratch: { componentId: string; memberId: number; memberName: string; content: string }): Promise<string | undefined> {
  let readBack: string | undefined;
  const rollback = new Error('rollback');
  try {
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('comments')
        .values({ component_id: scratch.componentId, content: scratch.content, member_id: scratch.memberId, member_name: scratch.memberName, created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const found = await trx.selectFrom('comments').select('content').where('id', '=', row.id).executeTakeFirst();
      readBack = found?.content;
      throw rollback;
    });
  } catch (error) {
    if (error !== rollback) throw error;
  }
  return readBack;
}

/** How many comments of this member on this component hold each text (absent: none); by the component's index. */
export async function countCommentsWithContent(db: Kysely<Database>, where: { memberId: number; componentId: string }, contents: readonly string[]): Promise<Map<string, number>> {
  if (contents.length === 0) return new Map();
  const rows = await db
    .selectFrom('comments')
    .select(['content', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('component_id', '=', where.componentId)
    .where('member_id', '=', where.memberId)
    .where('content', 'in', [...contents])
    .groupBy('content')
    .execute();
  return new Map(rows.map((row) => [row.content, Number(row.count)]));
}

/** The ids of a component's comments. */
export async function commentIdsOn(db: Kysely<Database>, componentId: string): Promise<number[]> {
  const rows = await db.selectFrom('comments').select('id').where('component_id', '=', componentId).execute();
  return rows.map((row) => row.id);
}

export async function countCommentsOf(db: Kysely<Database>, memberId: number, componentId: string): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('member_id', '=', memberId)
    .where('component_id', '=', componentId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function commentExists(db: Kysely<Database>, id: number): Promise<boolean> {
  return (await db.selectFrom('comments').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function findCommentKind(db: Kysely<Database>, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('comments').select('kind').where('id', '=', id).executeTakeFirst();
  return row?.kind;
}

/** A comment id no row has (past the highest one). */
export async function unusedCommentId(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('comments').select((eb) => eb.fn.max<number | null>('id').as('max')).executeTakeFirstOrThrow();
  return (row.max ?? 0) + 1_000_000;
}

export function votesOn(db: Kysely<Database>, commentId: number) {
  return db.selectFrom('comment_votes').select(['member_id', 'vote_type']).where('comment_id', '=', commentId).execute();
}

/** Inserts a vote row as it is; the check expects the database to refuse it as a duplicate. */
export async function insertRawVote(db: Kysely<Database>, vote: { commentId: number; memberId: number; memberName: string }): Promise<void> {
  await db
    .insertInto('comment_votes')
    .values({ comment_id: vote.commentId, member_id: vote.memberId, member_name: vote.memberName, vote_type: 'thumbs_up', created_at: Date.now() })
    .execute();
}

export function findMemberFlags(db: Kysely<Database>, memberId: number) {
  return db.selectFrom('members').select(['is_qa', 'role', 'active']).where('id', '=', memberId).executeTakeFirst();
}

/** Sets a session's last request back in time, as if its member had been away. */
export async function setSessionLastSeen(db: Kysely<Database>, tokenHash: string, memberId: number, lastSeenAt: number): Promise<boolean> {
  const result = await db.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('token_hash', '=', tokenHash).where('member_id', '=', memberId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countPendingPinResets(db: Kysely<Database>, memberId: number): Promise<number> {
  const row = await db
    .selectFrom('pin_reset_requests')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('member_id', '=', memberId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function deletePinResetsOf(db: Kysely<Database>, memberId: number): Promise<number> {
  const result = await db.deleteFrom('pin_reset_requests').where('member_id', '=', memberId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countErrorLogsWithMessage(db: Kysely<Database>, message: string): Promise<number> {
  const row = await db.selectFrom('error_logs').select((eb) => eb.fn.countAll<number | string>().as('count')).where('message', '=', message).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The QA member's activity rows (log entries and days of active time): the self-test writes none. */
export async function countActivityOf(db: Kysely<Database>, memberId: number): Promise<number> {
  const [log, time] = await Promise.all([
    db.selectFrom('activity_log').select((eb) => eb.fn.countAll<number | string>().as('count')).where('member_id', '=', memberId).executeTakeFirstOrThrow(),
    db.selectFrom('activity_time').select((eb) => eb.fn.countAll<number | string>().as('count')).where('member_id', '=', memberId).executeTakeFirstOrThrow(),
  ]);
  return Number(log.count) + Number(time.count);
}

export async function countErrorLogs(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('error_logs').select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function promptWithTextExists(db: Kysely<Database>, prompt: string): Promise<boolean> {
  return (await db.selectFrom('ai_prompts').select('id').where('prompt', '=', prompt).executeTakeFirst()) !== undefined;
}

// ---------------------------------------------------------------- integrity

interface OrphanCounts {
  commentVotesWithoutComment: number;
  commentVotesWithoutMember: number;
  suggestionVotesWithoutSuggestion: number;
  suggestionVotesWithoutMember: number;
  sessionsWithoutMember: number;
  commentsWithoutMember: number;
}

type UnknownValueCounts = { voteTypes: number; commentKinds: number; roles: number };

/**
 * Rows whose parent is gone (every count is 0 while the foreign keys hold) and rows holding a value
 * the application never writes (a vote type, a comment kind, a member role). One pass over each
 * table, its parents looked up by key: the votes table is the largest, and is read once.
 */
async function countOrphansAndUnknownValues(db: Kysely<Database>): Promise<{ orphans: OrphanCounts; unknownValues: UnknownValueCounts }> {
  type Counts = Record<keyof OrphanCounts | 'commentVoteTypes' | 'suggestionVoteTypes' | 'commentKinds' | 'roles', number | string>;
  const { rows } = await sql<Counts>`
    select cv.*, sv.*, co.*, se.*, me.* from
      (select count(*) filter (where c.id is null) as "commentVotesWithoutComment",
              count(*) filter (where m.id is null) as "commentVotesWithoutMember",
              count(*) filter (where v.vote_type not in ('thumbs_up', 'thumbs_down')) as "commentVoteTypes"
         from comment_votes v left join comments c on c.id = v.comment_id left join members m on m.id = v.member_id) cv,
      (select count(*) filter (where s.id is null) as "suggestionVotesWithoutSuggestion",
              count(*) filter (where m.id is null) as "suggestionVotesWithoutMember",
              count(*) filter (where v.vote_type not in ('thumbs_up', 'thumbs_down')) as "suggestionVoteTypes"
         from suggestion_votes v left join suggestions s on s.id = v.suggestion_id left join members m on m.id = v.member_id) sv,
      (select count(*) filter (where m.id is null) as "commentsWithoutMember",
              count(*) filter (where c.kind not in ('comment', 'proposal')) as "commentKinds"
         from comments c left join members m on m.id = c.member_id) co,
      (select count(*) filter (where m.id is null) as "sessionsWithoutMember"
         from sessions s left join members m on m.id = s.member_id) se,
      (select count(*) filter (where role not in ('member', 'admin')) as "roles" from members) me
  `.execute(db);
  const row = rows[0];
  if (row === undefined) throw new Error('the integrity counts answered no row');
  return {
    orphans: {
      commentVotesWithoutComment: Number(row.commentVotesWithoutComment),
      commentVotesWithoutMember: Number(row.commentVotesWithoutMember),
      suggestionVotesWithoutSuggestion: Number(row.suggestionVotesWithoutSuggestion),
      suggestionVotesWithoutMember: Number(row.suggestionVotesWithoutMember),
      sessionsWithoutMember: Number(row.sessionsWithoutMember),
      commentsWithoutMember: Number(row.commentsWithoutMember),
    },
    unknownValues: { voteTypes: Number(row.commentVoteTypes) + Number(row.suggestionVoteTypes), commentKinds: Number(row.commentKinds), roles: Number(row.roles) },
  };
}

/**
 * The engine's own structural check. SQLite: `integrity_check` (b-trees, indexes against their
 * tables, NOT NULL and UNIQUE). PostgreSQL keeps no such check: every index must be valid (a failed
 * concurrent build leaves an invalid one behind). Answers the problems found; empty when sound.
 */
async function structuralProblems(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    return rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
  }
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and not (i.indisvalid and i.indisready)
  `.execute(db);
  return rows.map((row) => `index ${row.name} is not valid`);
}

/**
 * Foreign keys that do not hold. SQLite: `foreign_key_check` lists every row whose parent is
 * missing. PostgreSQL enforces them on every write; a constraint added NOT VALID (or never
 * validated) is the one way rows can escape it, so every constraint must be validated.
 */
async function foreignKeyProblems(db: Kysely<Database>, dialect: Dialect): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ table: string; rowid: number | null; parent: string }>`pragma foreign_key_check`.execute(db);
    return rows.map((row) => `${row.table} row ${String(row.rowid)} has no ${row.parent} parent`);
  }
  const { rows } = await sql<{ name: string; table_name: string }>`
    select c.conname as name, t.relname as table_name from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = c.connamespace
    where n.nspname = current_schema() and not c.convalidated
  `.execute(db);
  return rows.map((row) => `constraint ${row.name} on ${row.table_name} is not validated`);
}

export interface IntegrityReport {
  orphans: OrphanCounts;
  unknownValues: UnknownValueCounts;
  structural: string[];
  foreignKeys: string[];
}

/** Every integrity query, in one go: on SQLite a worker thread runs it on a connection of its own (qa/integrity.ts). */
export async function integrityReport(db: Kysely<Database>, dialect: Dialect): Promise<IntegrityReport> {
  const report = async (trx: Kysely<Database>) => ({
    ...(await countOrphansAndUnknownValues(trx)),
    structural: await structuralProblems(trx, dialect),
    foreignKeys: await foreignKeyProblems(trx, dialect),
  });
  if (dialect === 'sqlite') return report(db);
  // Background work: PostgreSQL would scan the votes with parallel workers, one a core, and take
  // the cores members' requests need. One read-only transaction on one core instead.
  return db.transaction().execute(async (trx) => {
    await sql`set transaction read only`.execute(trx);
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    return report(trx);
  });
}

/** The file of an SQLite database, as SQLite itself names it. */
export async function sqliteFileOf(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(db);
  const file = rows[0]?.file;
  if (file === undefined || file === '') throw new Error('the database has no file');
  return file;
}

// ---------------------------------------------------------------- clean-up

export interface QaScope {
  memberId: number;
  nameKey: string;
  memberName: string;
  /** The address the run's requests come from. */
  address: string;
  componentId: string;
}

/** The QA member's rate-limit buckets and those of the run's address (key formats: http/rate-limit.ts). */
export async function deleteQaBuckets(db: Kysely<Database>, scope: Pick<QaScope, 'memberId' | 'address'>): Promise<void> {
  await db
    .deleteFrom('rate_limit_buckets')
    .where((eb) => eb.or([eb('key', 'like', `%:member:${scope.memberId}`), eb('key', 'like', `%:${scope.address}`)]))
    .execute();
}

export async function deleteLoginLockOf(db: Kysely<Database>, nameKey: string): Promise<void> {
  await db.deleteFrom('login_locks').where('name_key', '=', nameKey).execute();
}

export interface QaDataRemoved {
  comments: { id: number; component_id: string }[];
  commentVotes: { comment_id: number; component_id: string }[];
  suggestionVotes: number[];
  errorLogs: number;
  pinResets: number;
}

/**
 * Removes everything the QA member and the run left: its comments (their votes go with them),
 * its votes anywhere, the AI summaries of the QA component, the error reports the run posted, its
 * PIN reset requests, sessions, devices, enrollment tokens, its sign-in lock and the rate-limit
 * buckets. One transaction: one commit, and all or nothing. Answers what went, for the live events.
 */
export async function deleteQaData(db: Kysely<Database>, scope: QaScope, errorMessages: readonly string[]): Promise<QaDataRemoved> {
  return db.transaction().execute(async (trx) => {
    const commentVotes = await trx
      .selectFrom('comment_votes')
      .innerJoin('comments', 'comments.id', 'comment_votes.comment_id')
      .select(['comment_votes.comment_id', 'comments.component_id'])
      .where('comment_votes.member_id', '=', scope.memberId)
      .where('comments.member_id', '<>', scope.memberId)
      .execute();
    await trx.deleteFrom('comment_votes').where('member_id', '=', scope.memberId).execute();
    const comments = await trx.deleteFrom('comments').where('member_id', '=', scope.memberId).returning(['id', 'component_id']).execute();
    const suggestionVotes = await trx.deleteFrom('suggestion_votes').where('member_id', '=', scope.memberId).returning('suggestion_id').execute();
    await trx.deleteFrom('ai_outputs').where('kind', '=', 'summary').where('scope', '=', scope.componentId).execute();
    const errorLogs =
      errorMessages.length === 0
        ? []
        : await trx.deleteFrom('error_logs').where('ip', '=', scope.address).where('message', 'in', [...errorMessages]).returning('id').execute();
    const pinResets = await trx.deleteFrom('pin_reset_requests').where('member_id', '=', scope.memberId).returning('id').execute();
    await trx.deleteFrom('sessions').where('member_id', '=', scope.memberId).execute();
    await trx.deleteFrom('device_tokens').where('member_id', '=', scope.memberId).execute();
    await trx.deleteFrom('enrollment_tokens').where('member_id', '=', scope.memberId).execute();
    await deleteLoginLockOf(trx, scope.nameKey);
    await deleteQaBuckets(trx, scope);
    return {
      comments,
      commentVotes,
      suggestionVotes: suggestionVotes.map((row) => row.suggestion_id),
      errorLogs: errorLogs.length,
      pinResets: pinResets.length,
    };
  });
}
