import type { Kysely } from 'kysely';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import type { Database } from '../../db/schema.js';

/**
 * What an export reads, a bounded batch at a time: comments (keyset by id) with their vote counts,
 * the current decisions, the active suggestions, the latest stored AI outputs. The QA member's
 * comments and votes, and the self-test's component, are never read.
 */

export interface ExportComment {
  id: number;
  component_id: string;
  kind: 'comment' | 'proposal';
  content: string;
  member_name: string;
  created_at: number;
  resolved_at: number | null;
  resolved_by_name: string | null;
  resolution_note: string | null;
  up: number;
  down: number;
}

/** Comments after `afterId` (in id order), at most `limit`; of one component when given. */
export async function commentBatch(db: Kysely<Database>, options: { afterId: number; limit: number; componentId?: string }): Promise<ExportComment[]> {
  let query = db
    .selectFrom('comments')
    .innerJoin('members', 'members.id', 'comments.member_id')
    .select([
      'comments.id',
      'comments.component_id',
      'comments.kind',
      'comments.content',
      'comments.member_name',
      'comments.created_at',
      'comments.resolved_at',
      'comments.resolved_by_name',
      'comments.resolution_note',
    ])
    .where('members.is_qa', '=', 0)
    .where('comments.component_id', '!=', QA_TEST_COMPONENT_ID)
    .where('comments.id', '>', options.afterId);
  if (options.componentId !== undefined) query = query.where('comments.component_id', '=', options.componentId);
  const rows = await query.orderBy('comments.id').limit(options.limit).execute();
  if (rows.length === 0) return [];
  const votes = await db
    .selectFrom('comment_votes')
    .innerJoin('members', 'members.id', 'comment_votes.member_id')
    .select(['comment_votes.comment_id', 'comment_votes.vote_type', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('members.is_qa', '=', 0)
    .where('comment_votes.comment_id', '>=', rows[0]?.id ?? 0)
    .where('comment_votes.comment_id', '<=', rows[rows.length - 1]?.id ?? 0)
    .groupBy(['comment_votes.comment_id', 'comment_votes.vote_type'])
    .execute();
  const tally = new Map<number, { up: number; down: number }>();
  for (const vote of votes) {
    const entry = tally.get(vote.comment_id) ?? { up: 0, down: 0 };
    if (vote.vote_type === 'thumbs_up') entry.up += Number(vote.count);
    else entry.down += Number(vote.count);
    tally.set(vote.comment_id, entry);
  }
  return rows.map((row) => ({ ...row, up: tally.get(row.id)?.up ?? 0, down: tally.get(row.id)?.down ?? 0 }));
}

/** Every component's current decision: its newest row. */
export async function currentDecisions(db: Kysely<Database>) {
  const latest = db.selectFrom('component_decisions').select((eb) => ['component_id', eb.fn.max('id').as('id')]).groupBy('component_id');
  return db
    .selectFrom('component_decisions')
    .innerJoin(latest.as('latest'), 'latest.id', 'component_decisions.id')
    .select(['component_decisions.component_id', 'component_decisions.outcome', 'component_decisions.rationale', 'component_decisions.decided_by_name', 'component_decisions.created_at'])
    .execute();
}

/** The listed suggestions in the latest generation's order, with their vote counts (the QA member's left out). */
export async function listedSuggestions(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('suggestions')
    .select(['id', 'suggestion', 'components', 'review_status', 'status_reason', 'owner_name', 'due_date'])
    .where('status', '=', 'active')
    .orderBy('rank')
    .orderBy('id')
    .execute();
  const votes = await db
    .selectFrom('suggestion_votes')
    .innerJoin('members', 'members.id', 'suggestion_votes.member_id')
    .innerJoin('suggestions', 'suggestions.id', 'suggestion_votes.suggestion_id')
    .select(['suggestion_votes.suggestion_id', 'suggestion_votes.vote_type', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('members.is_qa', '=', 0)
    .where('suggestions.status', '=', 'active')
    .groupBy(['suggestion_votes.suggestion_id', 'suggestion_votes.vote_type'])
    .execute();
  const tally = new Map<number, { up: number; down: number }>();
  for (const vote of votes) {
    const entry = tally.get(vote.suggestion_id) ?? { up: 0, down: 0 };
    if (vote.vote_type === 'thumbs_up') entry.up += Number(vote.count);
    else entry.down += Number(vote.count);
    tally.set(vote.suggestion_id, entry);
  }
  return rows.map((row) => ({ ...row, up: tally.get(row.id)?.up ?? 0, down: tally.get(row.id)?.down ?? 0 }));
}

/** The newest stored AI output of a kind and scope (a component's summary, the team narrative), as JSON text. */
export async function latestOutput(db: Kysely<Database>, kind: 'summary' | 'narrative', scope: string): Promise<{ output: string; created_at: number } | undefined> {
  return db.selectFrom('ai_outputs').select(['output', 'created_at']).where('kind', '=', kind).where('scope', '=', scope).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}
