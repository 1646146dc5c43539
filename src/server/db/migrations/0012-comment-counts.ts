import { sql } from 'kysely';
import type { Migration } from './types.js';

/**
 * Each component's number of comments, kept by triggers on `comments`, so the counts every page
 * reads are one row per component instead of a count over every comment (an index scan that grew
 * with the review and ran again after every new comment). Triggers, not the service, keep it: every
 * path that adds or removes comments counts, a member's deletion cascading to their comments
 * included, and a backup restore rebuilds it as the comments go in.
 */
export const commentCounts: Migration = {
  name: '0012-comment-counts',
  async up(db, dialect) {
    await db.schema
      .createTable('comment_counts')
      .addColumn('component_id', 'varchar(64)', (col) => col.primaryKey())
      .addColumn('comment_count', 'integer', (col) => col.notNull())
      .execute();
    await sql`insert into comment_counts (component_id, comment_count)
      select component_id, count(*) from comments group by component_id`.execute(db);

    if (dialect === 'postgres') {
      await sql`create function comment_counts_follow() returns trigger language plpgsql as $$
        begin
          if tg_op in ('DELETE', 'UPDATE') then
            update comment_counts set comment_count = comment_count - 1 where component_id = old.component_id;
          end if;
          if tg_op in ('INSERT', 'UPDATE') then
            insert into comment_counts (component_id, comment_count) values (new.component_id, 1)
              on conflict (component_id) do update set comment_count = comment_counts.comment_count + 1;
          end if;
          return null;
        end $$`.execute(db);
      // Deferred to the commit: a component's count row is locked by the writer that changes it until
      // that writer commits, so counting at the insert would make every comment on one component
      // wait for the previous one's whole transaction; at the commit it waits only for its commit.
      await sql`create constraint trigger comments_counted after insert or delete or update of component_id on comments
        deferrable initially deferred for each row execute function comment_counts_follow()`.execute(db);
      return;
    }
    await sql`create trigger comments_counted_insert after insert on comments begin
        insert into comment_counts (component_id, comment_count) values (new.component_id, 1)
          on conflict (component_id) do update set comment_count = comment_count + 1;
      end`.execute(db);
    await sql`create trigger comments_counted_delete after delete on comments begin
        update comment_counts set comment_count = comment_count - 1 where component_id = old.component_id;
      end`.execute(db);
    await sql`create trigger comments_counted_move after update of component_id on comments begin
        update comment_counts set comment_count = comment_count - 1 where component_id = old.component_id;
        insert into comment_counts (component_id, comment_count) values (new.component_id, 1)
          on conflict (component_id) do update set comment_count = comment_count + 1;
      end`.execute(db);
  },
};
