import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commentCountsSchema, commentSchema, voteResultSchema, type Comment } from '../../../common/contract/comments.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { COMMENT_MAX_LENGTH } from '../../../common/limits.js';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import type { App } from '../../http/types.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { insertComment } from './repo.js';

/** The comment and vote calls of the HTTP API, on the database the run is configured for. */

const COMPONENT = 'agentic-triage';
const OTHER_COMPONENT = 'root-cause-analysis';
const CARD = 'em-console';

type Method = 'GET' | 'POST' | 'DELETE';

describe('comment and vote calls', () => {
  let testApp: TestApp;
  let app: App;
  let alice: SessionCookies;
  let bob: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    alice = await signInAs(app, 'Alice Martin');
    bob = await signInAs(app, 'Bob Okafor');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const call = (method: Method, url: string, cookies: SessionCookies | undefined, body?: unknown) => apiCall(app, method, url, cookies, body);

  const post = async (cookies: SessionCookies, componentId: string, content: string, kind?: string): Promise<Comment> => {
    const response = await call('POST', '/api/comments', cookies, { componentId, content, ...(kind === undefined ? {} : { kind }) });
    expect(response.statusCode, response.body).toBe(201);
    return commentSchema.parse(response.json());
  };
  const list = async (cookies: SessionCookies, componentId: string): Promise<Comment[]> => {
    const response = await call('GET', `/api/comments/${componentId}/with-votes`, cookies);
    expect(response.statusCode, response.body).toBe(200);
    return z.array(commentSchema).parse(response.json());
  };
  const vote = (cookies: SessionCookies, id: number | string, voteType: unknown) => call('POST', `/api/comments/${id}/vote`, cookies, { voteType });
  const errorCode = (body: unknown) => apiErrorSchema.parse(body).code;

  const votesOf = (commentId: number) =>
    app.database.db.selectFrom('comment_votes').select(['member_name', 'vote_type']).where('comment_id', '=', commentId).execute();
  const commentExists = async (commentId: number) =>
    (await app.database.db.selectFrom('comments').select('id').where('id', '=', commentId).executeTakeFirst()) !== undefined;

  describe('signed out', () => {
    it('answers 401 on every comment call and on the event stream, and changes nothing', async () => {
      const existing = await post(alice, COMPONENT, 'Kept while signed-out calls bounce');
      await vote(bob, existing.id, 'thumbs_up');
      const requests: [Method, string, unknown][] = [
        ['GET', '/api/comments/counts', undefined],
        ['GET', `/api/comments/${COMPONENT}/with-votes`, undefined],
        ['POST', '/api/comments', { componentId: COMPONENT, content: 'Anonymous drive-by' }],
        ['DELETE', `/api/comments/${existing.id}`, undefined],
        ['POST', `/api/comments/${existing.id}/vote`, { voteType: 'thumbs_down' }],
        ['GET', '/api/events', undefined],
      ];
      for (const cookies of [undefined, { biggy_session: 'forged-or-expired' }]) {
        for (const [method, url, body] of requests) {
          const response = await call(method, url, cookies, body);
          expect(response.statusCode, `${method} ${url}`).toBe(401);
          expect(errorCode(response.json()), `${method} ${url}`).toBe('UNAUTHENTICATED');
        }
      }
      expect(await commentExists(existing.id)).toBe(true);
      expect(await votesOf(existing.id)).toEqual([{ member_name: 'Bob Okafor', vote_type: 'thumbs_up' }]);
      const anonymous = await app.database.db.selectFrom('comments').select('id').where('content', '=', 'Anonymous drive-by').execute();
      expect(anonymous).toEqual([]);
    });
  });

  describe('GET /api/comments/{componentId}/with-votes', () => {
    it('answers 404 for a component that is not in the architecture, 400 for a malformed id', async () => {
      const unknown = await call('GET', '/api/comments/no-such-component/with-votes', alice);
      expect(unknown.statusCode).toBe(404);
      expect(errorCode(unknown.json())).toBe('UNKNOWN_COMPONENT');
      for (const malformed of ['Agentic_Triage', 'x'.repeat(65), '%20']) {
        const response = await call('GET', `/api/comments/${malformed}/with-votes`, alice);
        expect(response.statusCode, malformed).toBe(400);
      }
    });

    it('answers an empty list for a known component without comments', async () => {
      expect(await list(alice, 'human-initiated')).toEqual([]);
    });

    it('lists a component\'s comments newest first, each with its votes, and only that component\'s', async () => {
      const first = await post(alice, OTHER_COMPONENT, 'Hypotheses need the query that produced them');
      const second = await post(bob, OTHER_COMPONENT, 'Agents should stop after three rejected hypotheses', 'proposal');
      const third = await post(alice, OTHER_COMPONENT, 'Who owns the evidence retention?');
      await post(alice, CARD, 'Elsewhere: must not show up in the list');
      expect((await vote(bob, first.id, 'thumbs_up')).statusCode).toBe(200);
      expect((await vote(alice, first.id, 'thumbs_down')).statusCode).toBe(200);
      expect((await vote(alice, second.id, 'thumbs_up')).statusCode).toBe(200);

      const comments = await list(bob, OTHER_COMPONENT);
      expect(comments.map((comment) => comment.id)).toEqual([third.id, second.id, first.id]);
      const byId = new Map(comments.map((comment) => [comment.id, comment]));
      expect(byId.get(first.id)?.votes).toEqual([
        { memberName: 'Bob Okafor', voteType: 'thumbs_up' },
        { memberName: 'Alice Martin', voteType: 'thumbs_down' },
      ]);
      expect(byId.get(second.id)).toMatchObject({
        componentId: OTHER_COMPONENT,
        kind: 'proposal',
        memberName: 'Bob Okafor',
        content: 'Agents should stop after three rejected hypotheses',
        votes: [{ memberName: 'Alice Martin', voteType: 'thumbs_up' }],
      });
      expect(byId.get(third.id)?.votes).toEqual([]);
      const times = comments.map((comment) => Date.parse(comment.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    });
  });

  describe('POST /api/comments', () => {
    it('stores a trimmed comment and answers 201 with it, kind "comment" by default', async () => {
      const before = Date.now();
      const response = await call('POST', '/api/comments', alice, { componentId: COMPONENT, content: '  \n Severity should come from impact, not alert count.\t ' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const created = commentSchema.parse(response.json());
      expect(created).toMatchObject({
        componentId: COMPONENT,
        kind: 'comment',
        content: 'Severity should come from impact, not alert count.',
        memberName: 'Alice Martin',
        votes: [],
      });
      expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(created.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);
      const stored = await app.database.db.selectFrom('comments').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({ component_id: COMPONENT, kind: 'comment', content: created.content, member_name: 'Alice Martin' });
      expect(created).toMatchObject({ mine: true, permissions: { canResolve: true, canReopen: true, canDelete: true } });
      // Everyone else sees the same comment, with what they may do with it.
      expect((await list(bob, COMPONENT))[0]).toEqual({ ...created, mine: false, permissions: { canResolve: false, canReopen: true, canDelete: false } });
      expect((await list(alice, COMPONENT))[0]).toEqual(created);
    });

    it('accepts a change proposal and a comment on a card', async () => {
      expect((await post(bob, COMPONENT, 'Rename "assignment group" to "resolver group"', 'proposal')).kind).toBe('proposal');
      expect((await post(bob, CARD, 'Keyboard queues are a must for the night shift', 'comment')).kind).toBe('comment');
    });

    it('accepts exactly 5,000 characters, counted after trimming', async () => {
      const longest = 'x'.repeat(COMMENT_MAX_LENGTH);
      expect((await post(alice, COMPONENT, longest)).content).toBe(longest);
      expect((await post(alice, COMPONENT, `   ${longest}\n\n`)).content).toBe(longest);
    });

    it('refuses empty, whitespace-only, too long, badly typed and over-specified comments with 400', async () => {
      const countBefore = await app.database.db.selectFrom('comments').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      const bodies: unknown[] = [
        { componentId: COMPONENT, content: '' },
        { componentId: COMPONENT, content: '   \n\t  ' },
        { componentId: COMPONENT, content: 'x'.repeat(COMMENT_MAX_LENGTH + 1) },
        { componentId: COMPONENT },
        { content: 'No component' },
        { componentId: COMPONENT, content: 42 },
        { componentId: COMPONENT, content: 'Bad kind', kind: 'rant' },
        { componentId: COMPONENT, content: 'Unknown field', extra: true },
        { componentId: COMPONENT, content: 'Spoofed author', memberName: 'Bob Okafor' },
        { componentId: 'Not Kebab', content: 'Malformed component id' },
        [],
        'just text',
      ];
      for (const body of bodies) {
        const response = await call('POST', '/api/comments', alice, body);
        expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(errorCode(response.json())).toMatch(/^(VALIDATION_FAILED|BAD_REQUEST)$/);
      }
      const malformedJson = await app.inject({ method: 'POST', url: '/api/comments', cookies: alice, headers: { 'content-type': 'application/json' }, payload: '{"componentId":' });
      expect(malformedJson.statusCode).toBe(400);
      const countAfter = await app.database.db.selectFrom('comments').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      expect(Number(countAfter.n)).toBe(Number(countBefore.n));
    });

    it('answers 404 for a well-formed component id that is not in the architecture', async () => {
      const response = await call('POST', '/api/comments', alice, { componentId: 'no-such-component', content: 'Lost comment' });
      expect(response.statusCode).toBe(404);
      expect(errorCode(response.json())).toBe('UNKNOWN_COMPONENT');
      expect(await app.database.db.selectFrom('comments').select('id').where('content', '=', 'Lost comment').execute()).toEqual([]);
    });

    it('refuses a form post (no JSON content type) as cross-site', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/comments',
        cookies: alice,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `componentId=${COMPONENT}&content=forged`,
      });
      expect(response.statusCode).toBe(403);
    });
  });

  describe('DELETE /api/comments/{id}', () => {
    it('lets the author delete their comment (204), and its votes go with it', async () => {
      const doomed = await post(alice, COMPONENT, 'Delete me');
      const neighbour = await post(alice, COMPONENT, 'Keep me');
      await vote(bob, doomed.id, 'thumbs_up');
      await vote(alice, doomed.id, 'thumbs_down');
      await vote(bob, neighbour.id, 'thumbs_down');
      expect(await votesOf(doomed.id)).toHaveLength(2);

      const response = await call('DELETE', `/api/comments/${doomed.id}`, alice);
      expect(response.statusCode, response.body).toBe(204);
      expect(response.body).toBe('');
      expect(await commentExists(doomed.id)).toBe(false);
      expect(await votesOf(doomed.id)).toEqual([]);
      expect(await votesOf(neighbour.id)).toEqual([{ member_name: 'Bob Okafor', vote_type: 'thumbs_down' }]);
      const ids = (await list(bob, COMPONENT)).map((comment) => comment.id);
      expect(ids).not.toContain(doomed.id);
      expect(ids).toContain(neighbour.id);

      const again = await call('DELETE', `/api/comments/${doomed.id}`, alice);
      expect(again.statusCode).toBe(404);
    });

    it('answers 403 to another member and keeps the comment and its votes', async () => {
      const owned = await post(alice, COMPONENT, 'Only Alice may delete this');
      await vote(bob, owned.id, 'thumbs_up');
      const response = await call('DELETE', `/api/comments/${owned.id}`, bob);
      expect(response.statusCode).toBe(403);
      expect(errorCode(response.json())).toBe('NOT_AUTHOR');
      expect(await commentExists(owned.id)).toBe(true);
      expect(await votesOf(owned.id)).toHaveLength(1);
    });

    it('answers 404 for a comment that does not exist', async () => {
      const response = await call('DELETE', '/api/comments/2147483647', alice);
      expect(response.statusCode).toBe(404);
      expect(errorCode(response.json())).toBe('COMMENT_NOT_FOUND');
    });

    it('answers 400 for an id that is not a positive 32-bit integer', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '2147483648', '99999999999999999999999']) {
        const response = await call('DELETE', `/api/comments/${id}`, alice);
        expect(response.statusCode, id).toBe(400);
        expect(errorCode(response.json()), id).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('POST /api/comments/{id}/vote', () => {
    it('records a vote; the same vote again removes it', async () => {
      const target = await post(alice, COMPONENT, 'Vote on me twice');
      const first = await vote(bob, target.id, 'thumbs_up');
      expect(first.statusCode, first.body).toBe(200);
      expect(voteResultSchema.parse(first.json())).toEqual({ commentId: target.id, componentId: COMPONENT, myVote: 'thumbs_up' });
      expect(await votesOf(target.id)).toEqual([{ member_name: 'Bob Okafor', vote_type: 'thumbs_up' }]);
      expect((await list(alice, COMPONENT)).find((comment) => comment.id === target.id)?.votes).toEqual([
        { memberName: 'Bob Okafor', voteType: 'thumbs_up' },
      ]);

      const second = await vote(bob, target.id, 'thumbs_up');
      expect(second.statusCode).toBe(200);
      expect(voteResultSchema.parse(second.json())).toEqual({ commentId: target.id, componentId: COMPONENT, myVote: null });
      expect(await votesOf(target.id)).toEqual([]);
    });

    it('replaces a vote with the other one, keeping one vote per member', async () => {
      const target = await post(alice, COMPONENT, 'Change your mind');
      expect(voteResultSchema.parse((await vote(bob, target.id, 'thumbs_up')).json()).myVote).toBe('thumbs_up');
      expect(voteResultSchema.parse((await vote(bob, target.id, 'thumbs_down')).json()).myVote).toBe('thumbs_down');
      expect(await votesOf(target.id)).toEqual([{ member_name: 'Bob Okafor', vote_type: 'thumbs_down' }]);
      expect(voteResultSchema.parse((await vote(alice, target.id, 'thumbs_up')).json()).myVote).toBe('thumbs_up');
      const votes = await votesOf(target.id);
      expect(votes).toHaveLength(2);
      expect(votes).toEqual(
        expect.arrayContaining([
          { member_name: 'Bob Okafor', vote_type: 'thumbs_down' },
          { member_name: 'Alice Martin', vote_type: 'thumbs_up' },
        ]),
      );
    });

    it('answers 400 to a bad vote type or body, leaving the vote as it was', async () => {
      const target = await post(alice, COMPONENT, 'Bad votes bounce');
      await vote(bob, target.id, 'thumbs_up');
      for (const voteType of ['thumbs_sideways', 'THUMBS_UP', '', null, 1, undefined]) {
        const response = await vote(bob, target.id, voteType);
        expect(response.statusCode, String(voteType)).toBe(400);
        expect(errorCode(response.json())).toBe('VALIDATION_FAILED');
      }
      const extra = await call('POST', `/api/comments/${target.id}/vote`, bob, { voteType: 'thumbs_down', memberName: 'Alice Martin' });
      expect(extra.statusCode).toBe(400);
      const noBody = await call('POST', `/api/comments/${target.id}/vote`, bob);
      expect(noBody.statusCode).toBe(400);
      expect(await votesOf(target.id)).toEqual([{ member_name: 'Bob Okafor', vote_type: 'thumbs_up' }]);
    });

    it('answers 404 for a missing comment and 400 for a malformed id', async () => {
      const missing = await vote(bob, 2147483647, 'thumbs_up');
      expect(missing.statusCode).toBe(404);
      expect(errorCode(missing.json())).toBe('COMMENT_NOT_FOUND');
      for (const id of ['abc', '0', '-1', '2147483648']) {
        expect((await vote(bob, id, 'thumbs_up')).statusCode, id).toBe(400);
      }
      expect(await app.database.db.selectFrom('comment_votes').select('comment_id').where('comment_id', '=', 2147483647).execute()).toEqual([]);
    });
  });

  describe('reads after writes', () => {
    const counts = async (cookies: SessionCookies) => {
      const response = await call('GET', '/api/comments/counts', cookies);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      return commentCountsSchema.parse(response.json()).components;
    };

    // The two reads are answered from memory between changes (ADR 0011): every change must show
    // in the very next read, whoever makes it and whoever reads.
    it('shows every post, vote and delete in the next read of both members, lists and counts alike', async () => {
      const component = 'remediation-plan';
      const countOf = async (cookies: SessionCookies) => (await counts(cookies))[component]?.open ?? 0;
      const start = await countOf(bob);
      expect(await list(bob, component)).toEqual(await list(alice, component));

      const posted = await post(alice, component, 'Runbooks need an owner and a review date');
      expect((await list(bob, component)).map((comment) => comment.id)).toContain(posted.id);
      expect(await countOf(bob)).toBe(start + 1);

      expect((await vote(bob, posted.id, 'thumbs_down')).statusCode).toBe(200);
      const afterVote = (await list(alice, component)).find((comment) => comment.id === posted.id);
      expect(afterVote?.votes).toEqual([{ memberName: 'Bob Okafor', voteType: 'thumbs_down' }]);

      expect((await vote(bob, posted.id, 'thumbs_up')).statusCode).toBe(200);
      expect((await list(bob, component)).find((comment) => comment.id === posted.id)?.votes).toEqual([{ memberName: 'Bob Okafor', voteType: 'thumbs_up' }]);
      expect((await vote(bob, posted.id, 'thumbs_up')).statusCode).toBe(200);
      expect((await list(alice, component)).find((comment) => comment.id === posted.id)?.votes).toEqual([]);

      expect((await call('DELETE', `/api/comments/${posted.id}`, alice)).statusCode).toBe(204);
      expect((await list(bob, component)).map((comment) => comment.id)).not.toContain(posted.id);
      expect(await countOf(alice)).toBe(start);
    });
  });

  describe('GET /api/comments/counts', () => {
    it('answers the comment count of every component in one request', async () => {
      const before = await call('GET', '/api/comments/counts', alice);
      expect(before.statusCode).toBe(200);
      const countsBefore = commentCountsSchema.parse(before.json()).components;

      await post(alice, 'observability-signals', 'Counts one');
      await post(bob, 'observability-signals', 'Counts two');
      await post(bob, 'unified-analytics', 'Counts three', 'proposal');
      const deleted = await post(alice, 'unified-analytics', 'Counts gone');
      expect((await call('DELETE', `/api/comments/${deleted.id}`, alice)).statusCode).toBe(204);

      const after = await call('GET', '/api/comments/counts', bob);
      expect(after.statusCode).toBe(200);
      const counts = commentCountsSchema.parse(after.json()).components;
      expect(counts['observability-signals']?.open).toBe((countsBefore['observability-signals']?.open ?? 0) + 2);
      expect(counts['unified-analytics']?.open).toBe((countsBefore['unified-analytics']?.open ?? 0) + 1);

      // The same numbers as the table, for every component at once.
      const rows = await app.database.db.selectFrom('comments').select('component_id').execute();
      const expected: Record<string, { open: number; resolved: number; decision: null }> = {};
      for (const row of rows) expected[row.component_id] = { open: (expected[row.component_id]?.open ?? 0) + 1, resolved: 0, decision: null };
      expect(counts).toEqual(expected);
      expect(Object.keys(counts).length).toBeGreaterThanOrEqual(5);
    });

    it("keeps its answer through the self-test's comments on the scratch component, which it never counts", async () => {
      const { db } = app.database;
      const qa = await signInAs(app, 'Quinn Selftest');
      await db.updateTable('members').set({ is_qa: 1 }).where('full_name', '=', 'Quinn Selftest').execute();
      const countOf = async () => commentCountsSchema.parse((await call('GET', '/api/comments/counts', alice)).json()).components['agentic-triage']?.open ?? 0;
      const counted = await countOf();
      // A comment no event announces: the kept answer does not show it until a counted change.
      const alicesRow = await db.selectFrom('members').select(['id', 'full_name']).where('full_name', '=', 'Alice Martin').executeTakeFirstOrThrow();
      await insertComment(db, { componentId: 'agentic-triage', kind: 'comment', content: 'Written behind the cache', memberId: alicesRow.id, memberName: alicesRow.full_name });
      const scratch = await call('POST', '/api/comments', qa, { componentId: QA_TEST_COMPONENT_ID, content: 'A self-test comment' });
      expect(scratch.statusCode, scratch.body).toBe(201);
      expect(await countOf()).toBe(counted);
      await post(bob, 'agentic-triage', 'A counted comment');
      expect(await countOf()).toBe(counted + 2);
    });
  });
});
