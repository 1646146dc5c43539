import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from '../../db/connection.js';
import type { Database, MemberRow } from '../../db/schema.js';

export function findMemberByKey(db: Kysely<Database>, key: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').selectAll().where('name_key', '=', key).executeTakeFirst();
}

/** The member tables whose rows are secret tokens of one member: a hash, the member and an expiry. */
type MemberTokenTable = 'device_tokens' | 'enrollment_tokens';

/** The active member a live token of `table` belongs to. */
export function findActiveMemberByToken(db: Kysely<Database>, table: MemberTokenTable, tokenHash: string, now: number): Promise<MemberRow | undefined> {
  return db
    .selectFrom('members')
    .innerJoin(`${table} as token`, 'token.member_id', 'members.id')
    .selectAll('members')
    .where('token.token_hash', '=', tokenHash)
    .where('token.expires_at', '>', now)
    .where('members.active', '=', 1)
    .executeTakeFirst();
}

export function findMembersByKeys(db: Kysely<Database>, keys: readonly string[]): Promise<Pick<MemberRow, 'id' | 'full_name' | 'name_key'>[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db.selectFrom('members').select(['id', 'full_name', 'name_key']).where('name_key', 'in', keys).execute();
}

export function listMembers(db: Kysely<Database>): Promise<MemberRow[]> {
  return db.selectFrom('members').selectAll().orderBy('full_name').execute();
}

/** The names the sign-in screen suggests: active members, without the QA member (it is not a teammate). */
export async function listActiveMemberNames(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('members').select('full_name').where('active', '=', 1).where('is_qa', '=', 0).orderBy('full_name').execute();
  return rows.map((row) => row.full_name);
}

/** Inserts unless the name exists (case-insensitively); answers whether a row was created. */
export async function insertMemberIfAbsent(
  db: Kysely<Database>,
  member: { fullName: string; key: string; firstName: string; lastName: string; email: string | null; role: 'member' | 'admin' },
): Promise<boolean> {
  const inserted = await db
    .insertInto('members')
    .values({
      full_name: member.fullName,
      name_key: member.key,
      first_name: member.firstName,
      last_name: member.lastName,
      email: member.email,
      role: member.role,
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.column('name_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function setRole(db: Kysely<Database>, key: string, role: 'member' | 'admin'): Promise<boolean> {
  const result = await db.updateTable('members').set({ role }).where('name_key', '=', key).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Sets the first PIN; false when the member already has one (checked in the same statement). */
export async function setFirstPinHash(db: Kysely<Database>, memberId: number, pinHash: string): Promise<boolean> {
  const result = await db
    .updateTable('members')
    .set({ pin_hash: pinHash, pin_set_at: Date.now() })
    .where('id', '=', memberId)
    .where('pin_hash', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function clearPinHash(db: Kysely<Database>, memberId: number): Promise<void> {
  await db.updateTable('members').set({ pin_hash: null, pin_set_at: null }).where('id', '=', memberId).execute();
}

export async function clearAllPinHashes(db: Kysely<Database>): Promise<number> {
  const result = await db.updateTable('members').set({ pin_hash: null, pin_set_at: null }).where('pin_hash', 'is not', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** At most one pending request per member: a second one while the first waits changes nothing. */
export async function insertPinResetRequest(db: Kysely<Database>, member: Pick<MemberRow, 'id' | 'full_name'>): Promise<void> {
  await db
    .insertInto('pin_reset_requests')
    .values({ member_id: member.id, member_name: member.full_name, requested_at: Date.now() })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function resolvePinResetRequests(db: Kysely<Database>, memberId: number, resolvedBy: string): Promise<void> {
  await db
    .updateTable('pin_reset_requests')
    .set({ status: 'resolved', resolved_at: Date.now(), resolved_by: resolvedBy })
    .where('member_id', '=', memberId)
    .where('status', '=', 'pending')
    .execute();
}

export function findMemberById(db: Kysely<Database>, id: number): Promise<MemberRow | undefined> {
  return db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Reads a member inside a transaction and, on PostgreSQL, locks their row until commit (SQLite
 * transactions already run one at a time, on its single connection): a change of their role
 * either committed before this read, and is seen, or waits for this transaction to end.
 */
export function lockMember(trx: Transaction<Database>, dialect: Dialect, id: number): Promise<MemberRow | undefined> {
  const query = trx.selectFrom('members').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** The QA member: flagged, a plain member, active, with the configured PIN. */
/** Flags the QA member with its PIN; `reactivate` is the admin's explicit choice, never the self-test's. */
export async function markQaMember(db: Kysely<Database>, memberId: number, pinHash: string, options: { reactivate: boolean }): Promise<void> {
  await db
    .updateTable('members')
    .set({ is_qa: 1, role: 'member', ...(options.reactivate ? { active: 1 } : {}), pin_hash: pinHash, pin_set_at: Date.now() })
    .where('id', '=', memberId)
    .execute();
}

export async function recordSignIn(db: Kysely<Database>, memberId: number, now: number): Promise<void> {
  await db
    .updateTable('members')
    .set({ last_sign_in_at: now, login_count: sql<number>`login_count + 1` })
    .where('id', '=', memberId)
    .execute();
}

/** The configured admin when they are an active admin, else the first active admin by name. */
export async function findAdminName(db: Kysely<Database>, configuredKey: string | undefined): Promise<string | null> {
  const admins = await db.selectFrom('members').select(['full_name', 'name_key']).where('role', '=', 'admin').where('active', '=', 1).orderBy('full_name').execute();
  return (admins.find((admin) => admin.name_key === configuredKey) ?? admins[0])?.full_name ?? null;
}
