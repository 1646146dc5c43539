import type { Migration } from './types.js';
import { autoIncrementId } from './types.js';

export const comments: Migration = {
  name: '0003-comments',
  async up(db, dialect) {
    await db.schema
      .createTable('comments')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('component_id', 'varchar(64)', (col) => col.notNull())
      .addColumn('kind', 'varchar(12)', (col) => col.notNull().defaultTo('comment'))
      .addColumn('content', 'text', (col) => col.notNull())
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      // The author's name as shown then: comments stay readable if a member is renamed or removed.
      .addColumn('member_name', 'varchar(100)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    // The panel reads one component's comments newest first; counts group by component.
    await db.schema.createIndex('comments_component_created_idx').on('comments').columns(['component_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('comment_votes')
      .addColumn('comment_id', 'integer', (col) => col.notNull().references('comments.id').onDelete('cascade'))
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('member_name', 'varchar(100)', (col) => col.notNull())
      .addColumn('vote_type', 'varchar(12)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      // One vote per member per comment, enforced by the database, so parallel votes cannot double up.
      .addPrimaryKeyConstraint('comment_votes_pk', ['comment_id', 'member_id'])
      .execute();
    await db.schema.createIndex('comment_votes_member_idx').on('comment_votes').column('member_id').execute();
  },
};
