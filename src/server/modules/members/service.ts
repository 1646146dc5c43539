import type { Kysely } from 'kysely';
import type { CurrentUser } from '../../../shared/contract/user.js';
import { isValidFullName, nameKey, normalizeFullName, splitFullName } from '../../../shared/names.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { clearAllPinHashes, clearPinHash, findMemberByKey, insertMemberIfAbsent, setRole } from './repo.js';

export interface AddMemberResult {
  created: boolean;
  fullName: string;
}

export async function addMember(
  db: Kysely<Database>,
  rawName: string,
  options: { email?: string | null; role?: 'member' | 'admin' } = {},
): Promise<AddMemberResult> {
  if (!isValidFullName(rawName)) {
    throw badRequest('A member name is 1 to 100 letters, spaces, apostrophes, dots or hyphens', 'INVALID_NAME');
  }
  const fullName = normalizeFullName(rawName);
  const { firstName, lastName } = splitFullName(fullName);
  const created = await insertMemberIfAbsent(db, {
    fullName,
    key: nameKey(fullName),
    firstName,
    lastName,
    email: options.email ?? null,
    role: options.role ?? 'member',
  });
  return { created, fullName };
}

/** ADMIN_NAME bootstraps the admin: the member exists and holds the admin role after every start. */
export async function ensureAdmin(db: Kysely<Database>, adminName: string): Promise<void> {
  await addMember(db, adminName, { role: 'admin' });
  await setRole(db, nameKey(adminName), 'admin');
}

/** Presenter: the only shape in which a member leaves the server (spec section 3 plus role). */
export function presentCurrentUser(member: MemberRow): CurrentUser {
  return {
    name: member.full_name,
    firstName: member.first_name,
    lastName: member.last_name,
    email: member.email,
    profileImageUrl: null,
    role: member.role,
  };
}

/**
 * Clears a member's PIN so the next full sign-in asks for a new one, ends their sessions, forgets
 * their devices (issue 3: a PIN reset revokes quick login) and resolves their pending requests.
 */
export async function resetMemberPin(db: Kysely<Database>, rawName: string, resolvedBy: string): Promise<MemberRow | undefined> {
  const member = await findMemberByKey(db, nameKey(rawName));
  if (member === undefined) return undefined;
  await db.transaction().execute(async (trx) => {
    await clearPinHash(trx, member.id);
    await trx.deleteFrom('sessions').where('member_id', '=', member.id).execute();
    await trx.deleteFrom('device_tokens').where('member_id', '=', member.id).execute();
    await trx
      .updateTable('pin_reset_requests')
      .set({ status: 'resolved', resolved_at: Date.now(), resolved_by: resolvedBy })
      .where('member_id', '=', member.id)
      .where('status', '=', 'pending')
      .execute();
  });
  return member;
}

/** A new pepper makes every stored PIN unverifiable: clear them all and sign everyone out. */
export async function forgetAllPins(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const cleared = await clearAllPinHashes(trx);
    await trx.deleteFrom('sessions').execute();
    await trx.deleteFrom('device_tokens').execute();
    return cleared;
  });
}
