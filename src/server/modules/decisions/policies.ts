import type { MemberRow } from '../../db/schema.js';

/** An admin records decisions on components (with the admin password, which the service checks). */
export function canDecide(member: MemberRow): boolean {
  return member.role === 'admin';
}
