import type { Migration } from './types.js';
import { autoIncrementId } from './types.js';

/**
 * Decisions on components. A new decision supersedes the last one of its component and nothing is
 * deleted: the newest row is the current decision, the older ones its history. The comments and
 * suggestions a decision rests on are small lists of ids, kept with it as JSON text.
 */
export const componentDecisions: Migration = {
  name: '0014-component-decisions',
  async up(db, dialect) {
    await db.schema
      .createTable('component_decisions')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('component_id', 'varchar(64)', (col) => col.notNull())
      .addColumn('outcome', 'varchar(32)', (col) => col.notNull())
      .addColumn('rationale', 'text', (col) => col.notNull())
      .addColumn('comment_ids', 'text', (col) => col.notNull())
      .addColumn('suggestion_ids', 'text', (col) => col.notNull())
      .addColumn('decided_by_name', 'varchar(200)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('component_decisions_component_idx').on('component_decisions').columns(['component_id', 'id']).execute();
  },
};
