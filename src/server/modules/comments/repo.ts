import type { Kysely, Transaction } from 'kysely';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import type { CommentKind, VoteType } from '../../../common/contract/comments.js';
import type { Dialect } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';

export interface CommentRow {
  id: number;
  component_id: string;
  kind: CommentKind;
  content: string;
  member_id: number;
  member_name: string;
  created_at: number;
  resolved_at: number | null;
  resolved_by_name: string | null;
  resolution_note: string | null;
}

export interface VoteRow {
  comment_id: number;
  member_id: number;
  member_name: string;
  vote_type: VoteType;
}

const COMMENT_COLUMNS = ['id', 'component_id', 'kind', 'content', 'member_id', 'member_name', 'created_at', 'resolved_at', 'resolved_by_name', 'resolution_note'] as const;

/** Two queries whatever the number of comments: the comments, then all their votes. */
export async function listCommentsWithVotes(db: Kysely<Database>, componentId: string): Promise<{ comments: CommentRow[]; votes: VoteRow[] }> {
  const comments = await db
    .selectFrom('comments')
    .select(COMMENT_COLUMNS)
    .where('component_id', '=', componentId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (comments.length === 0) return { comments, votes: [] };
  const votes = await db
    .selectFrom('comment_votes')
    .innerJoin('comments', 'comments.id', 'comment_votes.comment_id')
    .select(['comment_votes.comment_id', 'comment_votes.member_id', 'comment_votes.member_name', 'comment_votes.vote_type'])
    .where('comments.component_id', '=', componentId)
    .orderBy('comment_votes.created_at')
    .execute();
  return { comments, votes };
}

/** Open and resolved comments per reviewed component; the self-test's scratch component is not one. */
export async function countCommentsByComponent(db: Kysely<Database>): Promise<Record<string, { open: number; resolved: number }>> {
  const rows = await db
    .selectFrom('comment_counts')
    .select(['component_id', 'comment_count', 'resolved_count'])
    .where('component_id', '!=', QA_TEST_COMPONENT_ID)
    .where('comment_count', '>', 0)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.component_id, { open: row.comment_count - row.resolved_count, resolved: row.resolved_count }]));
}

export async function insertComment(
  db: Kysely<Database>,
  comment: { componentId: string; kind: CommentKind; content: string; memberId: number; memberName: string; createdAt?: number },
): Promise<CommentRow> {
  return db
    .insertInto('comments')
    .values({
      component_id: comment.componentId,
      kind: comment.kind,
      content: comment.content,
      member_id: comment.memberId,
      member_name: comment.memberName,
      created_at: comment.createdAt ?? Date.now(),
    })
    .returning(COMMENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * Reads a comment inside a transaction and, on PostgreSQL, locks its row until commit: votes and
 * deletes of one comment then run one after another (SQLite transactions already do, on its single
 * connection), so a toggle never sees a stale vote and no vote outlives its comment.
 */
export function lockComment(trx: Transaction<Database>, dialect: Dialect, id: number) {
  const query = trx.selectFrom('comments').select(['id', 'component_id', 'member_id', 'resolved_at']).where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** How many comments these members wrote. */
export async function countCommentsBy(db: Kysely<Database>, memberIds: readonly number[]): Promise<number> {
  if (memberIds.length === 0) return 0;
  const row = await db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('member_id', 'in', memberIds)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Votes in bulk (the demo seed), 200 rows a statement: SQLite caps the bound parameters. */
export async function insertCommentVotes(
  db: Kysely<Database>,
  votes: readonly { comment_id: number; member_id: number; member_name: string; vote_type: VoteType; created_at: number }[],
): Promise<void> {
  for (let offset = 0; offset < votes.length; offset += 200) {
    await db.insertInto('comment_votes').values(votes.slice(offset, offset + 200)).execute();
  }
}

/** Marks a comment resolved (a resolution) or open again (null); answers the comment as it is now. */
export async function setResolution(
  trx: Transaction<Database>,
  id: number,
  resolution: { at: number; byName: string; note: string | null } | null,
): Promise<CommentRow> {
  return trx
    .updateTable('comments')
    .set({ resolved_at: resolution?.at ?? null, resolved_by_name: resolution?.byName ?? null, resolution_note: resolution?.note ?? null })
    .where('id', '=', id)
    .returning(COMMENT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** A comment's votes, oldest first. */
export function listVotesOf(db: Kysely<Database>, commentId: number): Promise<VoteRow[]> {
  return db
    .selectFrom('comment_votes')
    .select(['comment_id', 'member_id', 'member_name', 'vote_type'])
    .where('comment_id', '=', commentId)
    .orderBy('created_at')
    .execute();
}

export async function deleteComment(trx: Transaction<Database>, id: number): Promise<void> {
  // Its votes go with it (ON DELETE CASCADE).
  await trx.deleteFrom('comments').where('id', '=', id).execute();
}

export type CommentRowForAnalysis = Pick<CommentRow, 'id' | 'component_id' | 'kind' | 'content' | 'member_id' | 'member_name' | 'created_at' | 'resolved_at'>;
export type VoterRow = { comment_id: number; member_id: number; vote_type: VoteType };

const COLUMNS_FOR_ANALYSIS = [
  'comments.id',
  'comments.component_id',
  'comments.kind',
  'comments.content',
  'comments.member_id',
  'comments.member_name',
  'comments.created_at',
  'comments.resolved_at',
] as const;

/** Every comment of the review, oldest first, and every vote: two queries. The QA member's and the QA component's are left out. */
export async function listAllCommentsWithVoters(db: Kysely<Database>): Promise<{ comments: CommentRowForAnalysis[]; votes: VoterRow[] }> {
  const comments = await db
    .selectFrom('comments')
    .innerJoin('members', 'members.id', 'comments.member_id')
    .select(COLUMNS_FOR_ANALYSIS)
    .where('members.is_qa', '=', 0)
    .where('comments.component_id', '!=', QA_TEST_COMPONENT_ID)
    .orderBy('comments.created_at')
    .orderBy('comments.id')
    .execute();
  const votes = await db
    .selectFrom('comment_votes')
    .innerJoin('members', 'members.id', 'comment_votes.member_id')
    .select(['comment_votes.comment_id', 'comment_votes.member_id', 'comment_votes.vote_type'])
    .where('members.is_qa', '=', 0)
    .execute();
  return { comments, votes };
}

/** The QA member's id(s): the self-test's own writes never reach a real component's AI input. */
export async function listQaMemberIds(db: Kysely<Database>): Promise<number[]> {
  const rows = await db.selectFrom('members').select('id').where('is_qa', '=', 1).execute();
  return rows.map((row) => row.id);
}

/** SQLite caps the bound parameters of a statement: ids go in statements of at most this many. */
const IDS_PER_STATEMENT = 500;

/** Each distinct id once, read in statements of at most IDS_PER_STATEMENT ids. */
async function readInBatches<T>(ids: readonly number[], read: (batch: number[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(ids)];
  const rows: T[] = [];
  for (let start = 0; start < unique.length; start += IDS_PER_STATEMENT) rows.push(...(await read(unique.slice(start, start + IDS_PER_STATEMENT))));
  return rows;
}

/** The given comments, oldest first; the QA member's and the QA component's are left out. */
export async function listCommentsByIds(db: Kysely<Database>, commentIds: readonly number[]): Promise<CommentRowForAnalysis[]> {
  const rows = await readInBatches(commentIds, (batch) =>
    db
      .selectFrom('comments')
      .innerJoin('members', 'members.id', 'comments.member_id')
      .select(COLUMNS_FOR_ANALYSIS)
      .where('members.is_qa', '=', 0)
      .where('comments.component_id', '!=', QA_TEST_COMPONENT_ID)
      .where('comments.id', 'in', batch)
      .execute(),
  );
  return rows.sort((a, b) => a.created_at - b.created_at || a.id - b.id);
}

/** Who voted some comments which way. */
export async function listVotersOf(db: Kysely<Database>, commentIds: readonly number[]): Promise<VoterRow[]> {
  return readInBatches(commentIds, (batch) =>
    db
      .selectFrom('comment_votes')
      .innerJoin('members', 'members.id', 'comment_votes.member_id')
      .select(['comment_votes.comment_id', 'comment_votes.member_id', 'comment_votes.vote_type'])
      // The QA member's votes reach no AI input.
      .where('members.is_qa', '=', 0)
      .where('comment_votes.comment_id', 'in', batch)
      .execute(),
  );
}
