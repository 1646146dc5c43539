import type { Migration } from './types.js';

/**
 * What became of each suggestion: its review status (open, accepted, in progress, done, declined),
 * the reason it was declined, who set it and when; and, for an accepted one, the action's owner
 * and due date. Every existing suggestion is open. A regeneration updates a surviving suggestion's
 * text, never these.
 */
export const suggestionOutcomes: Migration = {
  name: '0015-suggestion-outcomes',
  async up(db) {
    await db.schema.alterTable('suggestions').addColumn('review_status', 'varchar(16)', (col) => col.notNull().defaultTo('open')).execute();
    await db.schema.alterTable('suggestions').addColumn('status_reason', 'text').execute();
    await db.schema.alterTable('suggestions').addColumn('status_by_name', 'varchar(200)').execute();
    await db.schema.alterTable('suggestions').addColumn('status_at', 'bigint').execute();
    await db.schema.alterTable('suggestions').addColumn('owner_member_id', 'integer').execute();
    await db.schema.alterTable('suggestions').addColumn('owner_name', 'varchar(200)').execute();
    /** A calendar day, YYYY-MM-DD: an action is due on a day, not at an instant. */
    await db.schema.alterTable('suggestions').addColumn('due_date', 'varchar(10)').execute();
  },
};
