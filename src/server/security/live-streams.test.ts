import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../http/types.js';
import { MAX_STREAMS_PER_MEMBER } from '../modules/live-events/routes.js';
import { resetMemberPin } from '../modules/members/service.js';
import { baseUrlOf, closeOpenStreams, openStream, StreamRefused, type SseStream } from '../test/event-stream.js';
import { signInAs, type SessionCookies } from '../test/sign-in.js';
import { createTestApp, testConfig, type TestApp } from '../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { buildApp } from '../app.js';
import { SESSION_CACHE_TTL_MS } from '../modules/auth/session-cache.js';

/**
 * A live-event stream lives no longer than its session: logout, 'Use Different Account', a PIN
 * reset and expiry end it at once (across instances on PostgreSQL, through the event bus); one
 * member cannot hold many streams open.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

afterEach(() => {
  closeOpenStreams();
});

describe('live streams and sessions', () => {
  let testApp: TestApp;
  let app: App;
  let baseUrl: string;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = baseUrlOf(app);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = (url: string, cookies: SessionCookies) => app.inject({ method: 'POST', url, headers: JSON_HEADERS, cookies });

  it('ends the stream within 1 s of logout, and only that session’s streams', async () => {
    const alice = await signInAs(app, 'Alice Logout');
    const aliceElsewhere = await signInAs(app, 'Alice Logout');
    const mine = await openStream(baseUrl, alice);
    const myOtherBrowser = await openStream(baseUrl, aliceElsewhere);
    expect((await post('/api/logout', alice)).statusCode).toBe(200);
    await mine.waitFor('the end of the stream', () => mine.ended, 1000);
    expect(myOtherBrowser.ended).toBe(false);
  });

  it("ends the stream within 1 s of 'Use Different Account'", async () => {
    const bob = await signInAs(app, 'Bob Clear');
    const stream = await openStream(baseUrl, bob);
    expect((await post('/api/clear-session', bob)).statusCode).toBe(200);
    await stream.waitFor('the end of the stream', () => stream.ended, 1000);
  });

  it('ends every stream of a member within 1 s of a PIN reset', async () => {
    const carol = await signInAs(app, 'Carol Reset');
    const carolAgain = await signInAs(app, 'Carol Reset');
    const dave = await signInAs(app, 'Dave Bystander');
    const streams = await Promise.all([openStream(baseUrl, carol), openStream(baseUrl, carolAgain)]);
    const bystander = await openStream(baseUrl, dave);
    await resetMemberPin(app.database.db, 'Carol Reset', 'test', { publicUrl: 'http://review.test', notifyEnded: (notice) => app.events.endSessions(notice) });
    await Promise.all(streams.map((stream) => stream.waitFor('the end of the stream', () => stream.ended, 1000)));
    expect(bystander.ended).toBe(false);
  });

  it('refuses more than 5 open streams per member with 429, and accepts another once one closes', async () => {
    const erin = await signInAs(app, 'Erin Many');
    const streams: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_MEMBER; i += 1) streams.push(await openStream(baseUrl, erin));
    await expect(openStream(baseUrl, erin)).rejects.toSatisfy((error) => error instanceof StreamRefused && error.status === 429);
    streams[0]?.close();
    await streams[0]?.waitFor('the end of the stream', () => streams[0]?.ended === true);
    // The server notices the closed connection asynchronously: poll until it accepts again.
    for (;;) {
      try {
        await openStream(baseUrl, erin);
        break;
      } catch (error) {
        if (!(error instanceof StreamRefused)) throw error;
      }
    }
  });

  it('answers HEAD at once, without opening a stream', async () => {
    const frank = await signInAs(app, 'Frank Head');
    const cookie = Object.entries(frank).map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request(`${baseUrl}/api/events`, { method: 'HEAD', headers: { cookie }, agent: false }, resolve);
      request.on('error', reject);
      request.end();
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    await new Promise<void>((resolve) => {
      answer.on('end', resolve);
      answer.resume();
    });
    const signedOut = await app.inject({ method: 'HEAD', url: '/api/events' });
    expect(signedOut.statusCode).toBe(401);
  });
});

describe('a session that expires', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    // Sessions that go idle after 1.5 s: the stream must end when its session does, without waiting for a heartbeat.
    testApp = await createTestApp({ session: { idleMs: 1_500, absoluteMs: 3_600_000, cacheMs: SESSION_CACHE_TTL_MS } });
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('ends its stream when the session expires', async () => {
    const grace = await signInAs(testApp.app, 'Grace Idle');
    const stream = await openStream(baseUrlOf(testApp.app), grace);
    await stream.waitFor('the end of the stream', () => stream.ended, 5_000);
  });
});

const onPostgres = process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '';

describe.skipIf(!onPostgres)('across instances on PostgreSQL', () => {
  let database: TestDatabase;
  let instanceA: App;
  let instanceB: App;
  beforeAll(async () => {
    database = await createTestDatabase();
    instanceA = await buildApp(testConfig(database), { collectProcessMetrics: false });
    instanceB = await buildApp(testConfig(database), { collectProcessMetrics: false });
    await instanceB.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await instanceA.close();
    await instanceB.close();
    await database.drop();
  });

  it('ends a stream held by instance B within 1 s of a logout through instance A', async () => {
    const helen = await signInAs(instanceA, 'Helen Across');
    const stream = await openStream(baseUrlOf(instanceB), helen);
    const logout = await instanceA.inject({ method: 'POST', url: '/api/logout', headers: JSON_HEADERS, cookies: helen });
    expect(logout.statusCode).toBe(200);
    await stream.waitFor('the end of the stream', () => stream.ended, 1000);
  });
});
