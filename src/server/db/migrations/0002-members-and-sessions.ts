import { sql } from 'kysely';
import type { Migration } from './types.js';
import { autoIncrementId } from './types.js';

export const membersAndSessions: Migration = {
  name: '0002-members-and-sessions',
  async up(db, dialect) {
    await db.schema
      .createTable('members')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('full_name', 'varchar(100)', (col) => col.notNull())
      // Normalized, case-folded full name: uniqueness is case-insensitive on both engines.
      .addColumn('name_key', 'varchar(100)', (col) => col.notNull().unique())
      .addColumn('first_name', 'varchar(100)', (col) => col.notNull())
      .addColumn('last_name', 'varchar(100)', (col) => col.notNull())
      .addColumn('email', 'varchar(254)')
      .addColumn('role', 'varchar(10)', (col) => col.notNull().defaultTo('member'))
      .addColumn('pin_hash', 'text')
      .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('pin_set_at', 'bigint')
      .execute();

    await db.schema
      .createTable('sessions')
      // sha256 of the opaque cookie token: a database leak yields no usable cookie.
      .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('last_seen_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .addColumn('ip', 'varchar(64)')
      .addColumn('user_agent', 'varchar(300)')
      .execute();
    await db.schema.createIndex('sessions_member_idx').on('sessions').column('member_id').execute();
    await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('device_tokens')
      .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('device_tokens_member_idx').on('device_tokens').column('member_id').execute();

    await db.schema
      .createTable('login_locks')
      .addColumn('name_key', 'varchar(100)', (col) => col.primaryKey())
      .addColumn('failures', 'integer', (col) => col.notNull())
      .addColumn('lock_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('locked_until', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .execute();

    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('event', 'varchar(40)', (col) => col.notNull())
      .addColumn('outcome', 'varchar(20)', (col) => col.notNull())
      .addColumn('actor_name', 'varchar(100)')
      .addColumn('ip', 'varchar(64)')
      .addColumn('detail', 'varchar(500)')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('audit_log_created_idx').on('audit_log').column('created_at').execute();

    await db.schema
      .createTable('pin_reset_requests')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('member_name', 'varchar(100)', (col) => col.notNull())
      .addColumn('status', 'varchar(10)', (col) => col.notNull().defaultTo('pending'))
      .addColumn('requested_at', 'bigint', (col) => col.notNull())
      .addColumn('resolved_at', 'bigint')
      .addColumn('resolved_by', 'varchar(100)')
      .execute();
    // At most one pending request per member, however often 'Forgot PIN' is pressed.
    await db.schema
      .createIndex('pin_reset_requests_one_pending_idx')
      .on('pin_reset_requests')
      .column('member_id')
      .unique()
      .where(sql.ref('status'), '=', sql.lit('pending'))
      .execute();
    await db.schema.createIndex('pin_reset_requests_status_idx').on('pin_reset_requests').columns(['status', 'requested_at']).execute();
  },
};
