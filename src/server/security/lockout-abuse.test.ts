import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameKey } from '../../common/names.js';
import type { App } from '../http/types.js';
import { hashPin } from '../modules/auth/secrets.js';
import { findMemberByKey, setFirstPinHash } from '../modules/members/repo.js';
import { addMember, resetMemberPin, unlockMember } from '../modules/members/service.js';
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
    await createMember('Uma Unlock', '1357');
    for (let i = 0; i < 5; i += 1) await login('Uma Unlock', '0000', strangerAddress(i));
    expectApiError(await login('Uma Unlock', '1357', '198.51.100.10'), 429, 'LOCKED_OUT');
    expect((await unlockMember(app.database.db, 'uma unlock'))?.full_name).toBe('Uma Unlock');
    expect((await login('Uma Unlock', '1357', '198.51.100.10')).statusCode).toBe(200);

    for (let i = 0; i < 5; i += 1) await login('Uma Unlock', '0000', strangerAddress(i));
    expectApiError(await login('Uma Unlock', '1357', '198.51.100.10'), 429, 'LOCKED_OUT');
    await resetMemberPin(app.database.db, 'Uma Unlock', 'test', { publicUrl: 'http://review.test', notifyEnded: () => Promise.resolve() });
    expect(await app.database.db.selectFrom('login_locks').selectAll().where('name_key', '=', nameKey('Uma Unlock')).executeTakeFirst()).toBeUndefined();
  });
});
