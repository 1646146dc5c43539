import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import type { CommentPermissions } from '../../../common/contract/comments.js';
import type { MemberRow } from '../../db/schema.js';

/** Its author resolves a comment, or an admin (who moderates the review); anyone may reopen it. */
export function canResolveComment(member: MemberRow, comment: { member_id: number }): boolean {
  return comment.member_id === member.id || member.role === 'admin';
}

/** Only the author deletes a comment. */
export function canDeleteComment(member: MemberRow, comment: { member_id: number }): boolean {
  return comment.member_id === member.id;
}

/** What `member` may do with a comment, as the answers carry it: the client only reads it. */
export function commentPermissions(member: MemberRow, comment: { member_id: number }): CommentPermissions {
  return { canResolve: canResolveComment(member, comment), canReopen: true, canDelete: canDeleteComment(member, comment) };
}

/**
 * The self-test's scratch component takes only the QA member's comments: a member's comment there
 * would be seen by nobody, and would slip into the self-test's own checks.
 */
export function canCommentOn(member: MemberRow, componentId: string): boolean {
  return componentId !== QA_TEST_COMPONENT_ID || member.is_qa === 1;
}
