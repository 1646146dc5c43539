import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../common/contract/common.js';
import { MEMBER_LIMITS } from '../../common/limits.js';
import { AiEngine } from '../ai-providers/engine.js';
import type { AiProvider } from '../ai-providers/provider.js';
import { AppError } from '../errors.js';
import type { App } from '../http/types.js';
import { signInAs, type SessionCookies } from '../test/sign-in.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

/**
 * One member must not stall the server for everyone: comments and AI calls are limited per member,
 * the analyzer runs in worker threads with one computation per component at a time, and an
 * analysis that runs past its time budget is stopped.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const COMPONENT = 'responder-engagement';

describe('one member cannot stall the server', () => {
  let testApp: TestApp;
  let app: App;
  let flooder: SessionCookies;
  let colleague: SessionCookies;
  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    flooder = await signInAs(app, 'Fred Flood');
    colleague = await signInAs(app, 'Cora Colleague');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const comment = (cookies: SessionCookies, content: string) =>
    app.inject({ method: 'POST', url: '/api/comments', headers: JSON_HEADERS, cookies, payload: JSON.stringify({ componentId: COMPONENT, content }) });
  const summary = (cookies: SessionCookies, componentId = COMPONENT) => app.inject({ method: 'GET', url: `/api/comments/${componentId}/summary`, cookies });

  it('refuses the 31st comment of a member in a minute with 429, and not a colleague’s', async () => {
    for (let i = 0; i < MEMBER_LIMITS.commentsPerMinute; i += 1) expect((await comment(flooder, `Flood ${i}`)).statusCode).toBe(201);
    const refused = await comment(flooder, 'One too many');
    expect(refused.statusCode).toBe(429);
    expect(apiErrorSchema.parse(refused.json()).code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await comment(colleague, 'Still heard')).statusCode).toBe(201);
    const stored = await app.database.db.selectFrom('comments').select('content').where('content', '=', 'One too many').execute();
    expect(stored).toEqual([]);
  });

  it('limits the AI summaries a member has made, not the cached ones they read', async () => {
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    // Reading a cached summary is no AI call: far more reads than the limit all succeed.
    for (let i = 0; i < MEMBER_LIMITS.summariesPerMinute + 20; i += 1) expect((await summary(flooder)).statusCode).toBe(200);
    // A summary that must be made counts: after each new comment the next request makes one.
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    const statuses: number[] = [];
    for (let i = 0; i <= MEMBER_LIMITS.summariesPerMinute; i += 1) {
      await app.database.db.deleteFrom('rate_limit_buckets').where('key', 'like', 'comment-post:%').execute();
      expect((await comment(colleague, `New point ${i}`)).statusCode).toBe(201);
      statuses.push((await summary(flooder)).statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // The colleague is not refused, and the cached summary is still served to everyone.
    expect((await summary(colleague)).statusCode).toBe(200);
    expect((await summary(flooder)).statusCode).toBe(200);
    // A change notice that comes late drops the fresh summary from memory but not from the
    // database: reading it again is still no AI call, so the limited member is not refused.
    let stop = () => {};
    const delivered = new Promise<void>((resolve) => {
      stop = app.events.onChange((event) => {
        if (event.type === 'comment.created' && event.commentId === -1) resolve();
      });
    });
    await app.events.publish({ type: 'comment.created', componentId: COMPONENT, commentId: -1 });
    await delivered;
    stop();
    expect((await summary(flooder)).statusCode).toBe(200);
  });

  it('limits suggestion generation per member', async () => {
    const generate = (cookies: SessionCookies) => app.inject({ method: 'POST', url: '/api/suggestions/generate', headers: JSON_HEADERS, cookies, payload: '{}' });
    const statuses: number[] = [];
    for (let i = 0; i <= MEMBER_LIMITS.generationsPerMinute; i += 1) statuses.push((await generate(flooder)).statusCode);
    expect(statuses.slice(0, -1).every((status) => status < 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('limits the team narratives a member has made, not the cached ones they read', async () => {
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    const narrative = (cookies: SessionCookies) => app.inject({ method: 'GET', url: '/api/suggestions/narrative-summary', cookies });
    for (let i = 0; i < MEMBER_LIMITS.narrativesPerMinute + 10; i += 1) expect((await narrative(flooder)).statusCode).toBe(200);
    // A vote on a comment changes the narrative's input: the next request has a new one made. The
    // vote toggles between two inputs, so the stored narratives are cleared each time: a narrative
    // stored for the input of the moment would cost no AI call (ADR 0021).
    const created = await comment(colleague, 'A point to vote on');
    expect(created.statusCode).toBe(201);
    const votedId = created.json<{ id: number }>().id;
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    const statuses: number[] = [];
    for (let i = 0; i <= MEMBER_LIMITS.narrativesPerMinute; i += 1) {
      const vote = await app.inject({ method: 'POST', url: `/api/comments/${votedId}/vote`, headers: JSON_HEADERS, cookies: colleague, payload: JSON.stringify({ voteType: 'thumbs_up' }) });
      expect(vote.statusCode).toBe(200);
      await app.database.db.deleteFrom('ai_outputs').where('kind', '=', 'narrative').execute();
      statuses.push((await narrative(flooder)).statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another member is not refused.
    expect((await narrative(colleague)).statusCode).toBe(200);
  });

  it('runs one analysis per component at a time however many comments and requests arrive meanwhile', async () => {
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    const component = 'event-correlation';
    // Keep the one analyzer worker busy with a long analysis, so every round below arrives while
    // the component's analysis waits or runs: that is when requests would pile up.
    const busyWork = app.analyzers.run({
      kind: 'summarizeComments',
      input: {
        componentId: 'busy',
        componentTitle: 'Busy',
        comments: Array.from({ length: 1500 }, (_, i) => ({
          id: i + 1,
          componentId: 'busy',
          componentTitle: 'Busy',
          kind: 'comment' as const,
          content: `Comment ${i}: the correlation window should group alerts from the same host within ${i % 15} minutes, and page the owner.`,
          memberName: 'Someone',
          createdAt: i,
          upVotes: i % 3,
          downVotes: i % 2,
        })),
      },
    });
    const before = app.analyzers.load.started;
    // Ten rounds of "a new comment, then a summary request" without waiting for the summaries.
    const answers = [];
    for (let i = 0; i < 10; i += 1) {
      expect((await comment(colleague, `Round ${i}: keep the correlation window at 5 minutes`)).statusCode).toBe(201);
      answers.push(summary(flooder, component), summary(colleague, component));
    }
    const settled = await Promise.all(answers);
    await busyWork;
    for (const answer of settled) expect(answer.statusCode, answer.body).toBe(200);
    // The last answers saw every comment: coalescing never serves a summary older than the request.
    const last = settled.at(-1)?.json<{ commentIds: number[] }>();
    const count = await app.database.db.selectFrom('comments').select('id').where('component_id', '=', component).execute();
    expect(last?.commentIds.length).toBe(count.length);
    // One analysis for the first round and one follow-up shared by the nine others; without
    // coalescing each round would start its own (10).
    expect(app.analyzers.load.started - before).toBeLessThanOrEqual(2);
  });
});

describe('the time budget of an analysis', () => {
  it('stops a local analysis past its budget with a 503 that says to try again', async () => {
    const hanging: AiProvider = {
      name: 'local',
      model: 'test',
      promptVersion: () => 'test/1',
      summarizeComments: (_input, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
          });
        }),
      generateSuggestions: () => Promise.reject(new Error('unused')),
      narrativeSummary: () => Promise.reject(new Error('unused')),
    };
    const engine = new AiEngine(hanging, hanging, pino({ level: 'silent' }), 200);
    const failure = await engine.run('summary', (provider, signal) => provider.summarizeComments({ componentId: 'x', componentTitle: 'X', comments: [] }, signal)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ statusCode: 503, code: 'AI_TIMEOUT', headers: { 'retry-after': '30' } });
  });
});
