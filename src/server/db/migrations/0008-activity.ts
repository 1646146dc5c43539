import { sql } from 'kysely';
import type { Migration } from './types.js';
import { autoIncrementId } from './types.js';

/**
 * Team analytics: each member's sign-in count, the activity log the client writes (page views,
 * comments added…), active time per member and day, and the daily roll-up the old log rows are
 * folded into. Indexes for the per-member and per-day counts of comments and votes.
 */
export const activity: Migration = {
  name: '0008-activity',
  async up(db, dialect) {
    await db.schema.alterTable('members').addColumn('login_count', 'integer', (col) => col.notNull().defaultTo(0)).execute();
    // The sign-ins that happened before this column: the audit trail has them.
    await sql`update members set login_count = (
        select count(*) from audit_log
        where audit_log.actor_name = members.full_name and audit_log.event in ('sign-in', 'quick-login') and audit_log.outcome = 'success'
      )`.execute(db);

    await db.schema
      .createTable('activity_log')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('activity_type', 'varchar(40)', (col) => col.notNull())
      .addColumn('details', 'text')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('activity_log_member_created_idx').on('activity_log').columns(['member_id', 'created_at']).execute();
    await db.schema.createIndex('activity_log_created_idx').on('activity_log').column('created_at').execute();

    // Days are whole days since the epoch, UTC: a member's time is one row a day, however often they sync.
    await db.schema
      .createTable('activity_time')
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('day', 'integer', (col) => col.notNull())
      .addColumn('active_seconds', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('activity_time_pk', ['member_id', 'day'])
      .execute();
    await db.schema.createIndex('activity_time_day_idx').on('activity_time').column('day').execute();

    await db.schema
      .createTable('activity_daily')
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('day', 'integer', (col) => col.notNull())
      .addColumn('activity_type', 'varchar(40)', (col) => col.notNull())
      .addColumn('entries', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('activity_daily_pk', ['member_id', 'day', 'activity_type'])
      .execute();

    await db.schema.createIndex('comments_member_idx').on('comments').columns(['member_id', 'component_id']).execute();
    await db.schema.createIndex('comments_created_idx').on('comments').column('created_at').execute();
    await db.schema.createIndex('comment_votes_created_idx').on('comment_votes').column('created_at').execute();
  },
};
