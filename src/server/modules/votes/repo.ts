import { sql, type Transaction } from 'kysely';
import type { Database, MemberRow } from '../../db/schema.js';
import type { VoteStore } from './toggle.js';

/** The two vote tables: one row per member and item, keyed by (item column, member_id). */
export type VoteTarget = { table: 'comment_votes'; itemColumn: 'comment_id'; itemId: number } | { table: 'suggestion_votes'; itemColumn: 'suggestion_id'; itemId: number };

/**
 * A member's vote on a comment or a suggestion, inside the transaction that locked the item. The
 * two tables have the same shape but for the item column, so one set of statements serves both.
 */
export function voteStore(trx: Transaction<Database>, target: VoteTarget, member: Pick<MemberRow, 'id' | 'full_name'>): VoteStore {
  const table = sql.table(target.table);
  const item = sql.ref(target.itemColumn);
  return {
    async removeIfSame(voteType) {
      const result = await sql`delete from ${table} where ${item} = ${target.itemId} and member_id = ${member.id} and vote_type = ${voteType}`.execute(trx);
      return (result.numAffectedRows ?? 0n) > 0n;
    },
    async put(voteType) {
      const now = Date.now();
      await sql`insert into ${table} (${item}, member_id, member_name, vote_type, created_at)
        values (${target.itemId}, ${member.id}, ${member.full_name}, ${voteType}, ${now})
        on conflict (${item}, member_id) do update set vote_type = excluded.vote_type, created_at = excluded.created_at`.execute(trx);
    },
  };
}
