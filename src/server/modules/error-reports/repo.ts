import type { Kysely } from 'kysely';
import type { Database, NewErrorLog } from '../../db/schema.js';

export async function insertErrorLog(db: Kysely<Database>, row: NewErrorLog): Promise<number> {
  const inserted = await db.insertInto('error_logs').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}
