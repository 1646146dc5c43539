import type { Migration } from './types.js';
import { autoIncrementId } from './types.js';

export const foundation: Migration = {
  name: '0001-foundation',
  async up(db, dialect) {
    await db.schema
      .createTable('error_logs')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('error_type', 'varchar(40)', (col) => col.notNull())
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('stack', 'text')
      .addColumn('severity', 'varchar(16)', (col) => col.notNull())
      .addColumn('source', 'varchar(16)', (col) => col.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('url', 'text')
      .addColumn('member_name', 'varchar(100)')
      .addColumn('ip', 'varchar(64)')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('resolved', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('resolved_at', 'bigint')
      .addColumn('resolved_by', 'varchar(100)')
      .execute();
    // The admin's lists read newest first, optionally only the unresolved ones.
    await db.schema.createIndex('error_logs_resolved_created_idx').on('error_logs').columns(['resolved', 'created_at']).execute();
    await db.schema.createIndex('error_logs_created_idx').on('error_logs').column('created_at').execute();

    await db.schema
      .createTable('rate_limit_buckets')
      .addColumn('key', 'varchar(200)', (col) => col.primaryKey())
      .addColumn('hits', 'integer', (col) => col.notNull())
      .addColumn('reset_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('rate_limit_buckets_reset_idx').on('rate_limit_buckets').column('reset_at').execute();
  },
};
