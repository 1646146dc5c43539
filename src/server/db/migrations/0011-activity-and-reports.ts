import type { Migration } from './types.js';

/**
 * Each member's active-time clock: how far their counted active time reaches (epoch ms), so a sync
 * from any of their sessions counts only seconds of the clock no other sync has counted, and the
 * seconds the last sync added (written by the same atomic upsert, which answers it).
 */
export const activityAndReports: Migration = {
  name: '0011-activity-and-reports',
  async up(db) {
    await db.schema
      .createTable('activity_clock')
      .addColumn('member_id', 'integer', (col) => col.primaryKey().references('members.id').onDelete('cascade'))
      .addColumn('counted_until', 'bigint', (col) => col.notNull())
      .addColumn('last_credit', 'integer', (col) => col.notNull())
      .execute();
  },
};
