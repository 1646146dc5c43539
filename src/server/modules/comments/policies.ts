import type { MemberRow } from '../../db/schema.js';

/** Only the author deletes a comment. */
export function canDeleteComment(member: MemberRow, comment: { member_id: number }): boolean {
  return comment.member_id === member.id;
}
