import type { Kysely } from 'kysely';
import type { Database, MemberRow } from '../../db/schema.js';
import { findActiveMemberByToken } from '../members/repo.js';

/** One link per member: issuing a new one replaces the old in the same statement. */
export async function upsertEnrollmentToken(db: Kysely<Database>, row: { memberId: number; tokenHash: string; createdAt: number; expiresAt: number }): Promise<void> {
  await db
    .insertInto('enrollment_tokens')
    .values({ member_id: row.memberId, token_hash: row.tokenHash, created_at: row.createdAt, expires_at: row.expiresAt })
    .onConflict((oc) => oc.column('member_id').doUpdateSet({ token_hash: row.tokenHash, created_at: row.createdAt, expires_at: row.expiresAt }))
    .execute();
}

/** The active member a live token belongs to. */
export function findEnrolledMember(db: Kysely<Database>, tokenHash: string, now: number): Promise<MemberRow | undefined> {
  return findActiveMemberByToken(db, 'enrollment_tokens', tokenHash, now);
}

/** Uses the token up: true only for the one caller that deleted it, so a link works once even under races. */
export async function deleteEnrollmentToken(db: Kysely<Database>, tokenHash: string, memberId: number): Promise<boolean> {
  const result = await db.deleteFrom('enrollment_tokens').where('token_hash', '=', tokenHash).where('member_id', '=', memberId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteEnrollmentTokensOf(db: Kysely<Database>, memberId: number): Promise<void> {
  await db.deleteFrom('enrollment_tokens').where('member_id', '=', memberId).execute();
}

export async function findEnrollmentExpiry(db: Kysely<Database>, memberId: number): Promise<number | undefined> {
  const row = await db.selectFrom('enrollment_tokens').select('expires_at').where('member_id', '=', memberId).executeTakeFirst();
  return row?.expires_at;
}

export async function deleteExpiredEnrollmentTokens(db: Kysely<Database>, now: number): Promise<void> {
  await db.deleteFrom('enrollment_tokens').where('expires_at', '<=', now).execute();
}
