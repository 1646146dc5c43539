import type { Migration } from './types.js';

/**
 * Retried writes and a full disk. `idempotency_keys` holds the first answer to each write a member
 * sent with an Idempotency-Key, so a retry gets that answer instead of a second comment or a vote
 * flipped back; `storage_probe` is the one row the health route rewrites to learn that a full disk
 * has room again.
 */
export const resilience: Migration = {
  name: '0009-resilience',
  async up(db) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('idempotency_key', 'varchar(128)', (col) => col.notNull())
      // sha256 of method, route and body: the same key sent with another request is refused.
      .addColumn('request_hash', 'varchar(64)', (col) => col.notNull())
      // Null while the first request is still being answered.
      .addColumn('status_code', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['member_id', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();

    await db.schema
      .createTable('storage_probe')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('written_at', 'bigint', (col) => col.notNull())
      .addColumn('filler', 'text', (col) => col.notNull().defaultTo(''))
      .execute();
  },
};
