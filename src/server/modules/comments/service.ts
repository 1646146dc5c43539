import type { Kysely } from 'kysely';
import type { Comment, CommentKind, VoteResult, VoteType } from '../../../shared/contract/comments.js';
import { isCommentEvent } from '../../../shared/api/live-events.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import { ReadCache } from '../../event-bus/read-cache.js';
import type { RateLimiter, RateLimitRule } from '../../http/rate-limit.js';
import { countCommentsByComponent, findVote, insertComment, listCommentsWithVotes, lockComment, type CommentRow, type VoteRow } from './repo.js';
import { ERROR_CODES } from '../../../shared/api/error-codes.js';

/** Presenter: rows to the API shape of spec section 3. */
function presentComment(row: CommentRow, votes: readonly VoteRow[]): Comment {
  return {
    id: row.id,
    componentId: row.component_id,
    kind: row.kind,
    content: row.content,
    memberName: row.member_name,
    createdAt: new Date(row.created_at).toISOString(),
    votes: votes.map((vote) => ({ memberName: vote.member_name, voteType: vote.vote_type })),
  };
}

/** Authorisation rule of spec section 6: only the author deletes a comment. */
export function canDeleteComment(member: MemberRow, comment: { member_id: number }): boolean {
  return comment.member_id === member.id;
}

const COUNTS_KEY = 'counts';
const withVotesKey = (componentId: string) => `with-votes:${componentId}`;
/** Bounds staleness only if an instance died between its commit and its event; events do the real work. */
const READ_CACHE_MAX_AGE_MS = 10_000;

export class CommentService {
  /** Serialized answers of the two hot reads, kept until a live event says they changed (ADR 0011). */
  private readonly cache: ReadCache;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly events: EventBus,
    private readonly isCommentable: (componentId: string) => boolean,
    private readonly postLimit: { limiter: RateLimiter; rule: Omit<RateLimitRule, 'key'> },
  ) {
    this.cache = new ReadCache(events, { maxAgeMs: READ_CACHE_MAX_AGE_MS });
    // Every change, this instance's own at once when it publishes it (EventBus.onChange).
    events.onChange((event) => {
      if (isCommentEvent(event)) this.forget(event.componentId, event.type !== 'vote.changed');
    });
    events.onGap(() => {
      this.cache.invalidateAll();
    });
  }

  private forget(componentId: string, countsChanged: boolean) {
    this.cache.invalidate(withVotesKey(componentId));
    if (countsChanged) this.cache.invalidate(COUNTS_KEY);
  }

  private assertComponent(componentId: string) {
    if (!this.isCommentable(componentId)) throw notFound(`Unknown component "${componentId}"`, ERROR_CODES.unknownComponent);
  }

  counts(): Promise<Record<string, number>> {
    return countCommentsByComponent(this.db);
  }

  /** GET /api/comments/counts as JSON bytes. */
  countsJson(): Promise<Buffer> {
    return this.cache.get(COUNTS_KEY, async () => Buffer.from(JSON.stringify(await this.counts())));
  }

  /** GET /api/comments/{componentId}/with-votes as JSON bytes: the same answer for every member. */
  withVotesJson(componentId: string): Promise<Buffer> {
    this.assertComponent(componentId);
    return this.cache.get(withVotesKey(componentId), async () => Buffer.from(JSON.stringify(await this.listWithVotes(componentId))));
  }

  async listWithVotes(componentId: string): Promise<Comment[]> {
    this.assertComponent(componentId);
    const { comments, votes } = await listCommentsWithVotes(this.db, componentId);
    const votesByComment = new Map<number, VoteRow[]>();
    for (const vote of votes) {
      const list = votesByComment.get(vote.comment_id);
      if (list === undefined) votesByComment.set(vote.comment_id, [vote]);
      else list.push(vote);
    }
    return comments.map((comment) => presentComment(comment, votesByComment.get(comment.id) ?? []));
  }

  async create(member: MemberRow, input: { componentId: string; content: string; kind: CommentKind }): Promise<Comment> {
    this.assertComponent(input.componentId);
    // The per-member limit is counted in the insert's own transaction: one commit (one fsync on
    // SQLite) per comment, and a refused comment counts nothing.
    const row = await this.db.transaction().execute(async (trx) => {
      await this.postLimit.limiter.within(trx).charge(this.postLimit.rule, `member:${member.id}`);
      return insertComment(trx, { ...input, memberId: member.id, memberName: member.full_name });
    });
    await this.events.publish({ type: 'comment.created', componentId: row.component_id, commentId: row.id });
    return presentComment(row, []);
  }

  async remove(member: MemberRow, commentId: number): Promise<void> {
    const componentId = await this.db.transaction().execute(async (trx) => {
      const comment = await lockComment(trx, this.dialect, commentId);
      if (comment === undefined) throw notFound('Comment not found', ERROR_CODES.commentNotFound);
      if (!canDeleteComment(member, comment)) throw forbidden('Only the author can delete this comment', ERROR_CODES.notAuthor);
      // Its votes go with it (ON DELETE CASCADE).
      await trx.deleteFrom('comments').where('id', '=', commentId).execute();
      return comment.component_id;
    });
    await this.events.publish({ type: 'comment.deleted', componentId, commentId });
  }

  /** The same vote again removes it; the other vote replaces it (spec section 4, issue 4). */
  async vote(member: MemberRow, commentId: number, voteType: VoteType): Promise<VoteResult> {
    const result = await this.db.transaction().execute(async (trx) => {
      const comment = await lockComment(trx, this.dialect, commentId);
      if (comment === undefined) throw notFound('Comment not found', ERROR_CODES.commentNotFound);
      const existing = await findVote(trx, commentId, member.id);
      if (existing === voteType) {
        await trx.deleteFrom('comment_votes').where('comment_id', '=', commentId).where('member_id', '=', member.id).execute();
        return { commentId, componentId: comment.component_id, myVote: null };
      }
      await trx
        .insertInto('comment_votes')
        .values({ comment_id: commentId, member_id: member.id, member_name: member.full_name, vote_type: voteType, created_at: Date.now() })
        .onConflict((oc) => oc.columns(['comment_id', 'member_id']).doUpdateSet({ vote_type: voteType, created_at: Date.now() }))
        .execute();
      return { commentId, componentId: comment.component_id, myVote: voteType };
    });
    await this.events.publish({ type: 'vote.changed', componentId: result.componentId, commentId });
    return result;
  }
}
