import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameKey } from '../../../common/names.js';
import type { SessionEndNotice } from '../../event-bus/event-bus.js';
import type { App } from '../../http/types.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { findMemberByKey } from '../members/repo.js';
import { hashToken } from './secrets.js';
import { MAX_SESSIONS_PER_MEMBER } from './sessions.js';

/** A member holds at most MAX_SESSIONS_PER_MEMBER sessions: a sign-in beyond it ends their oldest, and its live streams. */
describe('sessions per member', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 1_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const sessionCount = async (name: string) => {
    const member = await findMemberByKey(app.database.db, nameKey(name));
    return (await app.database.db.selectFrom('sessions').select('token_hash').where('member_id', '=', member?.id ?? -1).execute()).length;
  };
  const isSignedIn = async (cookies: SessionCookies) => (await apiCall(app, 'GET', '/api/user', cookies)).statusCode === 200;

  it('is bounded at a handful of devices', () => {
    expect(MAX_SESSIONS_PER_MEMBER).toBeGreaterThanOrEqual(5);
    expect(MAX_SESSIONS_PER_MEMBER).toBeLessThanOrEqual(20);
  });

  it("ends the member's oldest session, and announces its end, when a sign-in goes beyond the bound", async () => {
    const signIns: SessionCookies[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_MEMBER; i += 1) signIns.push(await signInAs(app, 'Bea Bounded', '8024'));
    await signInAs(app, 'Other Member', '8024');
    expect(await sessionCount('Bea Bounded')).toBe(MAX_SESSIONS_PER_MEMBER);

    const ended: SessionEndNotice[] = [];
    const stop = app.events.onSessionsEnded((notice) => {
      ended.push(notice);
    });
    try {
      signIns.push(await signInAs(app, 'Bea Bounded', '8024'));
    } finally {
      stop();
    }
    expect(await sessionCount('Bea Bounded')).toBe(MAX_SESSIONS_PER_MEMBER);
    const oldest = signIns[0]?.biggy_session ?? '';
    expect(ended).toContainEqual({ tokenHash: hashToken(oldest) });
    expect(await isSignedIn(signIns[0] ?? {})).toBe(false);
    for (const cookies of signIns.slice(1)) expect(await isSignedIn(cookies)).toBe(true);
    expect(await sessionCount('Other Member')).toBe(1);
  });
});
