import http from 'node:http';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { commentCountsSchema, commentSchema } from '../../../common/contract/comments.js';
import { buildApp } from '../../app.js';
import { hashToken } from '../auth/secrets.js';
import type { App } from '../../http/types.js';
import { baseUrlOf, closeOpenStreams, openStream } from '../../test/event-stream.js';
import { signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app.js';
import { createTestDatabase } from '../../test/test-database.js';

/**
 * GET /api/events against a real listening server: Server-Sent Events frames as a browser's
 * EventSource reads them, for comment and vote changes, across instances on PostgreSQL.
 */

const COMPONENT = 'responder-engagement';
const onPostgres = process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '';

const json = { 'content-type': 'application/json' };

async function postComment(app: App, cookies: SessionCookies, content: string) {
  const response = await app.inject({ method: 'POST', url: '/api/comments', cookies, headers: json, payload: JSON.stringify({ componentId: COMPONENT, content }) });
  expect(response.statusCode, response.body).toBe(201);
  return commentSchema.parse(response.json());
}

afterEach(() => {
  closeOpenStreams();
  vi.useRealTimers();
});

describe('GET /api/events', () => {
  let testApp: TestApp;
  let app: App;
  let baseUrl: string;
  let alice: SessionCookies;
  let bob: SessionCookies;

  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = baseUrlOf(app);
    alice = await signInAs(app, 'Alice Martin');
    bob = await signInAs(app, 'Bob Okafor');
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('answers 401 to a visitor without a valid session, without opening a stream', async () => {
    const attempts: SessionCookies[] = [{}, { biggy_session: 'forged' }];
    for (const cookies of attempts) {
      const response = await app.inject({ method: 'GET', url: '/api/events', cookies });
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http.get(`${baseUrl}/api/events`, { agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(401);
  });

  it('opens an event stream with the security headers, a retry delay and no caching', async () => {
    const stream = await openStream(baseUrl, alice);
    const { headers } = stream.response;
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['x-request-id']).toMatch(/\S/);
    expect(headers['x-accel-buffering']).toBe('no');
    expect(stream.retry).toBeGreaterThan(0);
    expect(stream.unexpected).toEqual([]);
  });

  it('sends comment.created, vote.changed and comment.deleted with the component and comment, to every member', async () => {
    const mine = await openStream(baseUrl, alice);
    const theirs = await openStream(baseUrl, bob);
    const comment = await postComment(app, alice, 'Page the secondary after 10 minutes, not 15');
    const about = { componentId: COMPONENT, commentId: comment.id };
    for (const stream of [mine, theirs]) {
      expect((await stream.nextEvent((event) => event.type === 'comment.created' && event.commentId === comment.id)).event).toEqual({ type: 'comment.created', ...about });
    }

    const voted = await app.inject({ method: 'POST', url: `/api/comments/${comment.id}/vote`, cookies: bob, headers: json, payload: JSON.stringify({ voteType: 'thumbs_up' }) });
    expect(voted.statusCode).toBe(200);
    for (const stream of [mine, theirs]) {
      expect((await stream.nextEvent((event) => event.type === 'vote.changed')).event).toEqual({ type: 'vote.changed', ...about });
    }

    const deleted = await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, cookies: alice, headers: json });
    expect(deleted.statusCode).toBe(204);
    for (const stream of [mine, theirs]) {
      expect((await stream.nextEvent((event) => event.type === 'comment.deleted')).event).toEqual({ type: 'comment.deleted', ...about });
      expect(stream.events.map((received) => received.event.type)).toEqual(['comment.created', 'vote.changed', 'comment.deleted']);
      expect(stream.unexpected).toEqual([]);
    }
  });

  it('sends nothing for a refused call', async () => {
    const stream = await openStream(baseUrl, alice);
    const comment = await postComment(app, alice, 'Bob may not delete this');
    await stream.nextEvent((event) => 'commentId' in event && event.commentId === comment.id);
    const refused = await app.inject({ method: 'DELETE', url: `/api/comments/${comment.id}`, cookies: bob, headers: json });
    expect(refused.statusCode).toBe(403);
    const badVote = await app.inject({ method: 'POST', url: `/api/comments/${comment.id}/vote`, cookies: bob, headers: json, payload: JSON.stringify({ voteType: 'meh' }) });
    expect(badVote.statusCode).toBe(400);
    // A marker event after the refused calls: everything before it has arrived.
    const marker = await postComment(app, bob, 'Marker');
    await stream.nextEvent((event) => 'commentId' in event && event.commentId === marker.id);
    expect(stream.events.map((received) => received.event)).toEqual([
      { type: 'comment.created', componentId: COMPONENT, commentId: comment.id },
      { type: 'comment.created', componentId: COMPONENT, commentId: marker.id },
    ]);
  });

  it('ends a stream whose session ends and stays up when an event follows at once', async () => {
    // An admin demoting or resetting another admin ends that member's sessions and publishes an
    // admin event in the same breath: the ended stream must not be written to.
    const carol = await signInAs(app, 'Carol Stream');
    const stream = await openStream(baseUrl, carol);
    const token = carol.biggy_session;
    if (token === undefined) throw new Error('no session cookie');
    const ended = app.events.endSessions({ tokenHash: hashToken(token) });
    await app.events.publish({ type: 'comment.created', componentId: COMPONENT, commentId: 1 });
    await ended;
    await stream.waitFor('the stream to end', () => stream.ended);
    // Written after the end, the event would surface as an uncaught ERR_STREAM_WRITE_AFTER_END
    // on the next turn of the loop and stop the process; the app still answers after it.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });

  it('beats every 25 s while the session lives', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const carol = await signInAs(app, 'Carol Nguyen');
    const stream = await openStream(baseUrl, carol);
    vi.advanceTimersByTime(24_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stream.comments).not.toContain('heartbeat');
    vi.advanceTimersByTime(1_000);
    await stream.waitFor('a heartbeat', () => stream.comments.includes('heartbeat'));
    expect(stream.ended).toBe(false);
    vi.advanceTimersByTime(25_000);
    await stream.waitFor('a second heartbeat', () => stream.comments.filter((comment) => comment === 'heartbeat').length === 2);
    expect(stream.ended).toBe(false);
  });

  it('reports the in-process delivery time of an event', async () => {
    const stream = await openStream(baseUrl, bob);
    const started = performance.now();
    const comment = await postComment(app, alice, 'How fast is local delivery?');
    const received = await stream.nextEvent((event) => 'commentId' in event && event.commentId === comment.id);
    const latencyMs = received.at - started;
    console.info(`[events] ${testApp.database.dialect}: POST to SSE frame on the same instance in ${latencyMs.toFixed(1)} ms`);
    expect(latencyMs).toBeLessThan(1000);
  });
});

describe('closing the app', () => {
  it('ends open event streams promptly instead of waiting for them', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(testConfig(database), { collectProcessMetrics: false });
    let closed = false;
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const cookies = await signInAs(app, 'Dana Closer');
      const streams = await Promise.all([openStream(baseUrlOf(app), cookies), openStream(baseUrlOf(app), cookies)]);
      const started = performance.now();
      await app.close();
      closed = true;
      const closeMs = performance.now() - started;
      await Promise.all(streams.map((stream) => stream.waitFor('the end of the stream', () => stream.ended, 1000)));
      expect(closeMs).toBeLessThan(1000);
    } finally {
      if (!closed) await app.close();
      await database.drop();
    }
  });
});

describe.skipIf(!onPostgres)('across instances (PostgreSQL LISTEN/NOTIFY)', () => {
  it('carries a comment posted through instance A to an event stream on instance B within 1 s', async () => {
    const database = await createTestDatabase();
    const a = await buildApp(testConfig(database), { collectProcessMetrics: false });
    const b = await buildApp(testConfig(database), { collectProcessMetrics: false });
    try {
      await b.listen({ port: 0, host: '127.0.0.1' });
      await a.listen({ port: 0, host: '127.0.0.1' });
      // One database: a session made through A is valid on B.
      const cookies = await signInAs(a, 'Erin Across');
      const onB = await openStream(baseUrlOf(b), cookies);
      const onA = await openStream(baseUrlOf(a), cookies);

      // B answers its reads from memory between events (ADR 0011): warm it, so the check below
      // shows that A's changes reach B's cached answers, not only its event streams.
      const listOn = async (instance: App) => {
        const response = await instance.inject({ method: 'GET', url: `/api/comments/${COMPONENT}/with-votes`, cookies });
        expect(response.statusCode).toBe(200);
        return z.array(commentSchema).parse(response.json());
      };
      const countOn = async (instance: App) =>
        commentCountsSchema.parse((await instance.inject({ method: 'GET', url: '/api/comments/counts', cookies })).json()).components[COMPONENT]?.open ?? 0;
      await listOn(b);
      const countBefore = await countOn(b);

      const latencies: number[] = [];
      const ids: number[] = [];
      for (let sample = 0; sample < 5; sample += 1) {
        const started = performance.now();
        const comment = await postComment(a, cookies, `Posted through A, sample ${sample}`);
        const received = await onB.nextEvent((event) => event.type === 'comment.created' && event.commentId === comment.id, 1000);
        latencies.push(received.at - started);
        ids.push(comment.id);
      }
      console.info(`[events] postgres: POST on A to SSE frame on B in ${latencies.map((ms) => ms.toFixed(1)).join(', ')} ms`);
      for (const latency of latencies) expect(latency).toBeLessThan(1000);

      // Each instance delivers each event once: B through LISTEN, and A through LISTEN too, not twice.
      await onA.nextEvent((event) => 'commentId' in event && event.commentId === ids[ids.length - 1], 1000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const expected = ids.map((commentId) => ({ type: 'comment.created', componentId: COMPONENT, commentId }));
      expect(onB.events.map((received) => received.event)).toEqual(expected);
      expect(onA.events.map((received) => received.event)).toEqual(expected);
      expect((await listOn(b)).map((comment) => comment.id)).toEqual([...ids].reverse());
      expect(await countOn(b)).toBe(countBefore + ids.length);

      // And the other way round, for a vote through B.
      const lastId = ids[ids.length - 1] ?? 0;
      const voted = await b.inject({ method: 'POST', url: `/api/comments/${lastId}/vote`, cookies, headers: json, payload: JSON.stringify({ voteType: 'thumbs_down' }) });
      expect(voted.statusCode).toBe(200);
      await onA.nextEvent((event) => event.type === 'vote.changed' && event.commentId === lastId, 1000);
      expect((await listOn(a)).find((comment) => comment.id === lastId)?.votes).toEqual([{ memberName: 'Erin Across', voteType: 'thumbs_down' }]);
    } finally {
      await b.close();
      await a.close();
      await database.drop();
    }
  });
});
