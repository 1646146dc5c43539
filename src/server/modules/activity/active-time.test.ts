import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTIVITY_LIMITS } from '../../../common/api/activity.js';
import { routes } from '../../../common/api/index.js';
import { activitySyncResultSchema, analyticsUserSchema } from '../../../common/contract/activity.js';
import type { App } from '../../http/types.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/** Active time is counted per member against the clock, whatever the number of sessions syncing. */

const { sync } = routes.activity;

describe('active time per member', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 1_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const syncAs = async (session: SessionCookies, activeTime: number) => {
    const response = await apiCall(app, 'POST', sync.path, session, { activeTime });
    expect(response.statusCode, response.body).toBe(200);
    return activitySyncResultSchema.parse(response.json());
  };
  const totalOf = async (memberName: string, viewer: SessionCookies) => {
    const users = analyticsUserSchema.array().parse((await apiCall(app, 'GET', routes.analytics.users.path, viewer)).json());
    return users.find((user) => user.memberName === memberName)?.totalActiveTime;
  };

  it('counts at most the seconds of a minute at once, however many sessions sync how often', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sessions: SessionCookies[] = [];
    for (let count = 0; count < 5; count += 1) sessions.push(await signInAs(app, 'Fiona Five'));
    let counted = 0;
    for (const session of sessions) {
      for (let call = 0; call < 4; call += 1) counted += (await syncAs(session, ACTIVITY_LIMITS.maxSyncSeconds)).countedSeconds;
    }
    expect(counted).toBe(60);
    expect(await totalOf('Fiona Five', sessions[0] ?? {})).toBe(60);
  });

  it('counts each second of the clock once across sessions: a minute later a minute more, half a minute later half', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = await signInAs(app, 'Sven Sessions');
    const second = await signInAs(app, 'Sven Sessions');
    expect(await syncAs(first, 60)).toEqual({ countedSeconds: 60, totalActiveTime: 60 });
    expect((await syncAs(second, 60)).countedSeconds).toBe(0);

    vi.setSystemTime(Date.now() + 60_000);
    expect((await syncAs(second, 60)).countedSeconds).toBe(60);
    expect((await syncAs(first, 60)).countedSeconds).toBe(0);

    vi.setSystemTime(Date.now() + 30_000);
    // Claiming more than the clock ran counts what it ran; a later claim within it adds nothing.
    expect(await syncAs(first, 60)).toEqual({ countedSeconds: 30, totalActiveTime: 150 });
    expect((await syncAs(second, 10)).countedSeconds).toBe(0);

    // A claim of less than the time passed counts the claim: the rest of the gap was idle.
    vi.setSystemTime(Date.now() + 45_000);
    expect((await syncAs(second, 20)).countedSeconds).toBe(20);
    expect((await syncAs(first, 20)).countedSeconds).toBe(0);

    // A late sync after two quiet minutes counts one minute: the bound is 60 seconds a minute.
    vi.setSystemTime(Date.now() + 120_000);
    expect((await syncAs(first, ACTIVITY_LIMITS.maxSyncSeconds)).countedSeconds).toBe(60);
    expect(await totalOf('Sven Sessions', first)).toBe(230);
  });

  it('holds the bound for concurrent syncs of many sessions', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const sessions: SessionCookies[] = [];
    for (let count = 0; count < 6; count += 1) sessions.push(await signInAs(app, 'Cora Concurrent'));
    const results = await Promise.all(sessions.flatMap((session) => [syncAs(session, 120), syncAs(session, 120)]));
    const counted = results.reduce((sum, result) => sum + result.countedSeconds, 0);
    expect(counted).toBe(60);
    expect(await totalOf('Cora Concurrent', sessions[0] ?? {})).toBe(counted);
  });

  it('keeps members apart: one member syncing leaves another their own minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const one = await signInAs(app, 'Olga One');
    const other = await signInAs(app, 'Otto Other');
    expect((await syncAs(one, 60)).countedSeconds).toBe(60);
    expect((await syncAs(other, 45)).countedSeconds).toBe(45);
  });
});
