import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commentRoutes } from '../../../common/api/comments.js';
import { IDEMPOTENCY_REPLAYED_HEADER } from '../../../common/api/idempotency.js';
import { buildPath } from '../../../common/api/route.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import type { App } from '../../http/types.js';
import { buildApp } from '../../app.js';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app.js';
import { createTestDatabase } from '../../test/test-database.js';
import { KeyBudget } from './hooks.js';
import { signInAs, type SessionCookies } from '../../test/sign-in.js';

const COMPONENT = 'agentic-triage';

describe('Idempotency-Key on writes', () => {
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

  const send = (method: 'POST' | 'DELETE', url: string, cookies: SessionCookies, key: string | undefined, body?: unknown) =>
    app.inject({
      method,
      url,
      cookies,
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const commentsWith = async (content: string) =>
    (await app.database.db.selectFrom('comments').select('id').where('content', '=', content).execute()).length;
  const voteOf = async (commentId: number, memberName: string) =>
    (await app.database.db.selectFrom('comment_votes').select('vote_type').where('comment_id', '=', commentId).where('member_name', '=', memberName).executeTakeFirst())?.vote_type;

  it('answers a retried comment with the first answer and stores it once', async () => {
    const body = { componentId: COMPONENT, content: 'Posted once however often the answer is lost' };
    const first = await send('POST', commentRoutes.create.path, alice, 'comment-key-0001', body);
    const retry = await send('POST', commentRoutes.create.path, alice, 'comment-key-0001', body);
    expect(first.statusCode, first.body).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBe('true');
    expect(first.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBeUndefined();
    expect(await commentsWith(body.content)).toBe(1);
  });

  it('posts a comment once when its retry races the first request, with one log entry', async () => {
    const body = { componentId: COMPONENT, content: 'Sent twice at once, with one key' };
    const answers = await Promise.all([0, 1, 2].map(() => send('POST', commentRoutes.create.path, alice, 'racing-key-0001', body)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    // Each is the first answer (201, replayed or not) or "the first is still running" (409); never a second comment.
    expect(statuses.every((status) => status === 201 || status === 409), statuses.join()).toBe(true);
    expect(statuses).toContain(201);
    expect(await commentsWith(body.content)).toBe(1);
    const created = answers.find((answer) => answer.statusCode === 201 && answer.headers[IDEMPOTENCY_REPLAYED_HEADER] === undefined);
    const commentId = created?.json<{ id: number }>().id;
    const entries = await app.database.db.selectFrom('activity_log').select('details').where('activity_type', '=', 'comment_added').execute();
    expect(entries.filter((entry) => entry.details === JSON.stringify({ componentId: COMPONENT, commentId }))).toHaveLength(1);
    const retry = await send('POST', commentRoutes.create.path, alice, 'racing-key-0001', body);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(created?.json());
  });

  it('does not flip a vote back when the vote is retried', async () => {
    const created = await send('POST', commentRoutes.create.path, alice, undefined, { componentId: COMPONENT, content: 'A comment to vote on twice' });
    const commentId = (created.json<{ id: number }>()).id;
    const url = buildPath(commentRoutes.vote.path, { id: commentId });
    const first = await send('POST', url, bob, 'vote-key-00000001', { voteType: 'thumbs_up' });
    const retry = await send('POST', url, bob, 'vote-key-00000001', { voteType: 'thumbs_up' });
    expect(first.statusCode, first.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await voteOf(commentId, 'Bob Okafor')).toBe('thumbs_up');
    // A new key is a new click: it toggles as before.
    await send('POST', url, bob, 'vote-key-00000002', { voteType: 'thumbs_up' });
    expect(await voteOf(commentId, 'Bob Okafor')).toBeUndefined();
  });

  it('answers a retried delete with the first answer, not a 404', async () => {
    const created = await send('POST', commentRoutes.create.path, alice, undefined, { componentId: COMPONENT, content: 'Deleted once' });
    const url = buildPath(commentRoutes.remove.path, { id: created.json<{ id: number }>().id });
    const first = await send('DELETE', url, alice, 'delete-key-0001');
    const retry = await send('DELETE', url, alice, 'delete-key-0001');
    expect(first.statusCode, first.body).toBeLessThan(300);
    expect(retry.statusCode).toBe(first.statusCode);
  });

  it('refuses a key used before for a different request, and changes nothing', async () => {
    await send('POST', commentRoutes.create.path, alice, 'reused-key-0001', { componentId: COMPONENT, content: 'The first request of this key' });
    const other = await send('POST', commentRoutes.create.path, alice, 'reused-key-0001', { componentId: COMPONENT, content: 'Another request, same key' });
    expect(other.statusCode).toBe(422);
    expect(apiErrorSchema.parse(other.json()).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await commentsWith('Another request, same key')).toBe(0);
  });

  it("keeps each member's keys apart", async () => {
    const body = { componentId: COMPONENT, content: 'Same words, same key, two people' };
    expect((await send('POST', commentRoutes.create.path, alice, 'shared-key-0001', body)).statusCode).toBe(201);
    const fromBob = await send('POST', commentRoutes.create.path, bob, 'shared-key-0001', body);
    expect(fromBob.statusCode).toBe(201);
    expect(fromBob.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBeUndefined();
    expect(await commentsWith(body.content)).toBe(2);
  });

  it('refuses a malformed key with 400', async () => {
    for (const key of ['short', 'has spaces in it', 'x'.repeat(129), 'ümlaut-key-0001']) {
      const response = await send('POST', commentRoutes.create.path, alice, key, { componentId: COMPONENT, content: `Refused key ${key.length}` });
      expect(response.statusCode, key).toBe(400);
    }
    expect(await commentsWith('Refused key 5')).toBe(0);
  });

  it('keeps neither the request nor the answer readable, and only answers of writes that were done', async () => {
    const content = 'A comment whose words must not sit readable in the key table';
    const created = await send('POST', commentRoutes.create.path, alice, 'sealed-key-0001', { componentId: COMPONENT, content });
    expect(created.statusCode).toBe(201);
    const row = await app.database.db.selectFrom('idempotency_keys').selectAll().where('idempotency_key', '=', 'sealed-key-0001').executeTakeFirstOrThrow();
    expect(row.response_body).not.toContain('must not sit readable');
    expect(row.response_body).not.toContain(String(created.json<{ id: number }>().id) + ',');
    // A refusal changed nothing: its key is released, so failing calls cannot fill the table.
    const missing = await send('DELETE', buildPath(commentRoutes.remove.path, { id: 987_654 }), alice, 'refused-key-0001');
    expect(missing.statusCode).toBe(404);
    const refused = await app.database.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', '=', 'refused-key-0001').executeTakeFirst();
    expect(refused).toBeUndefined();
  });

  it('claims no key on the public sign-in calls', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      cookies: alice,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'login-key-00001' },
      payload: JSON.stringify({ password: 'team-password-for-tests', name: 'Alice Martin', pin: '0000' }),
    });
    expect(login.statusCode).toBeGreaterThanOrEqual(400);
    const row = await app.database.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', '=', 'login-key-00001').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('does not keep an answer that says "later": a retry after a 429 runs again', async () => {
    const limited = await createTestApp({ commentLimitPerMinute: 1 });
    try {
      const carol = await signInAs(limited.app, 'Carol Dweck');
      const post = (key: string, content: string) =>
        limited.app.inject({
          method: 'POST',
          url: commentRoutes.create.path,
          cookies: carol,
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          payload: JSON.stringify({ componentId: COMPONENT, content }),
        });
      expect((await post('limit-key-0001', 'Within the limit')).statusCode).toBe(201);
      expect((await post('limit-key-0002', 'Over the limit')).statusCode).toBe(429);
      const row = await limited.app.database.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', '=', 'limit-key-0002').executeTakeFirst();
      expect(row).toBeUndefined();
    } finally {
      await limited.close();
    }
  });

  it("stores at most a budget of one member's keys, still answering writes past it and replaying the stored ones", async () => {
    const database = await createTestDatabase();
    const budgeted = await buildApp(testConfig(database), { collectProcessMetrics: false, idempotencyKeysPerMember: 3 });
    try {
      const dora = await signInAs(budgeted, 'Dora Budget');
      const created = await budgeted.inject({ method: 'POST', url: commentRoutes.create.path, cookies: dora, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ componentId: COMPONENT, content: 'Voted on many times' }) });
      const url = buildPath(commentRoutes.vote.path, { id: created.json<{ id: number }>().id });
      const vote = (key: string) =>
        budgeted.inject({ method: 'POST', url, cookies: dora, headers: { 'content-type': 'application/json', 'idempotency-key': key }, payload: JSON.stringify({ voteType: 'thumbs_up' }) });
      const keys = ['budget-key-0001', 'budget-key-0002', 'budget-key-0003', 'budget-key-0004', 'budget-key-0005'];
      const answers = [];
      for (const key of keys) answers.push(await vote(key));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.map((answer) => answer.json<{ myVote: string | null }>().myVote)).toEqual(['thumbs_up', null, 'thumbs_up', null, 'thumbs_up']);
      const stored = await budgeted.database.db.selectFrom('idempotency_keys').select('idempotency_key').orderBy('idempotency_key').execute();
      expect(stored.map((row) => row.idempotency_key)).toEqual(keys.slice(0, 3));
      // A stored key still replays; one past the budget was never kept, so its retry runs again.
      const replayed = await vote('budget-key-0002');
      expect(replayed.headers[IDEMPOTENCY_REPLAYED_HEADER]).toBe('true');
      expect(replayed.json<{ myVote: string | null }>().myVote).toBeNull();
      expect((await vote('budget-key-0004')).headers[IDEMPOTENCY_REPLAYED_HEADER]).toBeUndefined();
    } finally {
      await budgeted.close();
      await database.drop();
    }
  });
});

describe('KeyBudget', () => {
  it('grants each member its own count per window, and a new count when the window ends', () => {
    const budget = new KeyBudget(2, 1_000);
    expect([budget.take(1, 0), budget.take(1, 10), budget.take(1, 20)]).toEqual([true, true, false]);
    expect(budget.take(2, 30)).toBe(true);
    expect(budget.take(1, 999)).toBe(false);
    expect(budget.take(1, 1_000)).toBe(true);
  });
});
