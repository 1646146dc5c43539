import type { Migration } from './types.js';

/**
 * One-time enrollment links: a member without a PIN proves who they are with a token the admin
 * handed over. One row per member (a new link replaces the old one); only the token's sha256 is kept.
 */
export const enrollment: Migration = {
  name: '0005-enrollment',
  async up(db) {
    await db.schema
      .createTable('enrollment_tokens')
      .addColumn('member_id', 'integer', (col) => col.primaryKey().references('members.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (col) => col.notNull().unique())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('expires_at', 'bigint', (col) => col.notNull())
      .execute();
  },
};
