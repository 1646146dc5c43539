import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { precompile } from '../../db/precompiled.js';
import type { AuditLogTable, Database, MemberRow } from '../../db/schema.js';
import { findActiveMemberByToken } from '../members/repo.js';

// ---------------------------------------------------------------- sessions and device tokens

/** Placeholders of the precompiled session lookup: values no real call passes. */
const SESSION_LOOKUP_PLACEHOLDERS = { tokenHash: '\u0000token-hash', notExpiredAt: -1.5, seenAfter: -2.5, active: -3.5 } as const;

function compileSessionLookup(db: Kysely<Database>) {
  return db
    .selectFrom('sessions')
    .innerJoin('members', 'members.id', 'sessions.member_id')
    .selectAll('members')
    .select(['sessions.last_seen_at', 'sessions.created_at as session_created_at', 'sessions.expires_at as session_expires_at'])
    .where('sessions.token_hash', '=', SESSION_LOOKUP_PLACEHOLDERS.tokenHash)
    .where('sessions.expires_at', '>', SESSION_LOOKUP_PLACEHOLDERS.notExpiredAt)
    .where('sessions.last_seen_at', '>', SESSION_LOOKUP_PLACEHOLDERS.seenAfter)
    .where('members.active', '=', SESSION_LOOKUP_PLACEHOLDERS.active)
    .compile();
}

export type SessionLookupRow = typeof compileSessionLookup extends (db: Kysely<Database>) => CompiledQuery<infer Row> ? Row : never;

/**
 * The session lookup every signed-in request makes: compiled once, not per request. The idle and
 * absolute limits are checked in the query (one indexed lookup).
 */
export function sessionLookup(db: Kysely<Database>) {
  const compiled = precompile(compileSessionLookup(db), SESSION_LOOKUP_PLACEHOLDERS);
  return async (values: { tokenHash: string; notExpiredAt: number; seenAfter: number }): Promise<SessionLookupRow | undefined> => {
    const { rows } = await db.executeQuery(compiled({ ...values, active: 1 }));
    return rows[0];
  };
}

export async function insertSession(
  db: Kysely<Database>,
  row: { tokenHash: string; memberId: number; now: number; expiresAt: number; ip: string; userAgent: string | undefined },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: row.tokenHash,
      member_id: row.memberId,
      created_at: row.now,
      last_seen_at: row.now,
      expires_at: row.expiresAt,
      ip: row.ip.slice(0, 64),
      user_agent: row.userAgent?.slice(0, 300) ?? null,
    })
    .execute();
}

export async function touchSession(db: Kysely<Database>, tokenHash: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
}

/** Whether there was such a session. */
export async function deleteSession(db: Kysely<Database>, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A member's session token hashes, newest first. */
export async function listSessionHashesOf(db: Kysely<Database>, memberId: number): Promise<string[]> {
  const rows = await db.selectFrom('sessions').select('token_hash').where('member_id', '=', memberId).orderBy('created_at', 'desc').orderBy('token_hash', 'desc').execute();
  return rows.map((row) => row.token_hash);
}

export async function deleteSessionsByHash(db: Kysely<Database>, tokenHashes: readonly string[]): Promise<void> {
  if (tokenHashes.length === 0) return;
  await db.deleteFrom('sessions').where('token_hash', 'in', tokenHashes).execute();
}

/** Every session of a member, or of everyone when no member is given. */
export async function deleteSessionsOf(db: Kysely<Database>, memberId?: number): Promise<void> {
  const query = db.deleteFrom('sessions');
  await (memberId === undefined ? query : query.where('member_id', '=', memberId)).execute();
}

/** Sessions past their absolute limit, or last seen at or before `idleCutoff`. */
export async function deleteExpiredSessions(db: Kysely<Database>, now: number, idleCutoff: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleCutoff)]))
    .execute();
}

export async function insertDeviceToken(db: Kysely<Database>, row: { tokenHash: string; memberId: number; now: number; expiresAt: number }): Promise<void> {
  await db.insertInto('device_tokens').values({ token_hash: row.tokenHash, member_id: row.memberId, created_at: row.now, expires_at: row.expiresAt }).execute();
}

/** The active member a live device token belongs to. */
export function findDeviceMember(db: Kysely<Database>, tokenHash: string, now: number): Promise<MemberRow | undefined> {
  return findActiveMemberByToken(db, 'device_tokens', tokenHash, now);
}

/** Whether there was such a device token. */
export async function deleteDeviceToken(db: Kysely<Database>, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom('device_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Every device token of a member, or of everyone when no member is given. */
export async function deleteDeviceTokensOf(db: Kysely<Database>, memberId?: number): Promise<void> {
  const query = db.deleteFrom('device_tokens');
  await (memberId === undefined ? query : query.where('member_id', '=', memberId)).execute();
}

export async function deleteExpiredDeviceTokens(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('device_tokens').where('expires_at', '<=', now).execute();
}

// ---------------------------------------------------------------- per-name sign-in locks

export async function findLockedUntil(db: Kysely<Database>, nameKey: string): Promise<number | undefined> {
  const row = await db.selectFrom('login_locks').select('locked_until').where('name_key', '=', nameKey).executeTakeFirst();
  return row?.locked_until;
}

/** One atomic upsert: counts one more failure unless the name is locked at `now`. */
export function countFailure(db: Kysely<Database>, nameKey: string, now: number) {
  return db
    .insertInto('login_locks')
    .values({ name_key: nameKey, failures: 1, updated_at: now })
    .onConflict((oc) =>
      oc.column('name_key').doUpdateSet({
        failures: sql<number>`case when login_locks.locked_until > cast(${now} as bigint) then login_locks.failures else login_locks.failures + 1 end`,
        updated_at: now,
      }),
    )
    .returning(['failures', 'lock_count', 'locked_until'])
    .executeTakeFirstOrThrow();
}

/** Locks the name when it still has at least `minFailures` failures; false when a parallel failure locked it first. */
export async function lockName(db: Kysely<Database>, nameKey: string, minFailures: number, lockedUntil: number, now: number): Promise<boolean> {
  const updated = await db
    .updateTable('login_locks')
    .set({ failures: 0, lock_count: sql<number>`lock_count + 1`, locked_until: lockedUntil, updated_at: now })
    .where('name_key', '=', nameKey)
    .where('failures', '>=', minFailures)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

export async function deleteLoginLock(db: Kysely<Database>, nameKey: string): Promise<void> {
  await db.deleteFrom('login_locks').where('name_key', '=', nameKey).execute();
}

/** The locks of a member's remembered devices (keyed `prefix` + the device token's hash). */
export async function deleteDeviceLocksOf(db: Kysely<Database>, memberId: number, prefix: string): Promise<void> {
  await db
    .deleteFrom('login_locks')
    .where('name_key', 'in', db.selectFrom('device_tokens').select(sql<string>`${prefix} || token_hash`.as('key')).where('member_id', '=', memberId))
    .execute();
}

// ---------------------------------------------------------------- audit log

/** The columns' limits applied: an entry is stored whatever the length of what it quotes. */
export async function insertAuditEntry(
  db: Kysely<Database>,
  entry: { event: string; outcome: AuditLogTable['outcome']; actorName: string | null; ip: string; detail: string | undefined },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      event: entry.event,
      outcome: entry.outcome,
      actor_name: entry.actorName?.slice(0, 100) ?? null,
      ip: entry.ip.slice(0, 64),
      detail: entry.detail?.slice(0, 500) ?? null,
      created_at: Date.now(),
    })
    .execute();
}
