import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authRoutes, TEAM_PASSWORD_HEADER } from '../../../common/api/auth.js';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { findMemberByKey, setFirstPinHash } from '../members/repo.js';
import { addMember } from '../members/service.js';
import { issueEnrollmentLink } from '../enrollment/service.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../../test/test-app.js';
import { hashPin } from './secrets.js';

/**
 * The per-address sign-in limit (10 a minute here, the default) counts failures only: a team behind
 * one office address signs in and enrolls together, while a guesser is still stopped.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const PASSWORD = TEST_SECRETS.teamPassword;
const LIMIT = 10;

describe('the per-address sign-in limit counts failures only', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: LIMIT });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function createMember(name: string, pin?: string): Promise<number> {
    await addMember(app.database.db, name);
    const member = await findMemberByKey(app.database.db, nameKey(name));
    if (member === undefined) throw new Error(`no member ${name}`);
    if (pin !== undefined) await setFirstPinHash(app.database.db, member.id, await hashPin(pin, TEST_SECRETS.pinPepper));
    return member.id;
  }

  const post = (url: string, payload: unknown, remoteAddress: string, cookies: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload), remoteAddress, cookies });
  const login = (name: string, pin: string, remoteAddress: string, password: string = PASSWORD) => post('/api/login', { password, name, pin }, remoteAddress);

  /** Opens the member's enrollment link and creates the PIN, as a browser does; the statuses of each step. */
  async function enroll(memberId: number, name: string, pin: string, remoteAddress: string): Promise<number[]> {
    const link = await issueEnrollmentLink(app.database.db, memberId, 'http://review.test');
    const opened = await app.inject({ method: 'GET', url: new URL(link.url).pathname, remoteAddress });
    const cookies = Object.fromEntries(opened.cookies.map((cookie) => [cookie.name, cookie.value]));
    const status = await app.inject({ method: 'GET', url: '/api/enrollment', remoteAddress, cookies });
    const names = await app.inject({ method: 'GET', url: authRoutes.teamMemberNames.path, remoteAddress, headers: { [TEAM_PASSWORD_HEADER]: PASSWORD } });
    const first = await post('/api/login', { password: PASSWORD, name, pin: '' }, remoteAddress, cookies);
    const setup = await post('/api/setup-pin', { password: PASSWORD, name, pin }, remoteAddress, cookies);
    return [opened.statusCode, status.statusCode, names.statusCode, first.statusCode, setup.statusCode];
  }

  it('lets 20 successful sign-ins from one address through within a minute', async () => {
    await createMember('Olive Office', '8024');
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) statuses.push((await login('Olive Office', '8024', '192.0.2.10')).statusCode);
    expect(statuses).toEqual(Array<number>(20).fill(200));
  });

  it('lets a whole team enroll from one address within a minute', async () => {
    const statuses: number[][] = [];
    for (let i = 0; i < 8; i += 1) {
      const name = `Kickoff Member ${String.fromCharCode(65 + i)}`;
      statuses.push(await enroll(await createMember(name), name, '8024', '192.0.2.11'));
    }
    expect(statuses).toEqual(Array.from({ length: 8 }, () => [303, 200, 200, 202, 200]));
  });

  it('still refuses failed attempts past the limit, with Retry-After', async () => {
    await createMember('Gus Guessed', '3579');
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i += 1) statuses.push((await login('Gus Guessed', '3579', '192.0.2.12', 'wrong-password')).statusCode);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429, 429]);
    const refused = await login('Gus Guessed', '3579', '192.0.2.12');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('counts only the failures of a mix', async () => {
    await createMember('Mia Mixed', '4680');
    const statuses: string[] = [];
    for (let i = 0; i < LIMIT - 1; i += 1) {
      statuses.push(`ok ${(await login('Mia Mixed', '4680', '192.0.2.13')).statusCode}`);
      statuses.push(`bad ${(await login('Mia Mixed', '4680', '192.0.2.13', 'wrong-password')).statusCode}`);
      statuses.push(`ok ${(await login('Mia Mixed', '4680', '192.0.2.13')).statusCode}`);
    }
    expect(statuses).toEqual(Array.from({ length: LIMIT - 1 }, () => ['ok 200', 'bad 401', 'ok 200']).flat());
    // The tenth failure is the last one allowed; after it, the address waits, successes too.
    expect((await login('Mia Mixed', '4680', '192.0.2.13', 'wrong-password')).statusCode).toBe(401);
    expect((await login('Mia Mixed', '4680', '192.0.2.13', 'wrong-password')).statusCode).toBe(429);
    expect((await login('Mia Mixed', '4680', '192.0.2.13')).statusCode).toBe(429);
  });

  it('counts an invalid enrollment link as a failure, and an over-limit link still lands in the app', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await login('Nobody Known', '8024', '192.0.2.14', 'wrong-password')).statusCode).toBe(401);
    const memberId = await createMember('Lena Late');
    const link = await issueEnrollmentLink(app.database.db, memberId, 'http://review.test');
    // The link itself checks nothing: it redirects into the app, which asks GET /api/enrollment.
    const opened = await app.inject({ method: 'GET', url: new URL(link.url).pathname, remoteAddress: '192.0.2.14' });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/');
    const cookies = Object.fromEntries(opened.cookies.map((cookie) => [cookie.name, cookie.value]));
    const status = await app.inject({ method: 'GET', url: '/api/enrollment', remoteAddress: '192.0.2.14', cookies });
    expect(status.statusCode).toBe(429);
    expect(Number(status.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(status.json<{ code: string; message: string }>()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many sign-in attempts from this address; try again in /) as unknown });

    // From another address, a made-up token is a failed guess: counted.
    const guessed = { [opened.cookies[0]?.name ?? '']: 'A'.repeat(43) };
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i += 1) statuses.push((await app.inject({ method: 'GET', url: '/api/enrollment', remoteAddress: '192.0.2.15', cookies: guessed })).statusCode);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
  });
});
