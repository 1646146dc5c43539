import { sql } from 'kysely';
import type { Migration } from './types.js';
import { autoIncrementId } from './types.js';

/**
 * The admin panel: the QA member is a real member with a flag (left out of analytics and AI
 * inputs), each member's last sign-in, the self-test runs with one row per check, and indexes for
 * the audit trail's filters.
 */
export const admin: Migration = {
  name: '0007-admin',
  async up(db, dialect) {
    await db.schema.alterTable('members').addColumn('is_qa', 'integer', (col) => col.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('members').addColumn('last_sign_in_at', 'bigint').execute();

    await db.schema
      .createTable('qa_runs')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('status', 'varchar(10)', (col) => col.notNull())
      .addColumn('run_by', 'varchar(100)', (col) => col.notNull())
      .addColumn('started_at', 'bigint', (col) => col.notNull())
      .addColumn('finished_at', 'bigint')
      .addColumn('passed', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('skipped', 'integer', (col) => col.notNull().defaultTo(0))
      // Progress lives in the row so that any instance can answer it; the heartbeat tells a run in
      // progress from one whose instance died (an abandoned run stops blocking new ones).
      .addColumn('total_suites', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('completed_suites', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('current_suite', 'varchar(100)')
      .addColumn('heartbeat_at', 'bigint', (col) => col.notNull())
      .execute();
    // One run at a time across every instance: a second 'running' row is refused by the database.
    await db.schema.createIndex('qa_runs_one_running_idx').on('qa_runs').column('status').unique().where(sql.ref('status'), '=', 'running').execute();
    await db.schema
      .createTable('qa_results')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('run_id', 'integer', (col) => col.notNull().references('qa_runs.id').onDelete('cascade'))
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('test_name', 'varchar(200)', (col) => col.notNull())
      .addColumn('test_suite', 'varchar(100)', (col) => col.notNull())
      .addColumn('status', 'varchar(10)', (col) => col.notNull())
      .addColumn('duration_ms', 'integer', (col) => col.notNull())
      .addColumn('run_by', 'varchar(100)', (col) => col.notNull())
      .addColumn('reason', 'varchar(1000)')
      .execute();
    await db.schema.createIndex('qa_results_run_idx').on('qa_results').columns(['run_id', 'position']).execute();

    await db.schema.createIndex('audit_log_actor_idx').on('audit_log').columns(['actor_name', 'created_at']).execute();
    await db.schema.createIndex('audit_log_event_idx').on('audit_log').columns(['event', 'created_at']).execute();
  },
};
