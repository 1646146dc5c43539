import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { VoteType } from '../../../common/contract/comments.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, SuggestionGenerationsTable, SuggestionsTable } from '../../db/schema.js';

/** One key for the whole suggestions table in pg_advisory_xact_lock. */
const GENERATION_LOCK_KEY = 5_100_001;

export type SuggestionRow = Selectable<SuggestionsTable>;
export type GenerationRow = Selectable<SuggestionGenerationsTable>;
export type SuggestionVoteRow = { suggestion_id: number; member_name: string; vote_type: VoteType };
/** The columns a generation writes into a suggestion, new or kept. */
export type SuggestionValues = Omit<Updateable<SuggestionsTable>, 'id' | 'created_at'> & {
  suggestion: string;
  recommendation_type: 'content' | 'structural';
  components: string;
  member_initials: string;
  sources: string;
  generation_id: number;
  updated_at: number;
};

/** The active suggestions in the latest generation's order, and their votes: two queries. */
export async function listActiveSuggestionsWithVotes(db: Kysely<Database>): Promise<{ rows: SuggestionRow[]; votes: SuggestionVoteRow[] }> {
  const rows = await db.selectFrom('suggestions').selectAll().where('status', '=', 'active').orderBy('rank').orderBy('id').execute();
  if (rows.length === 0) return { rows, votes: [] };
  const votes = await db
    .selectFrom('suggestion_votes')
    .innerJoin('suggestions', 'suggestions.id', 'suggestion_votes.suggestion_id')
    .select(['suggestion_votes.suggestion_id', 'suggestion_votes.member_name', 'suggestion_votes.vote_type'])
    .where('suggestions.status', '=', 'active')
    .orderBy('suggestion_votes.created_at')
    .execute();
  return { rows, votes };
}

/** Every suggestion, active or archived, as a new generation is matched against them. */
export function listAllSuggestions(trx: Transaction<Database>) {
  return trx.selectFrom('suggestions').select(['id', 'suggestion', 'sources', 'status', 'review_status']).execute();
}

/** Listed actions (accepted, in progress or done) and the done ones: one grouped count. */
export async function countActions(db: Kysely<Database>): Promise<{ total: number; done: number }> {
  const rows = await db
    .selectFrom('suggestions')
    .select(['review_status', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('status', '=', 'active')
    .where('review_status', 'in', ['accepted', 'in_progress', 'done'])
    .groupBy('review_status')
    .execute();
  const total = rows.reduce((sum, row) => sum + Number(row.count), 0);
  return { total, done: Number(rows.find((row) => row.review_status === 'done')?.count ?? 0) };
}

/** A suggestion's row, for its answer after a change. */
export function findSuggestion(db: Kysely<Database>, id: number): Promise<SuggestionRow> {
  return db.selectFrom('suggestions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Its votes, oldest first. */
export function listSuggestionVotes(db: Kysely<Database>, id: number): Promise<SuggestionVoteRow[]> {
  return db.selectFrom('suggestion_votes').select(['suggestion_id', 'member_name', 'vote_type']).where('suggestion_id', '=', id).orderBy('created_at').execute();
}

/** What became of a suggestion: its status (with reason and who set it when) or its action's owner and due day. */
export async function updateOutcome(
  trx: Transaction<Database>,
  id: number,
  values: Pick<Updateable<SuggestionsTable>, 'review_status' | 'status_reason' | 'status_by_name' | 'status_at' | 'owner_member_id' | 'owner_name' | 'due_date'>,
): Promise<void> {
  await trx.updateTable('suggestions').set(values).where('id', '=', id).execute();
}

export async function insertSuggestion(trx: Transaction<Database>, values: SuggestionValues, now: number): Promise<void> {
  await trx.insertInto('suggestions').values({ ...values, created_at: now }).execute();
}

export async function updateSuggestion(trx: Transaction<Database>, id: number, values: SuggestionValues): Promise<void> {
  await trx.updateTable('suggestions').set(values).where('id', '=', id).execute();
}

export async function archiveSuggestions(trx: Transaction<Database>, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('suggestions').set({ status: 'archived', archived_at: now, updated_at: now }).where('id', 'in', ids).execute();
}

/**
 * Reads a suggestion and, on PostgreSQL, locks its row until commit, so one member's parallel
 * votes toggle one after another (SQLite transactions already do).
 */
export function lockSuggestion(trx: Transaction<Database>, dialect: Dialect, id: number) {
  const query = trx.selectFrom('suggestions').select(['id', 'status', 'review_status', 'owner_member_id']).where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** Serializes generations on PostgreSQL; SQLite runs one transaction at a time on its single connection. */
export async function lockGenerations(trx: Transaction<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${GENERATION_LOCK_KEY})`.execute(trx);
}

/** Marks 'running' generations started at or before `startedBefore` as failed: their instance died. */
export async function failStaleGenerations(trx: Transaction<Database>, startedBefore: number, now: number): Promise<void> {
  await trx
    .updateTable('suggestion_generations')
    .set({ status: 'failed', finished_at: now })
    .where('status', '=', 'running')
    .where('started_at', '<=', startedBefore)
    .execute();
}

export async function findRunningGeneration(trx: Transaction<Database>): Promise<number | undefined> {
  const row = await trx.selectFrom('suggestion_generations').select('id').where('status', '=', 'running').orderBy('id', 'desc').executeTakeFirst();
  return row?.id;
}

export async function findGenerationFinishedAfter(trx: Transaction<Database>, after: number): Promise<number | undefined> {
  const row = await trx
    .selectFrom('suggestion_generations')
    .select('id')
    .where('status', '=', 'done')
    .where('finished_at', '>', after)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.id;
}

export async function insertRunningGeneration(trx: Transaction<Database>, requestedBy: string, now: number): Promise<number> {
  const inserted = await trx
    .insertInto('suggestion_generations')
    .values({ status: 'running', started_at: now, requested_by: requestedBy.slice(0, 100) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function markGenerationFailed(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('suggestion_generations').set({ status: 'failed', finished_at: Date.now() }).where('id', '=', id).execute();
}

export async function finishGeneration(trx: Transaction<Database>, id: number, values: Updateable<SuggestionGenerationsTable>): Promise<void> {
  await trx
    .updateTable('suggestion_generations')
    .set({ ...values, status: 'done' })
    .where('id', '=', id)
    .execute();
}

export async function findGenerationStatus(db: Kysely<Database>, id: number): Promise<GenerationRow['status'] | undefined> {
  const row = await db.selectFrom('suggestion_generations').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

export function findGeneration(db: Kysely<Database>, id: number): Promise<GenerationRow> {
  return db.selectFrom('suggestion_generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
