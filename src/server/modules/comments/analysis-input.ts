import type { Kysely } from 'kysely';
import type { CommentForAnalysis } from '../../ai-providers/provider.js';
import type { Database } from '../../db/schema.js';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import { listAllCommentsWithVoters, listCommentsByIds, listCommentsWithVotes, listQaMemberIds, listVotersOf, type CommentRowForAnalysis, type VoterRow } from './repo.js';

/** Who voted each comment up and down, by member id (the counts are their lengths). */
export function votersOf(votes: readonly VoterRow[]): Map<number, { up: number[]; down: number[] }> {
  const voters = new Map<number, { up: number[]; down: number[] }>();
  for (const vote of votes) {
    let entry = voters.get(vote.comment_id);
    if (entry === undefined) {
      entry = { up: [], down: [] };
      voters.set(vote.comment_id, entry);
    }
    (vote.vote_type === 'thumbs_up' ? entry.up : entry.down).push(vote.member_id);
  }
  return voters;
}

/** A component's title and what it does (its description, when the content has one), as the providers read them. */
export interface ComponentNames {
  titleOf: (componentId: string) => string;
  descriptionOf: (componentId: string) => string | undefined;
}

/**
 * Comment rows and their vote rows as the providers read them. A member may vote on their own
 * comment, but that is not support: the analyzer already counts an author as backing what they
 * wrote, and a self-vote counted again would let one member make their comment look voted for.
 */
function forAnalysis(comments: readonly CommentRowForAnalysis[], votes: readonly VoterRow[], { titleOf, descriptionOf }: ComponentNames): CommentForAnalysis[] {
  const voters = votersOf(votes);
  return comments.map((row) => {
    const all = voters.get(row.id) ?? { up: [], down: [] };
    const up = all.up.filter((memberId) => memberId !== row.member_id);
    const down = all.down.filter((memberId) => memberId !== row.member_id);
    const componentDescription = descriptionOf(row.component_id);
    return {
      id: row.id,
      componentId: row.component_id,
      componentTitle: titleOf(row.component_id),
      ...(componentDescription === undefined ? {} : { componentDescription }),
      kind: row.kind,
      content: row.content,
      memberName: row.member_name,
      memberId: row.member_id,
      createdAt: row.created_at,
      upVotes: up.length,
      downVotes: down.length,
      upVoterIds: up,
      downVoterIds: down,
      // Only when set: an open comment's input (and so its stored outputs' key) is as before.
      ...(row.resolved_at === null ? {} : { resolved: true }),
    };
  });
}

/**
 * One component's comments as the providers read them, newest first. The QA member's comments and
 * votes count only on the QA component, where the self-test checks the summary.
 */
export async function componentCommentsForAnalysis(db: Kysely<Database>, componentId: string, componentTitle: string, componentDescription?: string): Promise<CommentForAnalysis[]> {
  const { comments, votes } = await listCommentsWithVotes(db, componentId);
  const names: ComponentNames = { titleOf: () => componentTitle, descriptionOf: () => componentDescription };
  if (componentId === QA_TEST_COMPONENT_ID) return forAnalysis(comments, votes, names);
  const qa = new Set(await listQaMemberIds(db));
  return forAnalysis(
    comments.filter((comment) => !qa.has(comment.member_id)),
    votes.filter((vote) => !qa.has(vote.member_id)),
    names,
  );
}

/** Every comment of the review, oldest first, in two queries. */
export async function allCommentsForAnalysis(db: Kysely<Database>, names: ComponentNames): Promise<CommentForAnalysis[]> {
  const { comments, votes } = await listAllCommentsWithVoters(db);
  return forAnalysis(comments, votes, names);
}

/** The given comments (a suggestion's sources), oldest first, with their voters. */
export async function commentsForAnalysisByIds(db: Kysely<Database>, commentIds: readonly number[], names: ComponentNames): Promise<CommentForAnalysis[]> {
  const comments = await listCommentsByIds(db, commentIds);
  return forAnalysis(comments, await listVotersOf(db, comments.map((comment) => comment.id)), names);
}
