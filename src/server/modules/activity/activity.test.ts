import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_LIMITS, ANALYTICS } from '../../../common/api/activity.js';
import { QA_TEST_COMPONENT_ID } from '../../../common/api/architecture.js';
import { buildPath } from '../../../common/api/route.js';
import { nameKey } from '../../../common/names.js';
import { routes } from '../../../common/api/index.js';
import {
  activeSessionEntrySchema,
  activitySyncResultSchema,
  analyticsUserSchema,
  coverageMatrixSchema,
  dailyTotalsSchema,
  memberAnalyticsSchema,
  teamActivityEntrySchema,
  type AnalyticsUser,
} from '../../../common/contract/activity.js';
import type { App } from '../../http/types.js';
import { expectApiError } from '../../test/api-errors.js';
import { baseUrlOf, closeOpenStreams, openStream } from '../../test/event-stream.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { ACTIVE_SESSIONS_MAX_AGE_MS } from './routes.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../../test/test-app.js';
import { hashToken } from '../auth/secrets.js';
import { SESSION_CACHE_TTL_MS } from '../auth/session-cache.js';
import { insertComment } from '../comments/repo.js';
import { findMemberByKey } from '../members/repo.js';
import { DAY_MS, dayOf } from './repo.js';

/** Activity sync and log, and every analytics call: limits, figures, and the QA member left out. */

const { sync, log } = routes.activity;
const analytics = routes.analytics;

describe('activity and analytics', () => {
  let testApp: TestApp;
  let app: App;
  let alice: SessionCookies;
  let bob: SessionCookies;
  let qa: SessionCookies;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 1_000 });
    app = testApp.app;
    alice = await signInAs(app, 'Alice Analyst');
    bob = await signInAs(app, 'Bob Builder');
    await apiCall(app, 'POST', routes.admin.initQa.path, await signInAs(app, 'Avery Admin'), { adminPassword: TEST_SECRETS.adminPassword });
    qa = await signInAs(app, 'QA Test User', TEST_SECRETS.qaPin);
  });
  afterAll(async () => {
    await testApp.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const users = async (): Promise<AnalyticsUser[]> => analyticsUserSchema.array().parse((await apiCall(app, 'GET', analytics.users.path, alice)).json());
  const userNamed = async (name: string) => {
    const found = (await users()).find((user) => user.memberName === name);
    if (found === undefined) throw new Error(`${name} is not listed`);
    return found;
  };

  describe('POST /api/activity/sync', () => {
    it('adds whole seconds, at most a minute of the clock per member across sessions, and answers the total', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const first = activitySyncResultSchema.parse((await apiCall(app, 'POST', sync.path, bob, { activeTime: 60 })).json());
      expect(first).toEqual({ countedSeconds: 60, totalActiveTime: 60 });
      vi.setSystemTime(Date.now() + 60_000);
      const second = activitySyncResultSchema.parse((await apiCall(app, 'POST', sync.path, bob, { activeTime: ACTIVITY_LIMITS.maxSyncSeconds })).json());
      expect(second).toEqual({ countedSeconds: 60, totalActiveTime: 120 });
      // Another claim in the same instant is answered but adds nothing: a script cannot inflate the figures.
      const third = activitySyncResultSchema.parse((await apiCall(app, 'POST', sync.path, bob, { activeTime: 90 })).json());
      expect(third).toEqual({ countedSeconds: 0, totalActiveTime: 120 });
      // Nor can another session of the same member: the bound is the member's.
      const otherSession = await signInAs(app, 'Bob Builder');
      expect(activitySyncResultSchema.parse((await apiCall(app, 'POST', sync.path, otherSession, { activeTime: 10 })).json()).countedSeconds).toBe(0);
      vi.setSystemTime(Date.now() + 60_000);
      expect(activitySyncResultSchema.parse((await apiCall(app, 'POST', sync.path, otherSession, { activeTime: 60 })).json()).countedSeconds).toBe(60);
      expect((await userNamed('Bob Builder')).totalActiveTime).toBe(180);
      // Zero is valid and spends nothing.
      expect(activitySyncResultSchema.parse((await apiCall(app, 'POST', sync.path, alice, { activeTime: 0 })).json())).toEqual({ countedSeconds: 0, totalActiveTime: 0 });
    });

    it('refuses more than 120 seconds, fractions, negatives, text, extra fields and strangers', async () => {
      for (const body of [{ activeTime: 121 }, { activeTime: 1.5 }, { activeTime: -1 }, { activeTime: '60' }, { activeTime: 60, memberName: 'Alice Analyst' }, {}]) {
        expectApiError(await apiCall(app, 'POST', sync.path, alice, body), 400, 'VALIDATION_FAILED');
      }
      expectApiError(await apiCall(app, 'POST', sync.path, undefined, { activeTime: 10 }), 401, 'UNAUTHENTICATED');
      expect((await userNamed('Alice Analyst')).totalActiveTime).toBe(0);
    });

    it('keeps a session alive past the idle timeout while the member works', async () => {
      const idle = await createTestApp({ session: { idleMs: 60_000, absoluteMs: 3_600_000, cacheMs: SESSION_CACHE_TTL_MS } });
      try {
        vi.useFakeTimers({ toFake: ['Date'] });
        const worker = await signInAs(idle.app, 'Wendy Worker');
        const reader = await signInAs(idle.app, 'Rita Reader');
        // Four minutes: the worker's page syncs every minute, the reader's tab sends nothing.
        for (let minute = 1; minute <= 4; minute += 1) {
          vi.setSystemTime(Date.now() + 55_000);
          expect((await apiCall(idle.app, 'POST', sync.path, worker, { activeTime: 55 })).statusCode).toBe(200);
        }
        expect((await apiCall(idle.app, 'GET', routes.auth.user.path, worker)).statusCode).toBe(200);
        expectApiError(await apiCall(idle.app, 'GET', routes.auth.user.path, reader), 401, 'UNAUTHENTICATED');
      } finally {
        vi.useRealTimers();
        await idle.close();
      }
    });
  });

  describe('POST /api/activity/log', () => {
    it('records a page view with its path and shows it in the team activity and the member timeline', async () => {
      const response = await apiCall(app, 'POST', log.path, alice, { activityType: 'page_view', details: JSON.stringify({ path: '/analytics' }) });
      expect(response.statusCode, response.body).toBe(201);
      const team = teamActivityEntrySchema.array().parse((await apiCall(app, 'GET', analytics.activity.path, bob)).json());
      expect(team.find((entry) => entry.memberName === 'Alice Analyst')).toMatchObject({ activityType: 'page_view', details: '{"path":"/analytics"}' });

      const detail = memberAnalyticsSchema.parse((await apiCall(app, 'GET', buildPath(analytics.user.path, { memberName: 'alice  ANALYST' }), bob)).json());
      expect(detail.user.memberName).toBe('Alice Analyst');
      // The sign-in before it was written by the server.
      expect(detail.recentActivity.map((entry) => entry.activityType)).toEqual(['page_view', 'login']);
      expect(detail.daily).toHaveLength(ANALYTICS.chartDays);
    });

    it('refuses other types, details that are not a path or over 2 KB, extra fields and strangers', async () => {
      const bad = [
        { activityType: 'admin_granted' },
        { activityType: 'login' },
        { activityType: 'page_view', details: 'not json' },
        { activityType: 'page_view', details: JSON.stringify({ path: `/${'x'.repeat(ACTIVITY_LIMITS.detailsBytes)}` }) },
        { activityType: 'page_view', memberName: 'Bob Builder' },
        { activityType: 'page_view', details: { path: '/' } },
      ];
      for (const body of bad) expectApiError(await apiCall(app, 'POST', log.path, bob, body), 400, 'VALIDATION_FAILED');
      expect((await apiCall(app, 'POST', log.path, bob, { activityType: 'page_view', details: JSON.stringify({ path: `/${'y'.repeat(ACTIVITY_LIMITS.pagePathChars - 1)}` }) })).statusCode).toBe(201);
      expectApiError(await apiCall(app, 'POST', log.path, undefined, { activityType: 'page_view' }), 401, 'UNAUTHENTICATED');
    });
  });

  describe('GET /api/analytics/*', () => {
    it('counts sign-ins, comments and votes per member, and leaves the QA member and its component out', async () => {
      const before = await userNamed('Bob Builder');
      const comment = await apiCall(app, 'POST', routes.comments.create.path, bob, { componentId: 'event-correlation', content: 'Correlate by service and time window.' });
      expect(comment.statusCode, comment.body).toBe(201);
      const commentId = comment.json<{ id: number }>().id;
      expect((await apiCall(app, 'POST', buildPath(routes.comments.vote.path, { id: commentId }), alice, { voteType: 'thumbs_up' })).statusCode).toBe(200);
      // The QA member's own work never shows.
      await apiCall(app, 'POST', routes.comments.create.path, qa, { componentId: QA_TEST_COMPONENT_ID, content: 'QA scratch comment' });
      await apiCall(app, 'POST', sync.path, qa, { activeTime: 30 });

      const after = await userNamed('Bob Builder');
      expect(after.totalComments).toBe(before.totalComments + 1);
      expect((await userNamed('Alice Analyst')).totalVotes).toBeGreaterThanOrEqual(1);
      expect(after.totalLogins).toBeGreaterThanOrEqual(2);
      expect(after.lastLogin).not.toBeNull();
      const names = (await users()).map((user) => user.memberName);
      expect(names).not.toContain('QA Test User');
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expectApiError(await apiCall(app, 'GET', buildPath(analytics.user.path, { memberName: 'QA Test User' }), alice), 404, 'MEMBER_NOT_FOUND');
      expectApiError(await apiCall(app, 'GET', buildPath(analytics.user.path, { memberName: 'Nobody Known' }), alice), 404, 'MEMBER_NOT_FOUND');

      const coverage = coverageMatrixSchema.parse((await apiCall(app, 'GET', analytics.coverage.path, alice)).json());
      expect(coverage.members).not.toContain('QA Test User');
      expect(coverage.components.map((component) => component.id)).not.toContain(QA_TEST_COMPONENT_ID);
      const row = coverage.components.find((component) => component.id === 'event-correlation');
      expect(row?.comments).toBeGreaterThanOrEqual(1);
      expect(row?.cells[coverage.members.indexOf('Bob Builder')]?.comments).toBeGreaterThanOrEqual(1);
      expect(row?.cells[coverage.members.indexOf('Alice Analyst')]?.votes).toBeGreaterThanOrEqual(1);
      expect(coverage.components.some((component) => component.comments === 0)).toBe(true);

      const daily = dailyTotalsSchema.parse((await apiCall(app, 'GET', analytics.daily.path, alice)).json());
      expect(daily.days).toHaveLength(ANALYTICS.chartDays);
      const today = daily.days.at(-1);
      expect(today?.day).toBe(new Date().toISOString().slice(0, 10));
      expect(today?.comments).toBeGreaterThanOrEqual(1);
      expect(today?.activeTime).toBeGreaterThanOrEqual(180);
    });

    it("keeps its figures through the self-test's work on the scratch component, and recounts after a member's comment", async () => {
      const bobRow = await findMemberByKey(app.database.db, nameKey('Bob Builder'));
      if (bobRow === undefined) throw new Error('Bob Builder is not a member');
      const counted = (await userNamed('Bob Builder')).totalComments;
      // A comment no event announces: the kept figures do not show it until something a figure counts changes.
      await insertComment(app.database.db, { componentId: 'alert-ingestion', kind: 'comment', content: 'Written behind the cache', memberId: bobRow.id, memberName: bobRow.full_name });
      const scratch = await apiCall(app, 'POST', routes.comments.create.path, qa, { componentId: QA_TEST_COMPONENT_ID, content: 'QA scratch comment, not counted' });
      expect(scratch.statusCode, scratch.body).toBe(201);
      expect((await apiCall(app, 'POST', buildPath(routes.comments.vote.path, { id: scratch.json<{ id: number }>().id }), qa, { voteType: 'thumbs_up' })).statusCode).toBe(200);
      expect((await userNamed('Bob Builder')).totalComments).toBe(counted);

      expect((await apiCall(app, 'POST', routes.comments.create.path, alice, { componentId: 'event-correlation', content: 'A counted comment.' })).statusCode).toBe(201);
      expect((await userNamed('Bob Builder')).totalComments).toBe(counted + 1);
    });

    it("hides the scratch component's comments from members' votes as from their comments", async () => {
      const scratch = await apiCall(app, 'POST', routes.comments.create.path, qa, { componentId: QA_TEST_COMPONENT_ID, content: 'QA scratch comment' });
      const vote = await apiCall(app, 'POST', buildPath(routes.comments.vote.path, { id: scratch.json<{ id: number }>().id }), alice, { voteType: 'thumbs_up' });
      expectApiError(vote, 404, 'COMMENT_NOT_FOUND');
      expectApiError(await apiCall(app, 'POST', routes.comments.create.path, alice, { componentId: QA_TEST_COMPONENT_ID, content: 'Me too' }), 404, 'UNKNOWN_COMPONENT');
    });

    it('lists the sessions seen in the last five minutes by an opaque id, never the QA member', async () => {
      const sessions = activeSessionEntrySchema.array().parse((await apiCall(app, 'GET', analytics.activeSessions.path, alice)).json());
      expect(sessions.map((session) => session.memberName)).toEqual(expect.arrayContaining(['Alice Analyst', 'Bob Builder']));
      expect(sessions.map((session) => session.memberName)).not.toContain('QA Test User');
      const tokens = Object.values(alice);
      for (const session of sessions) {
        expect(session.id).toMatch(/^[0-9a-f]{16}$/);
        for (const token of tokens) {
          expect(session.id).not.toBe(token);
          expect(hashToken(token)).not.toContain(session.id);
        }
      }
    });

    it('shows a new sign-in and a sign-out in the active sessions within a second', async () => {
      const names = async () => activeSessionEntrySchema.array().parse((await apiCall(app, 'GET', analytics.activeSessions.path, alice)).json()).map((session) => session.memberName);
      expect(await names()).not.toContain('Sam Session');
      const sam = await signInAs(app, 'Sam Session');
      // The list is kept for a second: polled until it has changed, for three seconds at most.
      await expect.poll(names, { timeout: 3 * ACTIVE_SESSIONS_MAX_AGE_MS }).toContain('Sam Session');
      expect((await apiCall(app, 'POST', routes.auth.logout.path, sam)).statusCode).toBe(200);
      await expect.poll(names, { timeout: 3 * ACTIVE_SESSIONS_MAX_AGE_MS }).not.toContain('Sam Session');
    });

    it('answers 401 to strangers on every analytics call', async () => {
      for (const path of [analytics.users.path, analytics.activeSessions.path, analytics.daily.path, analytics.activity.path, analytics.coverage.path, buildPath(analytics.user.path, { memberName: 'Alice Analyst' })]) {
        expectApiError(await apiCall(app, 'GET', path, undefined), 401, 'UNAUTHENTICATED');
      }
    });
  });

  describe('live stream', () => {
    afterEach(() => {
      closeOpenStreams();
    });

    it('never sends the activity event to a browser: a member sees the comment after it, nothing else', async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const stream = await openStream(baseUrlOf(app), alice);
      const watcher = await signInAs(app, 'Walter Watcher');
      expect((await apiCall(app, 'POST', sync.path, watcher, { activeTime: 5 })).json()).toMatchObject({ countedSeconds: 5 });
      expect((await apiCall(app, 'POST', log.path, watcher, { activityType: 'page_view' })).statusCode).toBe(201);
      // A marker every member receives: once it has arrived, anything sent before it has too.
      const marker = await apiCall(app, 'POST', routes.comments.create.path, watcher, { componentId: 'event-management', content: 'Marker' });
      const markerId = marker.json<{ id: number }>().id;
      await stream.nextEvent((event) => event.type === 'comment.created' && event.commentId === markerId);
      expect(stream.events.map((received) => received.event.type)).toEqual(['comment.created']);
    });
  });

  describe('retention', () => {
    it('rolls log rows past the retention into daily counts and deletes them', async () => {
      const { db } = app.database;
      const member = await db.selectFrom('members').select('id').where('full_name', '=', 'Bob Builder').executeTakeFirstOrThrow();
      const now = Date.now();
      const old = now - 200 * DAY_MS;
      await db
        .insertInto('activity_log')
        .values([
          { member_id: member.id, activity_type: 'page_view', details: null, created_at: old },
          { member_id: member.id, activity_type: 'page_view', details: null, created_at: old + 1000 },
          { member_id: member.id, activity_type: 'login', details: null, created_at: old + 2000 },
        ])
        .execute();
      const rolled = await db.selectFrom('activity_log').select('id').where('created_at', '<', now - 180 * DAY_MS).execute();
      expect(rolled).toHaveLength(3);
      const { ActivityService } = await import('./service.js');
      const { RateLimiter } = await import('../../http/rate-limit.js');
      const service = new ActivityService(db, app.events, new RateLimiter(db), 180);
      expect(await service.rollUp(now)).toBe(3);
      expect(await db.selectFrom('activity_log').select('id').where('created_at', '<', now - 180 * DAY_MS).execute()).toHaveLength(0);
      const daily = await db.selectFrom('activity_daily').selectAll().where('member_id', '=', member.id).orderBy('activity_type').execute();
      expect(daily).toEqual([
        { member_id: member.id, day: dayOf(old), activity_type: 'login', entries: 1 },
        { member_id: member.id, day: dayOf(old), activity_type: 'page_view', entries: 2 },
      ]);
      // Recent rows stay.
      expect((await db.selectFrom('activity_log').select('id').where('member_id', '=', member.id).execute()).length).toBeGreaterThan(0);
    });
  });
});
