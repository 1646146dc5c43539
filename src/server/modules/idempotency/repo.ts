import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface StoredAnswer {
  requestHash: string;
  /** Null while the first request with the key is still being answered. */
  statusCode: number | null;
  body: string | null;
  createdAt: number;
}

/**
 * Claims the key for a request; false when the member already used it. One atomic insert. With
 * `answer`, the key is stored already answered: inside the write's own transaction, so the answer
 * commits with the write. On PostgreSQL a second transaction inserting the same key waits for the
 * first to end, then finds it taken.
 */
export async function claimKey(
  db: Kysely<Database>,
  memberId: number,
  key: string,
  requestHash: string,
  now: number,
  answer?: { statusCode: number; body: string },
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({ member_id: memberId, idempotency_key: key, request_hash: requestHash, status_code: answer?.statusCode ?? null, response_body: answer?.body ?? null, created_at: now })
    .onConflict((conflict) => conflict.columns(['member_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return result.numInsertedOrUpdatedRows === 1n;
}

/**
 * Takes over a claim whose request never answered (its process died) once it is older than
 * `staleBefore`; only one of several retries racing for it wins.
 */
export async function reclaimStaleKey(db: Kysely<Database>, memberId: number, key: string, staleBefore: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ created_at: now })
    .where('member_id', '=', memberId)
    .where('idempotency_key', '=', key)
    .where('status_code', 'is', null)
    .where('created_at', '<', staleBefore)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function findAnswer(db: Kysely<Database>, memberId: number, key: string): Promise<StoredAnswer | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response_body', 'created_at'])
    .where('member_id', '=', memberId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row === undefined ? undefined : { requestHash: row.request_hash, statusCode: row.status_code, body: row.response_body, createdAt: row.created_at };
}

export async function storeAnswer(db: Kysely<Database>, memberId: number, key: string, statusCode: number, body: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status_code: statusCode, response_body: body })
    .where('member_id', '=', memberId)
    .where('idempotency_key', '=', key)
    .execute();
}

export async function releaseKey(db: Kysely<Database>, memberId: number, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('member_id', '=', memberId).where('idempotency_key', '=', key).execute();
}

export async function deleteAnswersBefore(db: Kysely<Database>, before: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
}
