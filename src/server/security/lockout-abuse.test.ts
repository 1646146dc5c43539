import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameKey } from '../../common/names.js';
import type { App } from '../http/types.js';
import { hashPin } from '../modules/auth/secrets.js';
import { findMemberByKey, setFirstPinHash } from '../modules/members/repo.js';
import { addMember, resetMemberPin, unlockMember } from '../modules/members/service.js';
import { issueEnrollmentLink } from '../modules/enrollment/service.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';
import { expectApiError } from '../test/api-errors.js';

/**
 * Locking a member out without knowing anything: only attempts that proved the team password (or
 * hold the member's device) count against a name; everything else is limited per address only.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const PASSWORD = TEST_SECRETS.teamPassword;

/** 100 different addresses, so that the per-address limit does not hide the per-name rule. */
const strangerAddress = (i: number) => `203.0.113.${i + 1}`;

describe('lockout abuse', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function createMember(name: string, pin: string) {
    await addMember(app.database.db, name);
    const member = await findMemberByKey(app.database.db, nameKey(name));
    if (member === undefined) throw new Error(`no member ${name}`);
    await setFirstPinHash(app.database.db, member.id, await hashPin(pin, TEST_SECRETS.pinPepper));
  }

  const post = (url: string, payload: unknown, remoteAddress: string, cookies: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload), remoteAddress, cookies });
  const login = (name: string, pin: string, remoteAddress: string, password: string = PASSWORD) => post('/api/login', { password, name, pin }, remoteAddress);

  it('leaves Bob able to sign in after a stranger sends 100 wrong-password attempts for him', async () => {
    await createMember('Bob Builder', '8024');
    for (let i = 0; i < 100; i += 1) {
      expectApiError(await login('Bob Builder', '0000', strangerAddress(i), 'not-the-team-password'), 401, 'INVALID_CREDENTIALS');
    }
    const lock = await app.database.db.selectFrom('login_locks').selectAll().where('name_key', '=', nameKey('Bob Builder')).executeTakeFirst();
    expect(lock).toBeUndefined();
    expect((await login('Bob Builder', '8024', '198.51.100.7')).statusCode).toBe(200);
  });

  it('leaves a member able to sign in after 100 quick logins without their device', async () => {
    await createMember('Quinn Quick', '3579');
    for (let i = 0; i < 100; i += 1) {
      expectApiError(await post('/api/quick-login', { name: 'Quinn Quick', pin: '0000' }, strangerAddress(i)), 401, 'INVALID_CREDENTIALS');
    }
    expect((await login('Quinn Quick', '3579', '198.51.100.8')).statusCode).toBe(200);
  });

  it('limits the stranger per address: the 11th attempt in a minute from one address is refused', async () => {
    await createMember('Ivy Address', '4680');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await login('Ivy Address', '4680', '192.0.2.99', 'wrong-password')).statusCode);
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429, 429]);
    expect((await login('Ivy Address', '4680', '192.0.2.100')).statusCode).toBe(200);
  });

  it('still locks an insider who knows the team password after 5 wrong PINs, for at most an hour', async () => {
    await createMember('Lena Locked', '9753');
    for (let i = 0; i < 4; i += 1) expectApiError(await login('Lena Locked', '0000', strangerAddress(i)), 401, 'INVALID_CREDENTIALS');
    const fifth = await login('Lena Locked', '0000', strangerAddress(4));
    expectApiError(fifth, 429, 'LOCKED_OUT');
    expect(Number(fifth.headers['retry-after'])).toBeLessThanOrEqual(3600);
    expectApiError(await login('Lena Locked', '9753', '198.51.100.9'), 429, 'LOCKED_OUT');
    // Repeated locks stop growing at an hour.
    for (let round = 0; round < 4; round += 1) {
      await app.database.db.updateTable('login_locks').set({ locked_until: Date.now() - 1 }).where('name_key', '=', nameKey('Lena Locked')).execute();
      for (let i = 0; i < 4; i += 1) await login('Lena Locked', '0000', strangerAddress(10 + i));
      const locked = await login('Lena Locked', '0000', strangerAddress(20));
      expectApiError(locked, 429, 'LOCKED_OUT');
      expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(3600);
    }
  });

  it("lifts a lock with the admin's unlock, and with a PIN reset", async () => {
    await createMember('Uma Unlock', '3816');
    for (let i = 0; i < 5; i += 1) await login('Uma Unlock', '0000', strangerAddress(i));
    expectApiError(await login('Uma Unlock', '3816', '198.51.100.10'), 429, 'LOCKED_OUT');
    expect((await unlockMember(app.database.db, 'uma unlock'))?.full_name).toBe('Uma Unlock');
    expect((await login('Uma Unlock', '3816', '198.51.100.10')).statusCode).toBe(200);

    for (let i = 0; i < 5; i += 1) await login('Uma Unlock', '0000', strangerAddress(i));
    expectApiError(await login('Uma Unlock', '3816', '198.51.100.10'), 429, 'LOCKED_OUT');
    await resetMemberPin(app.database.db, 'Uma Unlock', 'test', { publicUrl: 'http://review.test', notifyEnded: () => Promise.resolve() });
    expect(await app.database.db.selectFrom('login_locks').selectAll().where('name_key', '=', nameKey('Uma Unlock')).executeTakeFirst()).toBeUndefined();
  });
});

/**
 * An insider with the team password can still lock a name, but only for devices the member never
 * signed in on: the member's own remembered device, their devices and their enrollment link are
 * untouched, and the audit shows where the wrong PINs came from.
 */
describe('a lock holds for unknown devices only', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 1_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const ATTACKER = { remoteAddress: '203.0.113.66', userAgent: 'InsiderBrowser/6.6' };
  const OWNER = { remoteAddress: '198.51.100.40', userAgent: 'OwnerBrowser/1.0' };

  const post = (url: string, payload: unknown, from: { remoteAddress: string; userAgent: string }, cookies: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: { ...JSON_HEADERS, 'user-agent': from.userAgent }, payload: JSON.stringify(payload), remoteAddress: from.remoteAddress, cookies });
  const login = (name: string, pin: string, from: { remoteAddress: string; userAgent: string }, cookies: Record<string, string> = {}) =>
    post('/api/login', { password: PASSWORD, name, pin }, from, cookies);
  const deviceOf = (response: { cookies: { name: string; value: string }[] }) => {
    const device = response.cookies.find((cookie) => cookie.name === 'biggy_device')?.value;
    if (device === undefined) throw new Error('no device cookie');
    return device;
  };
  async function lockByInsider(name: string) {
    for (let i = 0; i < 4; i += 1) expectApiError(await login(name, '0000', ATTACKER), 401, 'INVALID_CREDENTIALS');
    expectApiError(await login(name, '0000', ATTACKER), 429, 'LOCKED_OUT');
  }
  async function createMember(name: string, pin: string) {
    await addMember(app.database.db, name);
    const member = await findMemberByKey(app.database.db, nameKey(name));
    if (member === undefined) throw new Error(`no member ${name}`);
    await setFirstPinHash(app.database.db, member.id, await hashPin(pin, TEST_SECRETS.pinPepper));
  }
  const deviceCount = async (name: string) => {
    const member = await findMemberByKey(app.database.db, nameKey(name));
    return (await app.database.db.selectFrom('device_tokens').select('token_hash').where('member_id', '=', member?.id ?? -1).execute()).length;
  };

  it("lets the member's remembered device sign in while the lock holds, and revokes no device", async () => {
    await createMember('Rita Remembered', '8024');
    const first = await login('Rita Remembered', '8024', OWNER);
    expect(first.statusCode, first.body).toBe(200);
    const device = deviceOf(first);
    expect(await deviceCount('Rita Remembered')).toBe(1);

    await lockByInsider('Rita Remembered');
    expect(await deviceCount('Rita Remembered')).toBe(1);

    const quick = await post('/api/quick-login', { name: 'Rita Remembered', pin: '8024' }, OWNER, { biggy_device: device });
    expect(quick.statusCode, quick.body).toBe(200);
    const full = await login('Rita Remembered', '8024', OWNER, { biggy_device: device });
    expect(full.statusCode, full.body).toBe(200);
    // A device the member never used is still refused, and the owner's sign-in did not lift the lock.
    expectApiError(await login('Rita Remembered', '8024', { remoteAddress: '198.51.100.41', userAgent: 'Other/1.0' }), 429, 'LOCKED_OUT');
  });

  it('never blocks an enrollment link', async () => {
    await addMember(app.database.db, 'Eli Enrolling');
    const member = await findMemberByKey(app.database.db, nameKey('Eli Enrolling'));
    if (member === undefined) throw new Error('no member');
    await lockByInsider('Eli Enrolling');
    const link = await issueEnrollmentLink(app.database.db, member.id, 'http://review.test');
    const opened = await app.inject({ method: 'GET', url: new URL(link.url).pathname, remoteAddress: OWNER.remoteAddress });
    const cookies = Object.fromEntries(opened.cookies.map((cookie) => [cookie.name, cookie.value]));
    expect((await login('Eli Enrolling', '', OWNER, cookies)).statusCode).toBe(202);
    const setup = await post('/api/setup-pin', { password: PASSWORD, name: 'Eli Enrolling', pin: '8024' }, OWNER, cookies);
    expect(setup.statusCode, setup.body).toBe(200);
  });

  it('audits the address and device of every failed attempt and of the lock', async () => {
    await createMember('Audra Audited', '8024');
    await lockByInsider('Audra Audited');
    const entries = await app.database.db.selectFrom('audit_log').selectAll().where('actor_name', '=', 'Audra Audited').orderBy('id').execute();
    const failures = entries.filter((entry) => entry.event === 'sign-in' && entry.outcome === 'failure');
    expect(failures).toHaveLength(5);
    for (const entry of failures) {
      expect(entry.ip).toBe(ATTACKER.remoteAddress);
      expect(entry.detail).toContain(ATTACKER.userAgent);
    }
    const lock = entries.find((entry) => entry.event === 'lockout' && entry.outcome === 'locked');
    expect(lock?.ip).toBe(ATTACKER.remoteAddress);
    expect(lock?.detail).toContain(ATTACKER.userAgent);
    expect(lock?.detail).toMatch(/unknown devices/);
  });

  it('locks only the remembered device its wrong PINs were typed on, and forgets no device', async () => {
    await createMember('Dev Device', '8024');
    const device = deviceOf(await login('Dev Device', '8024', OWNER));
    const quick = (pin: string) => post('/api/quick-login', { name: 'Dev Device', pin }, OWNER, { biggy_device: device });
    for (let i = 0; i < 4; i += 1) expectApiError(await quick('0000'), 401, 'INVALID_CREDENTIALS');
    expectApiError(await quick('0000'), 429, 'LOCKED_OUT');
    expectApiError(await quick('8024'), 429, 'LOCKED_OUT');
    expect(await deviceCount('Dev Device')).toBe(1);
    // The name is not locked for a full sign-in elsewhere.
    expect((await login('Dev Device', '8024', { remoteAddress: '198.51.100.42', userAgent: 'Laptop/2.0' })).statusCode).toBe(200);
    // The admin's unlock lifts the device's lock too.
    await unlockMember(app.database.db, 'Dev Device');
    expect((await quick('8024')).statusCode).toBe(200);
  });
});
