import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSessionResponseSchema } from '../../../common/contract/auth.js';
import { apiErrorSchema, messageResponseSchema } from '../../../common/contract/common.js';
import { errorReportAcceptedSchema } from '../../../common/contract/error-reports.js';
import { nameKey } from '../../../common/names.js';
import type { AppConfig } from '../../config.js';
import type { App } from '../../http/types.js';
import { TEST_SECRETS, createTestApp } from '../../test/test-app.js';
import { openEnrollmentLink } from '../../test/sign-in.js';
import { findMemberByKey, setFirstPinHash } from '../members/repo.js';
import { addMember } from '../members/service.js';
import { hashPin, hashToken } from './secrets.js';
import { SessionStore } from './sessions.js';

/** Server-side sessions, their rotation, their end and their timeouts. */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const MINUTE = 60_000;

type InjectedCookie = LightMyRequestResponse['cookies'][number];

function cookieNamed(response: LightMyRequestResponse, name: string): InjectedCookie {
  const found = response.cookies.find((cookie) => cookie.name === name);
  if (found === undefined) throw new Error(`the response sets no ${name} cookie (status ${response.statusCode}: ${response.body})`);
  return found;
}

/** A Set-Cookie that makes the browser forget the cookie. */
function expectCleared(response: LightMyRequestResponse, name: string) {
  const cookie = cookieNamed(response, name);
  expect(cookie.value, name).toBe('');
  const expiresAt = cookie.expires?.getTime() ?? Number.POSITIVE_INFINITY;
  expect(cookie.maxAge === 0 || expiresAt <= Date.now(), `${name} is not expired`).toBe(true);
}

/** One app per configuration; each helper is bound to the app it was made for. */
async function sessionHarness(overrides: Partial<AppConfig> = {}) {
  // The per-IP sign-in limit has its own tests; here it would only get in the way.
  const testApp = await createTestApp({ signInLimitPerMinute: 10_000, ...overrides });
  const app: App = testApp.app;
  const db = app.database.db;

  async function createMember(name: string, pin: string) {
    await addMember(db, name);
    const member = await findMemberByKey(db, nameKey(name));
    if (member === undefined) throw new Error(`member ${name} was not created`);
    await setFirstPinHash(db, member.id, await hashPin(pin, TEST_SECRETS.pinPepper));
    return member;
  }

  const post = (url: string, payload: unknown, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload), ...options });

  async function signIn(name: string, pin: string, cookies: Record<string, string> = {}) {
    const response = await post('/api/login', { password: TEST_SECRETS.teamPassword, name, pin }, { cookies });
    expect(response.statusCode, response.body).toBe(200);
    return { session: cookieNamed(response, 'biggy_session').value, device: cookieNamed(response, 'biggy_device').value };
  }

  const userStatus = async (session: string) => (await app.inject({ method: 'GET', url: '/api/user', cookies: { biggy_session: session } })).statusCode;

  const sessionRow = (session: string) => db.selectFrom('sessions').selectAll().where('token_hash', '=', hashToken(session)).executeTakeFirst();

  async function checkSession(device: string) {
    const response = await app.inject({ method: 'GET', url: '/api/check-session', cookies: { biggy_device: device } });
    expect(response.statusCode).toBe(200);
    return checkSessionResponseSchema.parse(response.json());
  }

  return { testApp, app, db, createMember, post, signIn, userStatus, sessionRow, checkSession };
}

type Harness = Awaited<ReturnType<typeof sessionHarness>>;

describe('sessions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await sessionHarness();
  });
  afterAll(async () => {
    await h.testApp.close();
  });

  it('stores only a hash of the token, with the idle and absolute limits of the configuration', async () => {
    await h.createMember('Ada Lovelace', '3816');
    const before = Date.now();
    const { session } = await h.signIn('Ada Lovelace', '3816');
    const row = await h.sessionRow(session);
    expect(row).toBeDefined();
    expect(row?.token_hash).toBe(hashToken(session));
    expect(await h.db.selectFrom('sessions').select('token_hash').where('token_hash', '=', session).execute()).toEqual([]);
    expect(row?.created_at).toBeGreaterThanOrEqual(before);
    expect(row?.last_seen_at).toBe(row?.created_at);
    expect((row?.expires_at ?? 0) - (row?.created_at ?? 0)).toBe(12 * 3_600_000);
  });

  it('issues a new token at every sign-in; a second browser keeps its own session', async () => {
    await h.createMember('Alan Turing', '5062');
    const first = await h.signIn('Alan Turing', '5062');
    const second = await h.signIn('Alan Turing', '5062');
    expect(second.session).not.toBe(first.session);
    expect(second.device).not.toBe(first.device);
    expect(await h.userStatus(first.session)).toBe(200);
    expect(await h.userStatus(second.session)).toBe(200);
  });

  it('never adopts a session cookie planted before sign-in (session fixation)', async () => {
    await h.createMember('Grace Hopper', '9753');
    const planted = 'attacker-chosen-session-token-0123456789abc';
    const { session } = await h.signIn('Grace Hopper', '9753', { biggy_session: planted });
    expect(session).not.toBe(planted);
    expect(await h.userStatus(planted)).toBe(401);
    expect(await h.sessionRow(planted)).toBeUndefined();
    expect(await h.userStatus(session)).toBe(200);
  });

  it('ends the session a browser had when it signs in again, by password, PIN setup or quick login', async () => {
    await h.createMember('Katherine Johnson', '4682');
    const first = await h.signIn('Katherine Johnson', '4682');
    const second = await h.signIn('Katherine Johnson', '4682', { biggy_session: first.session });
    expect(second.session).not.toBe(first.session);
    expect(await h.userStatus(first.session)).toBe(401);
    expect(await h.sessionRow(first.session)).toBeUndefined();

    const quick = await h.post('/api/quick-login', { name: 'Katherine Johnson', pin: '4682' }, { cookies: { biggy_session: second.session, biggy_device: second.device } });
    expect(quick.statusCode, quick.body).toBe(200);
    const third = cookieNamed(quick, 'biggy_session').value;
    expect(third).not.toBe(second.session);
    expect(await h.userStatus(second.session)).toBe(401);
    expect(await h.userStatus(third)).toBe(200);

    await addMember(h.db, 'Barbara Liskov');
    const enrolled = await openEnrollmentLink(h.app, 'Barbara Liskov');
    const setup = await h.post(
      '/api/setup-pin',
      { password: TEST_SECRETS.teamPassword, name: 'Barbara Liskov', pin: '8024' },
      { cookies: { ...enrolled.cookies, biggy_session: third } },
    );
    expect(setup.statusCode, setup.body).toBe(200);
    expect(cookieNamed(setup, 'biggy_session').value).not.toBe(third);
    expect(await h.userStatus(third)).toBe(401);
  });

  it('ends the session on the server at logout: the old cookie gets 401 afterwards', async () => {
    await h.createMember('Dorothy Vaughan', '3579');
    const { session, device } = await h.signIn('Dorothy Vaughan', '3579');
    expect(await h.userStatus(session)).toBe(200);

    const response = await h.app.inject({ method: 'POST', url: '/api/logout', headers: JSON_HEADERS, cookies: { biggy_session: session } });
    expect(response.statusCode, response.body).toBe(200);
    expect(messageResponseSchema.parse(response.json())).toEqual({ message: 'Logged out' });
    expectCleared(response, 'biggy_session');

    expect(await h.userStatus(session)).toBe(401);
    expect(await h.sessionRow(session)).toBeUndefined();
    // Logout keeps the device: the next visit may use quick login.
    expect(await h.checkSession(device)).toEqual({ canQuickLogin: true, memberName: 'Dorothy Vaughan' });
  });

  it('answers logout and clear-session without a session as well', async () => {
    for (const url of ['/api/logout', '/api/clear-session']) {
      const response = await h.app.inject({ method: 'POST', url, headers: JSON_HEADERS });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
  });

  it('ends the session and forgets the device at clear-session (Use Different Account)', async () => {
    const member = await h.createMember('Mary Jackson', '4680');
    const { session, device } = await h.signIn('Mary Jackson', '4680');
    expect(await h.checkSession(device)).toEqual({ canQuickLogin: true, memberName: 'Mary Jackson' });

    const response = await h.app.inject({
      method: 'POST',
      url: '/api/clear-session',
      headers: JSON_HEADERS,
      cookies: { biggy_session: session, biggy_device: device },
    });
    expect(response.statusCode, response.body).toBe(200);
    expectCleared(response, 'biggy_session');
    expectCleared(response, 'biggy_device');

    expect(await h.userStatus(session)).toBe(401);
    // The server forgot the device too: replaying the old cookie gains nothing.
    expect(await h.checkSession(device)).toEqual({ canQuickLogin: false, memberName: null });
    const quick = await h.post('/api/quick-login', { name: 'Mary Jackson', pin: '4680' }, { cookies: { biggy_device: device } });
    expect(quick.statusCode).toBe(401);
    expect(await h.db.selectFrom('device_tokens').select('token_hash').where('member_id', '=', member.id).execute()).toEqual([]);
  });

  it('ignores a forwarded protocol from an untrusted client: the cookies stay plain', async () => {
    await h.createMember('Frances Allen', '1122');
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { ...JSON_HEADERS, 'x-forwarded-proto': 'https' },
      payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name: 'Frances Allen', pin: '1122' }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.cookies.map((cookie) => cookie.name).sort()).toEqual(['biggy_device', 'biggy_session']);
  });

  it("attaches the member's full name to error reports sent with a session, and null without one", async () => {
    await h.createMember('Margaret Hamilton', '7093');
    const { session } = await h.signIn('Margaret Hamilton', '7093');
    const report = { source: 'frontend', errorType: 'javascript_error', message: 'boom', severity: 'high' };
    const send = async (cookies: Record<string, string>) => {
      const response = await h.post('/api/errors/log', report, { cookies });
      expect(response.statusCode, response.body).toBe(201);
      const { id } = errorReportAcceptedSchema.parse(response.json());
      const row = await h.db.selectFrom('error_logs').select('member_name').where('id', '=', id).executeTakeFirstOrThrow();
      return row.member_name;
    };
    expect(await send({ biggy_session: session })).toBe('Margaret Hamilton');
    expect(await send({})).toBeNull();
    // A dead or forged session is no identity, and no reason to refuse the report either.
    expect(await send({ biggy_session: 'forged-session-token' })).toBeNull();
    await h.app.inject({ method: 'POST', url: '/api/logout', headers: JSON_HEADERS, cookies: { biggy_session: session } });
    expect(await send({ biggy_session: session })).toBeNull();
  });
});

/**
 * These tests change session and member rows behind the server's back, as only a database
 * administrator could; the app is told nothing, so they run without the session cache (whose
 * bound on such changes is tested below).
 */
describe('sessions changed in the database', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await sessionHarness({ session: { idleMs: 30 * MINUTE, absoluteMs: 12 * 60 * MINUTE, cacheMs: 0 } });
  });
  afterAll(async () => {
    await h.testApp.close();
  });

  it('ends a session idle for 30 minutes', async () => {
    await h.createMember('Hedy Lamarr', '1212');
    const { session } = await h.signIn('Hedy Lamarr', '1212');
    const setLastSeen = (at: number) => h.db.updateTable('sessions').set({ last_seen_at: at }).where('token_hash', '=', hashToken(session)).execute();

    await setLastSeen(Date.now() - 29 * MINUTE);
    expect(await h.userStatus(session)).toBe(200);
    // The stored last-seen time is written at most once a minute, so the limit allows a minute more.
    await setLastSeen(Date.now() - 31 * MINUTE - 1000);
    const response = await h.app.inject({ method: 'GET', url: '/api/user', cookies: { biggy_session: session } });
    expect(response.statusCode).toBe(401);
    expect(apiErrorSchema.parse(response.json()).code).toBe('UNAUTHENTICATED');
  });

  it('ends a session at its absolute limit however active it is', async () => {
    await h.createMember('Joan Clarke', '3461');
    const { session } = await h.signIn('Joan Clarke', '3461');
    await h.db.updateTable('sessions').set({ expires_at: Date.now() - 1000 }).where('token_hash', '=', hashToken(session)).execute();
    expect(await h.userStatus(session)).toBe(401);
  });

  it('writes last_seen_at at most once a minute per session', async () => {
    await h.createMember('Annie Easley', '5829');
    const { session } = await h.signIn('Annie Easley', '5829');
    const lastSeen = async () => (await h.sessionRow(session))?.last_seen_at;
    const initial = await lastSeen();
    expect(initial).toBeGreaterThan(0);

    expect(await h.userStatus(session)).toBe(200);
    expect(await h.userStatus(session)).toBe(200);
    expect(await lastSeen()).toBe(initial);

    const twoMinutesAgo = Date.now() - 2 * MINUTE;
    await h.db.updateTable('sessions').set({ last_seen_at: twoMinutesAgo }).where('token_hash', '=', hashToken(session)).execute();
    const beforeRequest = Date.now();
    expect(await h.userStatus(session)).toBe(200);
    const refreshed = await lastSeen();
    expect(refreshed).toBeGreaterThanOrEqual(beforeRequest);

    // And the next request within the minute leaves it alone again.
    expect(await h.userStatus(session)).toBe(200);
    expect(await lastSeen()).toBe(refreshed);
  });

  it('ends the sessions of a member who is no longer active', async () => {
    const member = await h.createMember('Rita Retired', '6173');
    const { session } = await h.signIn('Rita Retired', '6173');
    await h.db.updateTable('members').set({ active: 0 }).where('id', '=', member.id).execute();
    expect(await h.userStatus(session)).toBe(401);
  });
});

describe('session limits from the configuration', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await sessionHarness({ session: { idleMs: 5 * MINUTE, absoluteMs: 2 * 3_600_000, cacheMs: 0 } });
  });
  afterAll(async () => {
    await h.testApp.close();
  });

  it('uses the configured idle and absolute timeouts', async () => {
    await h.createMember('Sophie Wilson', '8306');
    const response = await h.post('/api/login', { password: TEST_SECRETS.teamPassword, name: 'Sophie Wilson', pin: '8306' });
    expect(response.statusCode).toBe(200);
    const session = cookieNamed(response, 'biggy_session');
    expect(session.maxAge).toBe(2 * 3600);
    const row = await h.sessionRow(session.value);
    expect((row?.expires_at ?? 0) - (row?.created_at ?? 0)).toBe(2 * 3_600_000);

    const setLastSeen = (at: number) => h.db.updateTable('sessions').set({ last_seen_at: at }).where('token_hash', '=', hashToken(session.value)).execute();
    await setLastSeen(Date.now() - 5 * MINUTE + 1000);
    expect(await h.userStatus(session.value)).toBe(200);
    // The stored last-seen time lags by up to a tenth of the idle limit (30 s here), which the check allows for.
    await setLastSeen(Date.now() - 5 * MINUTE - 29_000);
    expect(await h.userStatus(session.value)).toBe(200);
    await setLastSeen(Date.now() - 5 * MINUTE - 31_000);
    expect(await h.userStatus(session.value)).toBe(401);
  });
});

describe('session cookies behind an HTTPS proxy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await sessionHarness({ trustProxy: 1 });
  });
  afterAll(async () => {
    await h.testApp.close();
  });

  const https = { ...JSON_HEADERS, 'x-forwarded-proto': 'https' };

  it('are Secure and __Host- prefixed, and only those are read over HTTPS', async () => {
    await h.createMember('Radia Perlman', '5566');
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: https,
      payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name: 'Radia Perlman', pin: '5566' }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.cookies.map((cookie) => cookie.name).sort()).toEqual(['__Host-biggy_device', '__Host-biggy_session']);
    for (const cookie of response.cookies) {
      expect(cookie.secure, cookie.name).toBe(true);
      expect(cookie.httpOnly, cookie.name).toBe(true);
      expect(cookie.sameSite, cookie.name).toBe('Lax');
      // __Host- demands Path=/ and no Domain, or browsers drop the cookie.
      expect(cookie.path, cookie.name).toBe('/');
      expect(cookie.domain, cookie.name).toBeUndefined();
    }
    const session = cookieNamed(response, '__Host-biggy_session').value;
    const user = (cookies: Record<string, string>) => h.app.inject({ method: 'GET', url: '/api/user', headers: { 'x-forwarded-proto': 'https' }, cookies });
    expect((await user({ '__Host-biggy_session': session })).statusCode).toBe(200);
    expect((await user({ biggy_session: session })).statusCode).toBe(401);

    const logout = await h.app.inject({ method: 'POST', url: '/api/logout', headers: https, cookies: { '__Host-biggy_session': session } });
    expect(logout.statusCode).toBe(200);
    const cleared = cookieNamed(logout, '__Host-biggy_session');
    expect(cleared.value).toBe('');
    expect(cleared.secure).toBe(true);
    expect((await user({ '__Host-biggy_session': session })).statusCode).toBe(401);
  });

  it('are plain over plain HTTP, even behind the trusted proxy', async () => {
    await h.createMember('Adele Goldberg', '6677');
    const response = await h.post('/api/login', { password: TEST_SECRETS.teamPassword, name: 'Adele Goldberg', pin: '6677' });
    expect(response.cookies.map((cookie) => cookie.name).sort()).toEqual(['biggy_device', 'biggy_session']);
    expect(response.cookies.every((cookie) => cookie.secure !== true)).toBe(true);
  });
});

describe('the idle limit against once-a-minute last-seen writes', () => {
  const IDLE = 30 * MINUTE;
  const STEP = 59_000;
  let h: Harness;
  let store: SessionStore;
  let memberId: number;
  beforeAll(async () => {
    h = await sessionHarness();
    store = new SessionStore(h.db, { idleMs: IDLE, absoluteMs: 12 * 60 * MINUTE });
    memberId = (await h.createMember('Frances Allen', '5062')).id;
  });
  afterAll(async () => {
    await h.testApp.close();
  });

  /**
   * Requests 59 s apart from t0: last_seen_at is written only when a minute has passed since the
   * stored value, so after an odd number of steps the stored value is 59 s older than the request.
   */
  async function activeUntil(t0: number, steps: number) {
    const token = await store.createSession(memberId, { ip: '127.0.0.1', userAgent: undefined }, t0);
    let last = t0;
    for (let step = 1; step <= steps; step += 1) {
      last = t0 + step * STEP;
      expect(await store.findSession(token, last), `request ${step}`).toBeDefined();
    }
    const stored = await h.sessionRow(token);
    expect(last - (stored?.last_seen_at ?? 0)).toBe(STEP);
    return { token, last };
  }

  it('keeps a member who made a request within the idle limit signed in', async () => {
    const { token, last } = await activeUntil(Date.now(), 9);
    expect(await store.findSession(token, last + IDLE - 1000, { touch: false })).toBeDefined();
    await store.deleteExpired(last + IDLE - 1000);
    expect(await h.sessionRow(token)).toBeDefined();
  });

  it('ends the session at most a minute after the idle limit', async () => {
    const { token, last } = await activeUntil(Date.now(), 9);
    expect(await store.findSession(token, last + IDLE + MINUTE, { touch: false })).toBeUndefined();
    await store.deleteExpired(last + IDLE + MINUTE);
    expect(await h.sessionRow(token)).toBeUndefined();
  });
});
