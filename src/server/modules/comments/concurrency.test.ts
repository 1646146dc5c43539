import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentSchema, voteResultSchema } from '../../../common/contract/comments.js';
import type { App } from '../../http/types.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { signInAs, type SessionCookies } from '../../test/sign-in.js';

/**
 * On the database the run is configured for, parallel votes, comments and deletes
 * leave exactly the rows a one-at-a-time order would have left.
 */

const COMPONENT = 'approved-automation';
const COMMENTERS = 10;
const VOTERS = 50;

describe('comments and votes under concurrency', () => {
  let testApp: TestApp;
  let app: App;
  let author: SessionCookies;
  let commenters: { name: string; cookies: SessionCookies }[];
  let voters: SessionCookies[];

  beforeAll(async () => {
    // 61 sign-ins from one address: lift the per-IP sign-in limit for this file.
    // A hundred toggles of one comment queue on its row lock while holding pooled connections; on a
    // busy two-core machine the last wait past the production pool wait (1 s) and answer 503. What
    // is tested here is that they serialise correctly, so the pool may wait as long as they take.
    testApp = await createTestApp({ signInLimitPerMinute: 10_000, database: { poolSize: 10, poolWaitMs: 30_000, startupWaitMs: 0 } });
    app = testApp.app;
    author = await signInAs(app, 'Paula Author');
    const commenterNames = Array.from({ length: COMMENTERS }, (_, index) => `Commenter ${String.fromCharCode(65 + index)}`);
    commenters = await Promise.all(commenterNames.map(async (name) => ({ name, cookies: await signInAs(app, name) })));
    voters = await Promise.all(Array.from({ length: VOTERS }, (_, index) => signInAs(app, `Voter ${toLetters(index)}`)));
  });
  afterAll(async () => {
    await testApp.close();
  });

  const json = { 'content-type': 'application/json' };
  const postComment = (cookies: SessionCookies, content: string) =>
    app.inject({ method: 'POST', url: '/api/comments', cookies, headers: json, payload: JSON.stringify({ componentId: COMPONENT, content }) });
  const vote = (cookies: SessionCookies, id: number, voteType: 'thumbs_up' | 'thumbs_down') =>
    app.inject({ method: 'POST', url: `/api/comments/${id}/vote`, cookies, headers: json, payload: JSON.stringify({ voteType }) });
  const newComment = async (content: string) => {
    const response = await postComment(author, content);
    expect(response.statusCode, response.body).toBe(201);
    return commentSchema.parse(response.json());
  };
  const votesOf = (commentId: number) =>
    app.database.db.selectFrom('comment_votes').select(['member_id', 'vote_type']).where('comment_id', '=', commentId).execute();

  it('101 parallel identical votes by one member leave exactly one vote: the toggles ran one after another', async () => {
    const target = await newComment('Toggle me 101 times');
    const responses = await Promise.all(Array.from({ length: 101 }, () => vote(author, target.id, 'thumbs_up')));
    expect(responses.map((response) => response.statusCode).filter((status) => status !== 200)).toEqual([]);
    const results = responses.map((response) => voteResultSchema.parse(response.json()).myVote);
    // Serialised toggles alternate on, off, on…: 51 answered "on", 50 "off", whatever the order.
    expect(results.filter((myVote) => myVote === 'thumbs_up')).toHaveLength(51);
    expect(results.filter((myVote) => myVote === null)).toHaveLength(50);
    const votes = await votesOf(target.id);
    expect(votes).toHaveLength(1);
    expect(votes[0]?.vote_type).toBe('thumbs_up');
  });

  it('100 parallel identical votes by one member leave none', async () => {
    const target = await newComment('Toggle me 100 times');
    const responses = await Promise.all(Array.from({ length: 100 }, () => vote(author, target.id, 'thumbs_down')));
    expect(responses.map((response) => response.statusCode).filter((status) => status !== 200)).toEqual([]);
    expect(responses.filter((response) => voteResultSchema.parse(response.json()).myVote === null)).toHaveLength(50);
    expect(await votesOf(target.id)).toEqual([]);
  });

  it('parallel up and down votes of many members leave at most one vote row per member', async () => {
    const target = await newComment('Everyone votes three times at once');
    // Each voter sends up, down, up in parallel with everyone else: after any serial order of a
    // member's three calls, they hold exactly one vote or none, never two rows.
    const responses = await Promise.all(
      voters.flatMap((cookies) => [vote(cookies, target.id, 'thumbs_up'), vote(cookies, target.id, 'thumbs_down'), vote(cookies, target.id, 'thumbs_up')]),
    );
    expect(responses.filter((response) => response.statusCode !== 200)).toEqual([]);
    const votes = await votesOf(target.id);
    expect(new Set(votes.map((row) => row.member_id)).size).toBe(votes.length);
    expect(votes.length).toBeLessThanOrEqual(VOTERS);
  });

  it('the database refuses a second vote row for the same member and comment', async () => {
    const target = await newComment('Unique key');
    const member = await app.database.db.selectFrom('members').select(['id', 'full_name']).where('full_name', '=', 'Paula Author').executeTakeFirstOrThrow();
    const row = { comment_id: target.id, member_id: member.id, member_name: member.full_name, vote_type: 'thumbs_up' as const, created_at: Date.now() };
    await app.database.db.insertInto('comment_votes').values(row).execute();
    await expect(app.database.db.insertInto('comment_votes').values({ ...row, vote_type: 'thumbs_down' }).execute()).rejects.toThrow(/unique|duplicate|primary key/i);
    const duplicates = await app.database.db
      .selectFrom('comment_votes')
      .select(['comment_id', 'member_id'])
      .groupBy(['comment_id', 'member_id'])
      .having(sql<number>`count(*)`, '>', 1)
      .execute();
    expect(duplicates).toEqual([]);
  });

  it('stores all of 100 parallel comments by 10 members, each with its own id', async () => {
    const requests = commenters.flatMap(({ name, cookies }) => Array.from({ length: 10 }, (_, index) => postComment(cookies, `Parallel comment ${index} by ${name}`)));
    const responses = await Promise.all(requests);
    expect(responses.map((response) => response.statusCode).filter((status) => status !== 201)).toEqual([]);
    const created = responses.map((response) => commentSchema.parse(response.json()));
    expect(new Set(created.map((comment) => comment.id)).size).toBe(100);

    const stored = await app.database.db
      .selectFrom('comments')
      .select(['id', 'member_name', 'content'])
      .where('content', 'like', 'Parallel comment %')
      .execute();
    expect(stored).toHaveLength(100);
    expect(new Set(stored.map((row) => row.id))).toEqual(new Set(created.map((comment) => comment.id)));
    for (const { name } of commenters) {
      const mine = stored.filter((row) => row.member_name === name);
      expect(mine.map((row) => row.content).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `Parallel comment ${index} by ${name}`).sort());
    }
  });

  it('deleting a comment while 50 members vote on it leaves no orphan votes and no 5xx', async () => {
    const statuses = { 200: 0, 404: 0 };
    for (let round = 0; round < 3; round += 1) {
      const target = await newComment(`Deleted mid-vote, round ${round}`);
      // The delete starts among the votes, at a different point each round.
      const cut = [10, 25, 40][round] ?? 25;
      const votes = voters.map((cookies, index) => vote(cookies, target.id, index % 2 === 0 ? 'thumbs_up' : 'thumbs_down'));
      const calls = [...votes.slice(0, cut), app.inject({ method: 'DELETE', url: `/api/comments/${target.id}`, cookies: author, headers: json }), ...votes.slice(cut)];
      const responses = await Promise.all(calls);
      const deleted = responses[cut];
      expect(deleted?.statusCode, deleted?.body).toBe(204);
      for (const response of responses.filter((_, index) => index !== cut)) {
        expect([200, 404], response.body).toContain(response.statusCode);
        if (response.statusCode === 200) statuses[200] += 1;
        else statuses[404] += 1;
      }
      expect(await votesOf(target.id)).toEqual([]);
    }
    const orphans = await app.database.db
      .selectFrom('comment_votes')
      .leftJoin('comments', 'comments.id', 'comment_votes.comment_id')
      .select('comment_votes.comment_id')
      .where('comments.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
    expect(statuses[200] + statuses[404]).toBe(3 * VOTERS);
    // Both sides of the race happened: votes before the delete (then cascaded) and after it.
    expect(statuses[200]).toBeGreaterThan(0);
    expect(statuses[404]).toBeGreaterThan(0);
  });
});

/** 0 → 'A', 25 → 'Z', 26 → 'AA': member names are letters only. */
function toLetters(index: number): string {
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : `${toLetters(Math.floor(index / 26) - 1)}${letter}`;
}
