import { sql } from 'kysely';
import type { Migration } from './types.js';

/**
 * Identical client error reports become one row with a count and a last-seen time. Rows from
 * before keep a group key of their own (`legacy:<id>`): computing the real key would mean hashing
 * every stored report inside the migration, and they age out under the row cap anyway.
 */
export const errorReportGroups: Migration = {
  name: '0006-error-report-groups',
  async up(db) {
    await db.schema.alterTable('error_logs').addColumn('group_key', 'varchar(80)').execute();
    await db.schema.alterTable('error_logs').addColumn('occurrences', 'integer', (col) => col.notNull().defaultTo(1)).execute();
    await db.schema.alterTable('error_logs').addColumn('last_seen_at', 'bigint', (col) => col.notNull().defaultTo(0)).execute();
    await sql`update error_logs set group_key = ${'legacy:'} || cast(id as varchar(20)), last_seen_at = created_at`.execute(db);
    await db.schema.createIndex('error_logs_group_key_idx').on('error_logs').column('group_key').unique().execute();
    // The cap keeps the most recently seen rows, open ones first.
    await db.schema.createIndex('error_logs_resolved_last_seen_idx').on('error_logs').columns(['resolved', 'last_seen_at']).execute();
  },
};
