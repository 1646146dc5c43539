import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent } from 'kysely';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/schema.js';
import { LocalEventBus } from '../../event-bus/event-bus.js';
import { RateLimiter } from '../../http/rate-limit.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { addMember } from '../members/service.js';
import { CommentService } from './service.js';

/** Posting is not what these tests count: a limit no test reaches. */
const unlimited = (db: Kysely<Database>) => ({ limiter: new RateLimiter(db), rule: { name: 'comment-post', max: 1_000_000, windowMs: 60_000 } });

/**
 * Comments with their votes come from a fixed number of queries, never one per comment.
 * A second Kysely on the same database counts every query the service issues for a small and a
 * large component.
 */

const SMALL = 'context-enrichment';
const LARGE = 'blast-radius-analysis';
const VOTERS = 6;

describe('GET with-votes: a fixed number of queries', () => {
  let testApp: TestApp;
  let counted: Kysely<Database>;
  let queries: string[] = [];

  beforeAll(async () => {
    testApp = await createTestApp();
    const { db } = testApp.app.database;
    const names = Array.from({ length: VOTERS }, (_, index) => `Voter ${String.fromCharCode(65 + index)}`);
    for (const name of names) await addMember(db, name);
    const members = await db.selectFrom('members').select(['id', 'full_name']).where('full_name', 'in', names).execute();

    const seed = async (componentId: string, count: number) => {
      const base = Date.now() - count * 1000;
      const comments = await db
        .insertInto('comments')
        .values(
          Array.from({ length: count }, (_, index) => {
            const author = members[index % members.length];
            if (author === undefined) throw new Error('no members');
            return { component_id: componentId, kind: 'comment' as const, content: `${componentId} #${index}`, member_id: author.id, member_name: author.full_name, created_at: base + index * 1000 };
          }),
        )
        .returning('id')
        .execute();
      // One to VOTERS votes on every comment, alternating up and down.
      const votes = comments.flatMap((comment, index) =>
        members.slice(0, 1 + (index % VOTERS)).map((member, voter) => ({
          comment_id: comment.id,
          member_id: member.id,
          member_name: member.full_name,
          vote_type: voter % 2 === 0 ? ('thumbs_up' as const) : ('thumbs_down' as const),
          created_at: base + index * 1000 + voter,
        })),
      );
      for (let start = 0; start < votes.length; start += 500) await db.insertInto('comment_votes').values(votes.slice(start, start + 500)).execute();
      return votes.length;
    };
    expect(await seed(SMALL, 5)).toBe(15);
    expect(await seed(LARGE, 200)).toBeGreaterThan(600);

    const log = (event: LogEvent) => {
      queries.push(event.query.sql);
    };
    const { databaseUrl, dataDir } = testApp.database;
    counted =
      databaseUrl === undefined
        ? new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'app.db')) }), log })
        : new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 2 }) }), log });
  });
  afterAll(async () => {
    await counted.destroy();
    await testApp.close();
  });

  const listCounted = async (componentId: string) => {
    queries = [];
    const service = new CommentService(counted, testApp.app.database.dialect, new LocalEventBus(), () => true, unlimited(counted));
    const comments = await service.listWithVotes(componentId);
    return { comments, queries: [...queries] };
  };

  it('issues the same, small number of queries for 5 comments and for 200', async () => {
    const small = await listCounted(SMALL);
    const large = await listCounted(LARGE);
    expect(small.comments).toHaveLength(5);
    expect(large.comments).toHaveLength(200);
    expect(small.comments.reduce((sum, comment) => sum + comment.votes.length, 0)).toBe(15);
    expect(large.comments.every((comment, index) => comment.votes.length === 1 + ((199 - index) % VOTERS))).toBe(true);
    expect(small.queries.length).toBeGreaterThan(0);
    expect(large.queries.length).toBe(small.queries.length);
    expect(large.queries.length).toBeLessThanOrEqual(2);
  });

  it('answers the same data through the app as through the counted service', async () => {
    const { comments } = await listCounted(LARGE);
    const service = new CommentService(testApp.app.database.db, testApp.app.database.dialect, new LocalEventBus(), () => true, unlimited(testApp.app.database.db));
    expect(await service.listWithVotes(LARGE)).toEqual(comments);
  });
});
