import { sql } from 'kysely';
import { DEFAULT_NARRATIVE_PROMPT, DEFAULT_NARRATIVE_PROMPT_DESCRIPTION } from '../../ai-providers/default-prompt.js';
import type { Migration } from './types.js';
import { autoIncrementId } from './types.js';

/** AI prompts, cached AI outputs, suggestions with their votes, and generation runs. */
export const ai: Migration = {
  name: '0004-ai',
  async up(db, dialect) {
    await db.schema
      .createTable('ai_prompts')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('name', 'varchar(64)', (col) => col.notNull())
      .addColumn('prompt', 'text', (col) => col.notNull())
      .addColumn('description', 'text')
      .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_by', 'varchar(100)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .execute();
    // At most one active prompt per name, whatever the races between two saves.
    await db.schema
      .createIndex('ai_prompts_one_active_idx')
      .on('ai_prompts')
      .column('name')
      .unique()
      .where(sql.ref('is_active'), '=', sql.lit(1))
      .execute();
    // A fresh database has a default prompt, written as plain SQL: migrations do not depend on today's schema types.
    await sql`insert into ai_prompts (name, prompt, description, is_active, created_by, created_at)
      values ('narrative-summary', ${DEFAULT_NARRATIVE_PROMPT}, ${DEFAULT_NARRATIVE_PROMPT_DESCRIPTION}, 1, 'System', ${Date.now()})`.execute(db);

    await db.schema
      .createTable('ai_outputs')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('kind', 'varchar(20)', (col) => col.notNull())
      .addColumn('scope', 'varchar(64)', (col) => col.notNull())
      .addColumn('input_hash', 'varchar(64)', (col) => col.notNull())
      .addColumn('output', 'text', (col) => col.notNull())
      .addColumn('provider', 'varchar(20)', (col) => col.notNull())
      .addColumn('model', 'varchar(200)', (col) => col.notNull())
      .addColumn('prompt_version', 'varchar(100)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addUniqueConstraint('ai_outputs_input_unique', ['kind', 'scope', 'input_hash'])
      .execute();

    await db.schema
      .createTable('suggestion_generations')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('status', 'varchar(10)', (col) => col.notNull())
      .addColumn('started_at', 'bigint', (col) => col.notNull())
      .addColumn('finished_at', 'bigint')
      .addColumn('requested_by', 'varchar(100)', (col) => col.notNull())
      .addColumn('comment_count', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('kept', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('archived', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('generated_by', 'text')
      .addColumn('fallback', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('notice', 'text')
      .execute();
    await db.schema.createIndex('suggestion_generations_started_idx').on('suggestion_generations').columns(['status', 'started_at']).execute();

    await db.schema
      .createTable('suggestions')
      .addColumn('id', 'integer', autoIncrementId(dialect))
      .addColumn('suggestion', 'text', (col) => col.notNull())
      .addColumn('recommendation_type', 'varchar(12)', (col) => col.notNull())
      // JSON arrays: read and written whole, never queried into.
      .addColumn('components', 'text', (col) => col.notNull())
      .addColumn('member_initials', 'text', (col) => col.notNull())
      .addColumn('sources', 'text', (col) => col.notNull())
      .addColumn('status', 'varchar(10)', (col) => col.notNull().defaultTo('active'))
      // Its place in the latest generation's order (most supported first).
      .addColumn('rank', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('generation_id', 'integer', (col) => col.notNull().references('suggestion_generations.id'))
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addColumn('updated_at', 'bigint', (col) => col.notNull())
      .addColumn('archived_at', 'bigint')
      .execute();
    await db.schema.createIndex('suggestions_status_idx').on('suggestions').columns(['status', 'id']).execute();

    await db.schema
      .createTable('suggestion_votes')
      .addColumn('suggestion_id', 'integer', (col) => col.notNull().references('suggestions.id').onDelete('cascade'))
      .addColumn('member_id', 'integer', (col) => col.notNull().references('members.id').onDelete('cascade'))
      .addColumn('member_name', 'varchar(100)', (col) => col.notNull())
      .addColumn('vote_type', 'varchar(12)', (col) => col.notNull())
      .addColumn('created_at', 'bigint', (col) => col.notNull())
      .addPrimaryKeyConstraint('suggestion_votes_pk', ['suggestion_id', 'member_id'])
      .execute();
    await db.schema.createIndex('suggestion_votes_member_idx').on('suggestion_votes').column('member_id').execute();
  },
};
