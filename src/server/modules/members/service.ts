import type { Kysely, Transaction } from 'kysely';
import type { CurrentUser } from '../../../common/contract/user.js';
import { isValidFullName, nameKey, normalizeFullName, splitFullName } from '../../../common/names.js';
import type { Database, MemberRow } from '../../db/schema.js';
import { canDecide } from '../decisions/policies.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { SessionEndNotice } from '../../event-bus/event-bus.js';
import { audit } from '../auth/audit.js';
import { LoginLocks } from '../auth/lockout.js';
import { hashPin } from '../auth/secrets.js';
import { deleteDeviceTokensOf, deleteSessionsOf } from '../auth/repo.js';
import { deleteEnrollmentTokensOf, findEnrollmentExpiry } from '../enrollment/repo.js';
import { issueEnrollmentLink, type EnrollmentLink } from '../enrollment/service.js';
import { clearAllPinHashes, clearPinHash, findMemberByKey, insertMemberIfAbsent, markQaMember, resolvePinResetRequests } from './repo.js';
import { ERROR_CODES } from '../../../common/api/error-codes.js';

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
    throw badRequest('A member name is 1 to 100 letters, spaces, apostrophes, dots or hyphens', ERROR_CODES.invalidName);
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

/**
 * ADMIN_NAME bootstraps the admin: the member exists and holds the admin role after every start.
 * An admin who has no PIN and no live enrollment link gets one, answered so the start can print it
 * (nobody else can hand the admin a link).
 */
export async function ensureAdmin(db: Kysely<Database>, adminName: string, publicUrl: string, now = Date.now()): Promise<EnrollmentLink | undefined> {
  await addMember(db, adminName, { role: 'admin' });
  // A member made the configured admin loses any link handed out to them as a member; they get a new one here.
  const assigned = await assignRole(db, nameKey(adminName), 'admin', now);
  if (assigned?.linkRevoked === true) await auditLinkRevoked(db, assigned.member.full_name, 'ADMIN_NAME', 'server');
  const admin = assigned?.member;
  if (admin === undefined || admin.pin_hash !== null) return undefined;
  const expiresAt = await findEnrollmentExpiry(db, admin.id);
  if (expiresAt !== undefined && expiresAt > now) return undefined;
  return issueEnrollmentLink(db, admin.id, publicUrl, now);
}

/**
 * A fresh enrollment link for a member who has no PIN yet (the old one is replaced). A member with a
 * PIN gets one only through a PIN reset, so a link can never take over a working account.
 */
export async function newEnrollmentLink(db: Kysely<Database>, rawName: string, publicUrl: string): Promise<{ member: MemberRow; link: EnrollmentLink }> {
  const member = await findMemberByKey(db, nameKey(rawName));
  if (member === undefined) throw notFound(`No member named "${rawName}"`, ERROR_CODES.memberNotFound);
  if (member.active !== 1) throw conflict(`${member.full_name} is deactivated; reactivate them first`, ERROR_CODES.memberInactive);
  if (member.pin_hash !== null) throw conflict(`${member.full_name} already has a PIN; reset it to issue an enrollment link`, ERROR_CODES.pinAlreadySet);
  return { member, link: await issueEnrollmentLink(db, member.id, publicUrl) };
}

/**
 * Gives a member a role. Becoming an admin revokes their enrollment link (a first-PIN or a PIN
 * reset's) in the same transaction. Every admin may hand a member a link, but only the configured
 * admin or the command line an admin's, so a link from the member's time would otherwise set an
 * admin's PIN. The update comes first: on PostgreSQL it locks the member's row, which a link being
 * issued in the panel waits for (lockMember) and then sees the admin. Answers undefined for an
 * unknown name, else the member as they now are, whether the role changed and whether a live link
 * was revoked.
 */
export async function assignRole(
  db: Kysely<Database>,
  key: string,
  role: 'member' | 'admin',
  now = Date.now(),
): Promise<{ member: MemberRow; changed: boolean; linkRevoked: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('members').set({ role }).where('name_key', '=', key).where('role', '<>', role).executeTakeFirst();
    const member = await findMemberByKey(trx, key);
    if (member === undefined) return undefined;
    const changed = updated.numUpdatedRows > 0n;
    let linkRevoked = false;
    if (changed && role === 'admin') {
      const expiresAt = await findEnrollmentExpiry(trx, member.id);
      linkRevoked = expiresAt !== undefined && expiresAt > now;
      await deleteEnrollmentTokensOf(trx, member.id);
    }
    return { member, changed, linkRevoked };
  });
}

/** A revoked link is its member's event, as an issued one is: the trail filtered by member shows it. */
export async function auditLinkRevoked(db: Kysely<Database>, memberName: string, promotedBy: string, ip: string): Promise<void> {
  await audit(db, { event: 'enrollment', outcome: 'info', actorName: memberName, ip, detail: `unused link revoked: made an admin by ${promotedBy}` });
}

/** Lifts a member's sign-in lock (the admin's answer to a member locked out by wrong PINs). */
export async function unlockMember(db: Kysely<Database>, rawName: string): Promise<MemberRow | undefined> {
  const member = await findMemberByKey(db, nameKey(rawName));
  if (member === undefined) return undefined;
  await new LoginLocks(db).clearMember(member.name_key, member.id);
  return member;
}

/** Presenter: the only shape in which a member leaves the server (the API's current user, with the role). */
export function presentCurrentUser(member: MemberRow): CurrentUser {
  return {
    name: member.full_name,
    firstName: member.first_name,
    lastName: member.last_name,
    email: member.email,
    profileImageUrl: null,
    role: member.role,
    permissions: { canAdminister: member.role === 'admin', canDecide: canDecide(member) },
  };
}

/**
 * Clears a member's PIN, ends their sessions, forgets their devices (a PIN reset revokes quick
 * login), lifts their lock, resolves their pending requests and issues the enrollment link with
 * which they create a new PIN. `notifyEnded` closes the live streams of the ended sessions.
 */
export async function resetMemberPin(
  db: Kysely<Database>,
  rawName: string,
  resolvedBy: string,
  options: { publicUrl: string; notifyEnded: (notice: SessionEndNotice) => Promise<void> },
): Promise<{ member: MemberRow; link: EnrollmentLink } | undefined> {
  const member = await findMemberByKey(db, nameKey(rawName));
  if (member === undefined) return undefined;
  const link = await db.transaction().execute((trx) => clearPinAndIssueLink(trx, member, resolvedBy, options.publicUrl));
  await options.notifyEnded({ memberId: member.id });
  return { member, link };
}

/** The writes of a PIN reset (resetMemberPin), inside the caller's transaction; the caller closes the ended sessions' streams after the commit. */
export async function clearPinAndIssueLink(trx: Transaction<Database>, member: MemberRow, resolvedBy: string, publicUrl: string): Promise<EnrollmentLink> {
  await clearPinHash(trx, member.id);
  await deleteSessionsOf(trx, member.id);
  // The device locks first: they are found through the device tokens.
  await new LoginLocks(trx).clearMember(member.name_key, member.id);
  await deleteDeviceTokensOf(trx, member.id);
  await resolvePinResetRequests(trx, member.id, resolvedBy);
  return issueEnrollmentLink(trx, member.id, publicUrl);
}

/** A new pepper makes every stored PIN unverifiable: clear them all and sign everyone out. */
export async function forgetAllPins(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const cleared = await clearAllPinHashes(trx);
    await deleteSessionsOf(trx);
    await deleteDeviceTokensOf(trx);
    return cleared;
  });
}

/**
 * The QA member the self-test signs in as: a real member flagged as QA (left out of analytics, AI
 * inputs and the sign-in name list) whose PIN is the configured QA PIN. Creating it again resets it
 * to that state; `reactivate` (the admin's `init-qa` call) also undoes a deactivation, which the
 * self-test must never do. Refuses a name that belongs to a real member, so the flag can never
 * take one over.
 */
export async function ensureQaMember(db: Kysely<Database>, qaUserName: string, qaPin: string, pinPepper: string, options: { reactivate: boolean }): Promise<MemberRow> {
  const { created, fullName } = await addMember(db, qaUserName);
  const member = await findMemberByKey(db, nameKey(fullName));
  if (member === undefined) throw notFound(`No member named "${fullName}"`, ERROR_CODES.memberNotFound);
  if (!created && member.is_qa !== 1) {
    throw conflict(`${member.full_name} is a team member, not the QA user; set QA_USER_NAME to another name`, ERROR_CODES.conflict);
  }
  if (!options.reactivate && member.active !== 1) throw qaMemberDeactivated(member.full_name);
  await markQaMember(db, member.id, await hashPin(qaPin, pinPepper), options);
  return { ...member, is_qa: 1, role: 'member', active: 1 };
}

/**
 * Adding a member by hand under QA_USER_NAME is refused: a real member of that name would make the
 * self-test refuse to take it over (ensureQaMember), so it could never run.
 */
export function refuseQaUserName(rawName: string, qaUserName: string): void {
  if (nameKey(rawName) !== nameKey(qaUserName)) return;
  throw conflict(
    `"${normalizeFullName(qaUserName)}" is the QA user's name (QA_USER_NAME), kept for the self-test, which creates that member itself: choose another name`,
    ERROR_CODES.conflict,
  );
}

/** The self-test's answer when an admin deactivated the QA member: it says so rather than undo it. */
export function qaMemberDeactivated(fullName: string) {
  return conflict(
    `The QA member ${fullName} is deactivated, so the self-test cannot run; an admin can reactivate it in Team Management`,
    ERROR_CODES.memberInactive,
  );
}

/** The QA member when it exists, for the self-test's check before it starts a run. */
export async function findQaMember(db: Kysely<Database>, qaUserName: string): Promise<MemberRow | undefined> {
  const member = await findMemberByKey(db, nameKey(qaUserName));
  return member?.is_qa === 1 ? member : undefined;
}
