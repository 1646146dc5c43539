import { sql } from 'kysely';
import type { Migration } from './types.js';

/**
 * A comment can be marked resolved (who, when, an optional note) and reopened. The per-component
 * counts gain the resolved ones, kept by the same triggers as the total: the cards show open and
 * resolved comments apart without counting over every comment. Existing comments are open.
 */
export const commentResolution: Migration = {
  name: '0013-comment-resolution',
  async up(db, dialect) {
    await db.schema.alterTable('comments').addColumn('resolved_at', 'bigint').execute();
    await db.schema.alterTable('comments').addColumn('resolved_by_name', 'varchar(200)').execute();
    await db.schema.alterTable('comments').addColumn('resolution_note', 'text').execute();
    await db.schema
      .alterTable('comment_counts')
      .addColumn('resolved_count', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();

    if (dialect === 'postgres') {
      await sql`create or replace function comment_counts_follow() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') then
            update comment_counts
              set comment_count = comment_count - 1,
                  resolved_count = resolved_count - (case when old.resolved_at is null then 0 else 1 end)
              where component_id = old.component_id;
          end if;
          if tg_op in ('INSERT', 'UPDATE') then
            insert into comment_counts (component_id, comment_count, resolved_count)
              values (new.component_id, 1, case when new.resolved_at is null then 0 else 1 end)
              on conflict (component_id) do update
                set comment_count = comment_counts.comment_count + 1,
                    resolved_count = comment_counts.resolved_count + excluded.resolved_count;
          end if;
          return null;
        end $$`.execute(db);
      await sql`drop trigger comments_counted on comments`.execute(db);
      // Deferred to the commit, as before (0012): a count row is locked only for the commit.
      await sql`create constraint trigger comments_counted after insert or delete or update of component_id, resolved_at on comments
        deferrable initially deferred for each row execute function comment_counts_follow()`.execute(db);
      return;
    }
    for (const name of ['comments_counted_insert', 'comments_counted_delete', 'comments_counted_move']) await sql`drop trigger ${sql.id(name)}`.execute(db);
    await sql`create trigger comments_counted_insert after insert on comments begin
        insert into comment_counts (component_id, comment_count, resolved_count)
          values (new.component_id, 1, new.resolved_at is not null)
          on conflict (component_id) do update set comment_count = comment_count + 1, resolved_count = resolved_count + excluded.resolved_count;
      end`.execute(db);
    await sql`create trigger comments_counted_delete after delete on comments begin
        update comment_counts set comment_count = comment_count - 1, resolved_count = resolved_count - (old.resolved_at is not null)
          where component_id = old.component_id;
      end`.execute(db);
    await sql`create trigger comments_counted_move after update of component_id, resolved_at on comments begin
        update comment_counts set comment_count = comment_count - 1, resolved_count = resolved_count - (old.resolved_at is not null)
          where component_id = old.component_id;
        insert into comment_counts (component_id, comment_count, resolved_count)
          values (new.component_id, 1, new.resolved_at is not null)
          on conflict (component_id) do update set comment_count = comment_count + 1, resolved_count = resolved_count + excluded.resolved_count;
      end`.execute(db);
  },
};
