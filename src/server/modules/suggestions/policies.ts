import type { SuggestionPermissions } from '../../../common/contract/ai.js';
import type { MemberRow } from '../../db/schema.js';

/** An admin moves a suggestion through its statuses, or declines it. */
export function canSetSuggestionStatus(member: MemberRow): boolean {
  return member.role === 'admin';
}

/** An admin gives an action its owner and due day. */
export function canAssignAction(member: MemberRow): boolean {
  return member.role === 'admin';
}

/** Its owner marks an action done, or an admin. */
export function canCompleteAction(member: MemberRow, suggestion: { owner_member_id: number | null }): boolean {
  return suggestion.owner_member_id === member.id || member.role === 'admin';
}

/** What `member` may do with a suggestion, as the answers carry it: the client only reads it. */
export function suggestionPermissions(member: MemberRow, suggestion: { owner_member_id: number | null }): SuggestionPermissions {
  return { canSetStatus: canSetSuggestionStatus(member), canAssign: canAssignAction(member), canComplete: canCompleteAction(member, suggestion) };
}
