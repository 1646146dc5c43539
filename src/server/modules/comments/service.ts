import type { Kysely } from 'kysely';
import type { Comment, CommentKind, VoteResult, VoteType } from '../../../common/contract/comments.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { EventBus } from '../../event-bus/event-bus.js';
import type { JoinWrite } from '../../http/joined-work.js';
import type { RateLimiter, RateLimitRule } from '../../http/rate-limit.js';
import { voteStore } from '../votes/repo.js';
import { toggleVote } from '../votes/toggle.js';
import { canCommentOn, canDeleteComment, canResolveComment, commentPermissions } from './policies.js';
import { audit } from '../auth/audit.js';
import { countCommentsByComponent, deleteComment, insertComment, listCommentsWithVotes, listVotesOf, lockComment, setResolution, type CommentRow, type VoteRow } from './repo.js';

/** A comment as every member sees it, with its author's id (kept on the server) to present it to one member. */
export type AuthoredComment = Omit<Comment, 'mine' | 'permissions'> & { authorId: number };

/** Presenter, second step: what one member is told of a comment, with what they may do with it. */
export function commentFor(member: MemberRow, { authorId, ...comment }: AuthoredComment): Comment {
  return { ...comment, mine: authorId === member.id, permissions: commentPermissions(member, { member_id: authorId }) };
}

/** Presenter: rows to the API shape of a comment, before it is told to one member. */
function presentComment(row: CommentRow, votes: readonly VoteRow[]): AuthoredComment {
  return {
    authorId: row.member_id,
    id: row.id,
    componentId: row.component_id,
    kind: row.kind,
    content: row.content,
    memberName: row.member_name,
    createdAt: new Date(row.created_at).toISOString(),
    votes: votes.map((vote) => ({ memberName: vote.member_name, voteType: vote.vote_type })),
    resolution:
      row.resolved_at === null ? null : { by: row.resolved_by_name ?? 'A former member', at: new Date(row.resolved_at).toISOString(), note: row.resolution_note },
  };
}

const commentNotFound = () => notFound('Comment not found', ERROR_CODES.commentNotFound);

export class CommentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly events: EventBus,
    private readonly isCommentable: (componentId: string) => boolean,
    private readonly postLimit: { limiter: RateLimiter; rule: Omit<RateLimitRule, 'key'> },
  ) {}

  assertComponent(componentId: string): void {
    if (!this.isCommentable(componentId)) throw notFound(`Unknown component "${componentId}"`, ERROR_CODES.unknownComponent);
  }

  counts(): Promise<Record<string, { open: number; resolved: number }>> {
    return countCommentsByComponent(this.db);
  }

  /** The same answer for every member: the route keeps it in memory until a comment event. */
  async listWithVotes(componentId: string): Promise<AuthoredComment[]> {
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

  /** `join`: the request's work that commits with the comment (its Idempotency-Key's answer, its log entry). */
  async create(member: MemberRow, input: { componentId: string; content: string; kind: CommentKind }, join?: JoinWrite): Promise<Comment> {
    this.assertComponent(input.componentId);
    // Hidden from everyone else: the same answer as for an id that does not exist.
    if (!canCommentOn(member, input.componentId)) throw notFound(`Unknown component "${input.componentId}"`, ERROR_CODES.unknownComponent);
    // The per-member limit is counted in the insert's own transaction: one commit (one fsync on
    // SQLite) per comment, and a refused comment counts nothing.
    const comment = await this.db.transaction().execute(async (trx) => {
      await this.postLimit.limiter.within(trx).charge(this.postLimit.rule, `member:${member.id}`);
      const created = commentFor(member, presentComment(await insertComment(trx, { ...input, memberId: member.id, memberName: member.full_name }), []));
      await join?.(trx, created);
      return created;
    });
    await this.events.publish({ type: 'comment.created', componentId: comment.componentId, commentId: comment.id });
    return comment;
  }

  async remove(member: MemberRow, commentId: number): Promise<void> {
    const componentId = await this.db.transaction().execute(async (trx) => {
      const comment = await lockComment(trx, this.dialect, commentId);
      if (comment === undefined) throw commentNotFound();
      if (!canDeleteComment(member, comment)) throw forbidden('Only the author can delete this comment', ERROR_CODES.notAuthor);
      await deleteComment(trx, commentId);
      return comment.component_id;
    });
    await this.events.publish({ type: 'comment.deleted', componentId, commentId });
  }

  /**
   * Marks a comment resolved (its author or an admin) with an optional note, or opens it again
   * (anyone who can see it). Its votes stay. Each change is in the audit trail.
   */
  async setResolved(member: MemberRow, commentId: number, change: { resolved: true; note?: string | undefined } | { resolved: false }, ip: string): Promise<Comment> {
    const comment = await this.db.transaction().execute(async (trx) => {
      const row = await lockComment(trx, this.dialect, commentId);
      if (row === undefined || !canCommentOn(member, row.component_id)) throw commentNotFound();
      if (change.resolved) {
        if (!canResolveComment(member, row)) throw forbidden('Only the author or an admin can resolve this comment', ERROR_CODES.notAuthor);
        if (row.resolved_at !== null) throw conflict('This comment is already resolved', ERROR_CODES.commentResolved);
      } else if (row.resolved_at === null) throw conflict('This comment is not resolved', ERROR_CODES.commentOpen);
      const note = change.resolved && change.note !== undefined && change.note !== '' ? change.note : null;
      const updated = await setResolution(trx, commentId, change.resolved ? { at: Date.now(), byName: member.full_name, note } : null);
      await audit(trx, {
        event: change.resolved ? 'comment-resolved' : 'comment-reopened',
        outcome: 'success',
        actorName: member.full_name,
        ip,
        detail: `comment ${commentId} on ${row.component_id}`,
      });
      return commentFor(member, presentComment(updated, await listVotesOf(trx, commentId)));
    });
    await this.events.publish({ type: 'comment.resolution.changed', componentId: comment.componentId, commentId });
    return comment;
  }

  async vote(member: MemberRow, commentId: number, voteType: VoteType, join?: JoinWrite): Promise<VoteResult> {
    const result = await this.db.transaction().execute(async (trx) => {
      const comment = await lockComment(trx, this.dialect, commentId);
      // The scratch component's comments are hidden from everyone but the QA member, votes included.
      if (comment === undefined || !canCommentOn(member, comment.component_id)) throw commentNotFound();
      const myVote = await toggleVote(voteStore(trx, { table: 'comment_votes', itemColumn: 'comment_id', itemId: commentId }, member), voteType);
      const voted = { commentId, componentId: comment.component_id, myVote };
      await join?.(trx, voted);
      return voted;
    });
    await this.events.publish({ type: 'vote.changed', componentId: result.componentId, commentId });
    return result;
  }
}
