import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_LIMITS } from '../../../common/api/activity.js';
import { buildPath } from '../../../common/api/route.js';
import { routes } from '../../../common/api/index.js';
import { memberAnalyticsSchema, teamActivityEntrySchema, type ActivityLogEntry } from '../../../common/contract/activity.js';
import type { App } from '../../http/types.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** The activity log: the server writes what members do; a member's page may add page views only. */

const { log } = routes.activity;

describe('activity log entries', () => {
  let testApp: TestApp;
  let app: App;
  let viewer: SessionCookies;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 1_000 });
    app = testApp.app;
    viewer = await signInAs(app, 'Vera Viewer');
  });
  afterAll(async () => {
    await testApp.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const timeline = async (memberName: string): Promise<ActivityLogEntry[]> =>
    memberAnalyticsSchema.parse((await apiCall(app, 'GET', buildPath(routes.analytics.user.path, { memberName }), viewer)).json()).recentActivity;
  const pageView = (session: SessionCookies, path: string) => apiCall(app, 'POST', log.path, session, { activityType: 'page_view', details: JSON.stringify({ path }) });

  it('refuses every type but page views from a member, and stores none of them', async () => {
    const forger = await signInAs(app, 'Fergus Forger');
    const before = await timeline('Fergus Forger');
    for (const activityType of ['login', 'comment_added', 'vote_cast', 'suggestions_generated', 'admin_granted']) {
      expectApiError(await apiCall(app, 'POST', log.path, forger, { activityType, details: JSON.stringify({ componentId: 'event-correlation' }) }), 400, 'VALIDATION_FAILED');
      expectApiError(await apiCall(app, 'POST', log.path, forger, { activityType }), 400, 'VALIDATION_FAILED');
    }
    // A page view's details are its path and nothing else.
    for (const details of [JSON.stringify({ text: 'Alice deleted every comment' }), JSON.stringify({ path: 'no-slash' }), JSON.stringify({ path: '/', note: 'x' }), '"/analytics"']) {
      expectApiError(await apiCall(app, 'POST', log.path, forger, { activityType: 'page_view', details }), 400, 'VALIDATION_FAILED');
    }
    expect(await timeline('Fergus Forger')).toEqual(before);
  });

  it('writes sign-ins, comments and votes itself, where they happen', async () => {
    const writer = await signInAs(app, 'Wanda Writer');
    // Read once, so the team's feed is held in memory: the comment and the vote must drop it.
    expect((await apiCall(app, 'GET', routes.analytics.activity.path, viewer)).statusCode).toBe(200);
    const signIns = (await timeline('Wanda Writer')).filter((entry) => entry.activityType === 'login');
    expect(signIns).toHaveLength(1);
    expect(JSON.parse(signIns[0]?.details ?? 'null')).toEqual({ method: 'password' });

    const created = await apiCall(app, 'POST', routes.comments.create.path, writer, { componentId: 'event-correlation', content: 'Correlate by service.' });
    expect(created.statusCode, created.body).toBe(201);
    const commentId = created.json<{ id: number }>().id;
    expect((await apiCall(app, 'POST', buildPath(routes.comments.vote.path, { id: commentId }), viewer, { voteType: 'thumbs_up' })).statusCode).toBe(200);

    const [latest] = await timeline('Wanda Writer');
    expect(latest?.activityType).toBe('comment_added');
    expect(JSON.parse(latest?.details ?? 'null')).toEqual({ componentId: 'event-correlation', commentId });
    const [vote] = await timeline('Vera Viewer');
    expect(vote?.activityType).toBe('vote_cast');
    expect(JSON.parse(vote?.details ?? 'null')).toEqual({ target: 'comment', commentId, componentId: 'event-correlation', myVote: 'thumbs_up' });

    // A refused action writes nothing.
    const before = await timeline('Wanda Writer');
    expectApiError(await apiCall(app, 'POST', routes.comments.create.path, writer, { componentId: 'no-such-component', content: 'Lost' }), 404, 'UNKNOWN_COMPONENT');
    expect(await timeline('Wanda Writer')).toEqual(before);

    const team = teamActivityEntrySchema.array().parse((await apiCall(app, 'GET', routes.analytics.activity.path, viewer)).json());
    expect(team.slice(0, 2).map((entry) => [entry.memberName, entry.activityType])).toEqual([
      ['Vera Viewer', 'vote_cast'],
      ['Wanda Writer', 'comment_added'],
    ]);
  });

  it('stores a page view once while the member stays on it, and a new page at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const reader = await signInAs(app, 'Rhea Reader');
    const first = await pageView(reader, '/analytics');
    expect(first.statusCode).toBe(201);
    for (let repeat = 0; repeat < 5; repeat += 1) {
      const again = await pageView(reader, '/analytics');
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ id: null });
    }
    expect((await pageView(reader, '/admin')).statusCode).toBe(201);
    const views = () => timeline('Rhea Reader').then((entries) => entries.filter((entry) => entry.activityType === 'page_view').map((entry) => entry.details));
    expect(await views()).toEqual(['{"path":"/admin"}', '{"path":"/analytics"}']);

    vi.setSystemTime(Date.now() + ACTIVITY_LIMITS.pageViewRepeatMs + 1_000);
    expect((await pageView(reader, '/analytics')).statusCode).toBe(201);
    expect(await views()).toHaveLength(3);
  });

  it(`stores at most ${ACTIVITY_LIMITS.pageViewsPerMinute} page views a minute from one member, then answers null`, async () => {
    const busy = await signInAs(app, 'Lara Logger');
    for (let entry = 0; entry < ACTIVITY_LIMITS.pageViewsPerMinute; entry += 1) {
      expect((await pageView(busy, `/page-${entry}`)).statusCode).toBe(201);
    }
    const over = await pageView(busy, '/one-more');
    expect(over.statusCode).toBe(200);
    expect(over.json()).toEqual({ id: null });
    // Another member's budget is their own.
    expect((await pageView(viewer, '/one-more')).statusCode).toBe(201);
  });
});
