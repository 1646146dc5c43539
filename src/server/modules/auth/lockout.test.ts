import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSessionResponseSchema } from '../../../common/contract/auth.js';
import { AUTH_MESSAGES, TEAM_PASSWORD_HEADER } from '../../../common/api/auth.js';
import { nameKey } from '../../../common/names.js';
import { buildApp } from '../../app.js';
import type { AppConfig } from '../../config.js';
import type { App } from '../../http/types.js';
import { TEST_SECRETS, createTestApp, testConfig, type TestApp } from '../../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { findMemberByKey, setFirstPinHash } from '../members/repo.js';
import { addMember } from '../members/service.js';
import { hashPin } from './secrets.js';
import { expectApiError } from '../../test/api-errors.js';

/** The per-name lockout and the per-IP sign-in limit, both kept in the database. */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const PASSWORD = TEST_SECRETS.teamPassword;
const FIRST_LOCK_SECONDS = 15 * 60;

function cookieValue(response: LightMyRequestResponse, name: string): string {
  const found = response.cookies.find((cookie) => cookie.name === name);
  if (found === undefined) throw new Error(`the response sets no ${name} cookie (status ${response.statusCode}: ${response.body})`);
  return found.value;
}

/** The Retry-After of a 429, in seconds; fails the test when it is missing or not a number. */
function retryAfter(response: LightMyRequestResponse): number {
  expect(response.statusCode, response.body).toBe(429);
  const header = response.headers['retry-after'];
  expect(typeof header, 'Retry-After header').toBe('string');
  const seconds = Number(header);
  expect(Number.isInteger(seconds), `Retry-After "${String(header)}"`).toBe(true);
  return seconds;
}

/** The sign-in calls of one app, from a client address the caller chooses. */
function signInCalls(app: App) {
  const post = (url: string, payload: unknown, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload), ...options });

  async function createMember(name: string, pin?: string) {
    await addMember(app.database.db, name);
    const member = await findMemberByKey(app.database.db, nameKey(name));
    if (member === undefined) throw new Error(`member ${name} was not created`);
    if (pin !== undefined) await setFirstPinHash(app.database.db, member.id, await hashPin(pin, TEST_SECRETS.pinPepper));
    return member;
  }

  return {
    createMember,
    login: (name: string, pin: string, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
      post('/api/login', { password: PASSWORD, name, pin }, options),
    loginWith: (payload: unknown, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) => post('/api/login', payload, options),
    setupPin: (name: string, pin: string, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
      post('/api/setup-pin', { password: PASSWORD, name, pin }, options),
    quickLogin: (name: string, pin: string, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
      post('/api/quick-login', { name, pin }, options),
    forgotPin: (memberName: string, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
      post('/api/forgot-pin', { memberName }, options),
    names: (options: Omit<InjectOptions, 'method' | 'url'> = {}) => app.inject({ method: 'GET', url: '/api/team-members/names', ...options }),
  };
}

describe('per-name lockout', () => {
  let testApp: TestApp;
  let app: App;
  let calls: ReturnType<typeof signInCalls>;
  beforeAll(async () => {
    // The per-IP limit is tested below; here it would hide the per-name rule.
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
    calls = signInCalls(app);
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function failTimes(name: string, count: number) {
    for (let i = 1; i <= count; i += 1) {
      expectApiError(await calls.login(name, '0000'), 401, 'INVALID_CREDENTIALS');
    }
  }

  const expireLock = (name: string) =>
    app.database.db.updateTable('login_locks').set({ locked_until: Date.now() - 1000 }).where('name_key', '=', nameKey(name)).execute();

  it('locks a name for 15 minutes at the 5th consecutive wrong PIN, and refuses even the right PIN then', async () => {
    await calls.createMember('Ada Lovelace', '3816');
    await failTimes('Ada Lovelace', 4);
    const fifth = await calls.login('Ada Lovelace', '0000');
    const body = expectApiError(fifth, 429, 'LOCKED_OUT');
    const seconds = retryAfter(fifth);
    expect(seconds).toBeGreaterThanOrEqual(FIRST_LOCK_SECONDS - 5);
    expect(seconds).toBeLessThanOrEqual(FIRST_LOCK_SECONDS);
    expect(body.message).not.toBe(AUTH_MESSAGES.invalidCredentials);

    const sixth = await calls.login('Ada Lovelace', '3816');
    expectApiError(sixth, 429, 'LOCKED_OUT');
    expect(retryAfter(sixth)).toBeLessThanOrEqual(seconds);
    expect(sixth.cookies).toEqual([]);

    // The lock is on the name, whatever spelling tries it with the team password; creating a PIN
    // is not held by it (only the enrollment link decides there).
    expectApiError(await calls.login('  ADA   lovelace ', '3816'), 429, 'LOCKED_OUT');
    expectApiError(await calls.setupPin('Ada Lovelace', '3816'), 403, 'ENROLLMENT_REQUIRED');
    // A request that proves nothing learns nothing, not even that the name is locked.
    expectApiError(await calls.quickLogin('Ada Lovelace', '3816'), 401, 'INVALID_CREDENTIALS');
    expectApiError(await calls.loginWith({ password: 'wrong-team-password', name: 'Ada Lovelace', pin: '3816' }), 401, 'INVALID_CREDENTIALS');
  });

  it('counts failures per name: another member signs in meanwhile', async () => {
    await calls.createMember('Alan Turing', '5062');
    await calls.createMember('Grace Hopper', '9753');
    await failTimes('Alan Turing', 4);
    expectApiError(await calls.login('Alan Turing', '0000'), 429, 'LOCKED_OUT');
    expect((await calls.login('Grace Hopper', '9753')).statusCode).toBe(200);
  });

  it('resets the count on a success before the 5th failure', async () => {
    await calls.createMember('Katherine Johnson', '4682');
    await failTimes('Katherine Johnson', 4);
    expect((await calls.login('Katherine Johnson', '4682')).statusCode).toBe(200);
    await failTimes('Katherine Johnson', 4);
    expect((await calls.login('Katherine Johnson', '4682')).statusCode).toBe(200);
  });

  it('counts every spelling of a name toward the same lock, but not wrong team passwords, setups or device-less quick logins', async () => {
    await calls.createMember('Dorothy Vaughan', '3579');
    expectApiError(await calls.login('dorothy vaughan', '0000'), 401, 'INVALID_CREDENTIALS');
    expectApiError(await calls.login('DOROTHY VAUGHAN', '0001'), 401, 'INVALID_CREDENTIALS');
    for (let i = 0; i < 5; i += 1) {
      expectApiError(await calls.loginWith({ password: 'wrong-team-password', name: 'Dorothy Vaughan', pin: '3579' }), 401, 'INVALID_CREDENTIALS');
      expectApiError(await calls.setupPin(' Dorothy  Vaughan ', '7139'), 403, 'ENROLLMENT_REQUIRED');
      expectApiError(await calls.quickLogin('Dorothy Vaughan', '0000'), 401, 'INVALID_CREDENTIALS');
    }
    expectApiError(await calls.login('Dorothy Vaughan', '0002'), 401, 'INVALID_CREDENTIALS');
    expectApiError(await calls.login('Dorothy  Vaughan', '0003'), 401, 'INVALID_CREDENTIALS');
    expectApiError(await calls.login('dorothy Vaughan', '0004'), 429, 'LOCKED_OUT');
  });

  it('locks an unknown name the same way, so a lock reveals nothing about membership', async () => {
    await failTimes('Nobody Known', 4);
    const locked = await calls.login('Nobody Known', '0000');
    expectApiError(locked, 429, 'LOCKED_OUT');
    expect(retryAfter(locked)).toBeGreaterThanOrEqual(FIRST_LOCK_SECONDS - 5);
    expectApiError(await calls.login('Nobody Known', '1234'), 429, 'LOCKED_OUT');
  });

  it('doubles each further lock up to an hour, and a success resets the doubling', async () => {
    await calls.createMember('Mary Jackson', '4680');
    const lockAndMeasure = async () => {
      await failTimes('Mary Jackson', 4);
      return retryAfter(await calls.login('Mary Jackson', '0000'));
    };
    const near = (seconds: number, expected: number) => {
      expect(seconds).toBeGreaterThanOrEqual(expected - 5);
      expect(seconds).toBeLessThanOrEqual(expected);
    };
    near(await lockAndMeasure(), FIRST_LOCK_SECONDS);
    await expireLock('Mary Jackson');
    near(await lockAndMeasure(), 2 * FIRST_LOCK_SECONDS);
    await expireLock('Mary Jackson');
    near(await lockAndMeasure(), 4 * FIRST_LOCK_SECONDS);
    await expireLock('Mary Jackson');
    near(await lockAndMeasure(), 3600);
    await expireLock('Mary Jackson');
    near(await lockAndMeasure(), 3600);

    await expireLock('Mary Jackson');
    expect((await calls.login('Mary Jackson', '4680')).statusCode).toBe(200);
    near(await lockAndMeasure(), FIRST_LOCK_SECONDS);
  });

  it("locks only the remembered device wrong PINs were typed on, and revokes no device", async () => {
    const hedy = await calls.createMember('Hedy Lamarr', '1212');
    await calls.createMember('Joan Clarke', '3461');
    const hedyDevice = cookieValue(await calls.login('Hedy Lamarr', '1212'), 'biggy_device');
    const joanDevice = cookieValue(await calls.login('Joan Clarke', '3461'), 'biggy_device');

    // Wrong PINs through quick login, from the remembered device itself.
    for (let i = 1; i <= 4; i += 1) {
      expectApiError(await calls.quickLogin('Hedy Lamarr', '0000', { cookies: { biggy_device: hedyDevice } }), 401, 'INVALID_CREDENTIALS');
    }
    expectApiError(await calls.quickLogin('Hedy Lamarr', '0000', { cookies: { biggy_device: hedyDevice } }), 429, 'LOCKED_OUT');
    expectApiError(await calls.quickLogin('Hedy Lamarr', '1212', { cookies: { biggy_device: hedyDevice } }), 429, 'LOCKED_OUT');

    // A lock never revokes remembered devices; the name is not locked for other devices.
    const devices = await app.database.db.selectFrom('device_tokens').select('member_id').where('member_id', '=', hedy.id).execute();
    expect(devices).toHaveLength(1);
    const check = async (device: string) =>
      checkSessionResponseSchema.parse((await app.inject({ method: 'GET', url: '/api/check-session', cookies: { biggy_device: device } })).json());
    expect(await check(hedyDevice)).toEqual({ canQuickLogin: true, memberName: 'Hedy Lamarr' });
    expect(await check(joanDevice)).toEqual({ canQuickLogin: true, memberName: 'Joan Clarke' });
    expect((await calls.login('Hedy Lamarr', '1212')).statusCode).toBe(200);
  });

  it('checks no more than 5 PINs of a burst of parallel guesses', async () => {
    await calls.createMember('Evelyn Boyd', '6173');
    // Twenty guesses at once, each from its own address: all pass the lock check before any fails.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => calls.login('Evelyn Boyd', String(7000 + i), { remoteAddress: `203.0.113.${100 + i}` })),
    );
    const statuses = burst.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 401).length, statuses.join(' ')).toBeLessThanOrEqual(4);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    const checked = await app.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('event', '=', 'sign-in')
      .where('outcome', '=', 'failure')
      .where('actor_name', '=', 'Evelyn Boyd')
      .execute();
    expect(checked.length).toBeLessThanOrEqual(5);
    expectApiError(await calls.login('Evelyn Boyd', '6173'), 429, 'LOCKED_OUT');
  });

  it('keeps the lock in the database until it expires', async () => {
    await calls.createMember('Annie Easley', '5829');
    await failTimes('Annie Easley', 4);
    expectApiError(await calls.login('Annie Easley', '0000'), 429, 'LOCKED_OUT');
    const row = await app.database.db.selectFrom('login_locks').selectAll().where('name_key', '=', nameKey('Annie Easley')).executeTakeFirst();
    expect(row?.lock_count).toBe(1);
    expect((row?.locked_until ?? 0) - Date.now()).toBeGreaterThan((FIRST_LOCK_SECONDS - 5) * 1000);
    await expireLock('Annie Easley');
    expect((await calls.login('Annie Easley', '5829')).statusCode).toBe(200);
  });
});

describe('a lock across a restart', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  const config = (): AppConfig => testConfig(database, { signInLimitPerMinute: 10_000 });

  it('still refuses the name after the app is restarted on the same database', async () => {
    const first = await buildApp(config(), { collectProcessMetrics: false });
    try {
      const calls = signInCalls(first);
      await calls.createMember('Margaret Hamilton', '7093');
      for (let i = 1; i <= 4; i += 1) expect((await calls.login('Margaret Hamilton', '0000')).statusCode).toBe(401);
      expectApiError(await calls.login('Margaret Hamilton', '0000'), 429, 'LOCKED_OUT');
    } finally {
      // Closes the app and its connections; the database stays.
      await first.close();
    }

    const second = await buildApp(config(), { collectProcessMetrics: false });
    try {
      const calls = signInCalls(second);
      const refused = await calls.login('Margaret Hamilton', '7093');
      expectApiError(refused, 429, 'LOCKED_OUT');
      const seconds = retryAfter(refused);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(FIRST_LOCK_SECONDS);
    } finally {
      await second.close();
    }
  });
});

describe('per-IP sign-in limit', () => {
  let testApp: TestApp;
  let calls: ReturnType<typeof signInCalls>;
  beforeAll(async () => {
    // The default configuration: 10 sign-in attempts a minute per address.
    testApp = await createTestApp();
    calls = signInCalls(testApp.app);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const LIMIT = 10;

  it('stops a spray of 20 names from one address at the 11th attempt, and lets other addresses through', async () => {
    await calls.createMember('Sophie Wilson', '8306');
    const sprayer = { remoteAddress: '203.0.113.10' };
    const statuses: number[] = [];
    let firstRefusal: LightMyRequestResponse | undefined;
    for (let i = 0; i < 20; i += 1) {
      const response = await calls.login(`Sprayed Name ${String.fromCharCode(65 + i)}`, '1234', sprayer);
      statuses.push(response.statusCode);
      if (response.statusCode === 429) firstRefusal ??= response;
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), ...Array<number>(20 - LIMIT).fill(429)]);
    if (firstRefusal === undefined) throw new Error('no attempt was refused');
    expectApiError(firstRefusal, 429, 'RATE_LIMITED');
    const seconds = retryAfter(firstRefusal);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);

    // Even the right credentials wait from that address…
    expectApiError(await calls.login('Sophie Wilson', '8306', sprayer), 429, 'RATE_LIMITED');
    // …while another address is served as usual.
    expectApiError(await calls.login('Sprayed Name Z', '1234', { remoteAddress: '203.0.113.11' }), 401, 'INVALID_CREDENTIALS');
    expect((await calls.login('Sophie Wilson', '8306', { remoteAddress: '203.0.113.12' })).statusCode).toBe(200);
  });

  it('shares one budget across login, setup-pin, quick-login, forgot-pin and names-with-password', async () => {
    const from = { remoteAddress: '198.51.100.20' };
    const withProof = { ...from, headers: { [TEAM_PASSWORD_HEADER]: PASSWORD } };
    // A right password is a success and gives its attempt back; a wrong one counts.
    const withWrongProof = { ...from, headers: { [TEAM_PASSWORD_HEADER]: 'not-the-team-password' } };
    const budget = [
      () => calls.login('Unknown One', '1234', from),
      () => calls.login('Unknown Two', '1234', from),
      () => calls.setupPin('Unknown Three', '1234', from),
      () => calls.setupPin('Unknown Four', '1234', from),
      () => calls.quickLogin('Unknown Five', '1234', from),
      () => calls.quickLogin('Unknown Six', '1234', from),
      () => calls.forgotPin('Unknown Seven', from),
      () => calls.forgotPin('Unknown Eight', from),
      () => calls.names(withWrongProof),
      () => calls.names(withWrongProof),
    ];
    expect(budget).toHaveLength(LIMIT);
    for (const attempt of budget) {
      const response = await attempt();
      expect(response.statusCode, response.body).not.toBe(429);
    }
    const beyond = [
      await calls.login('Unknown Nine', '1234', from),
      await calls.setupPin('Unknown Ten', '1234', from),
      await calls.quickLogin('Unknown Eleven', '1234', from),
      await calls.forgotPin('Unknown Twelve', from),
      await calls.names(withProof),
      await calls.names(from),
    ];
    for (const response of beyond) {
      expectApiError(response, 429, 'RATE_LIMITED');
      expect(retryAfter(response)).toBeGreaterThanOrEqual(1);
    }
  });

  it('does not count a signed-in member reading the names', async () => {
    await calls.createMember('Jean Sammet', '2354');
    const from = { remoteAddress: '198.51.100.30' };
    const session = cookieValue(await calls.login('Jean Sammet', '2354', from), 'biggy_session');
    for (let i = 0; i < 2 * LIMIT; i += 1) {
      expect((await calls.names({ ...from, cookies: { biggy_session: session } })).statusCode).toBe(200);
    }
    // The sign-in itself succeeded, so it used none of the budget: ten failures fit, the eleventh does not.
    for (let i = 0; i < LIMIT; i += 1) {
      expectApiError(await calls.login(`Other Name ${String.fromCharCode(65 + i)}`, '1234', from), 401, 'INVALID_CREDENTIALS');
    }
    expectApiError(await calls.login('Other Name Z', '1234', from), 429, 'RATE_LIMITED');
  });
});
