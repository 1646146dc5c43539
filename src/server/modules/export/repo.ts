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

/** SQLite caps a statement's bound parameters: the votes of a batch are read this many comments at a time. */
const IDS_PER_STATEMENT = 500;

/** The QA member's id(s): what they wrote or voted is left out of every export. */
export async function qaMemberIds(db: Kysely<Database>): Promise<number[]> {
  return (await db.selectFrom('members').select('id').where('is_qa', '=', 1).execute()).map((row) => row.id);
}

/** Where the previous batch ended. */
export interface BatchEnd {
  id: number;
  createdAt: number;
}

/**
 * A batch of at most `limit` comments after `after`, their votes counted for exactly these
 * comments. Without a component, the whole review in id order (walked by the primary key); with
 * one, that component's open or resolved comments oldest first (walked by its (component,
 * time, id) index). No join: each batch costs the rows it returns, however large the review.
 */
export async function commentBatch(
  db: Kysely<Database>,
  options: { after: BatchEnd; limit: number; leftOut: readonly number[]; componentId?: string; resolved?: boolean },
): Promise<ExportComment[]> {
  const { after, componentId } = options;
  let query = db
    .selectFrom('comments')
    .select(['id', 'component_id', 'kind', 'content', 'member_name', 'created_at', 'resolved_at', 'resolved_by_name', 'resolution_note'])
    .where('component_id', '!=', QA_TEST_COMPONENT_ID);
  if (options.leftOut.length > 0) query = query.where('member_id', 'not in', [...options.leftOut]);
  if (options.resolved !== undefined) query = query.where('resolved_at', options.resolved ? 'is not' : 'is', null);
  const rows =
    componentId === undefined
      ? await query.where('id', '>', after.id).orderBy('id').limit(options.limit).execute()
      : await query
          .where('component_id', '=', componentId)
          .where((eb) => eb.or([eb('created_at', '>', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.id)])]))
          .orderBy('created_at')
          .orderBy('id')
          .limit(options.limit)
          .execute();
  if (rows.length === 0) return [];
  const tally = new Map<number, { up: number; down: number }>();
  for (let start = 0; start < rows.length; start += IDS_PER_STATEMENT) {
    let votes = db
      .selectFrom('comment_votes')
      .select(['comment_id', 'vote_type', (eb) => eb.fn.countAll<number | string>().as('count')])
      .where(
        'comment_id',
        'in',
        rows.slice(start, start + IDS_PER_STATEMENT).map((row) => row.id),
      );
    if (options.leftOut.length > 0) votes = votes.where('member_id', 'not in', [...options.leftOut]);
    for (const vote of await votes.groupBy(['comment_id', 'vote_type']).execute()) {
      const entry = tally.get(vote.comment_id) ?? { up: 0, down: 0 };
      if (vote.vote_type === 'thumbs_up') entry.up += Number(vote.count);
      else entry.down += Number(vote.count);
      tally.set(vote.comment_id, entry);
    }
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
