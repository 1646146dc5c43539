import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollmentStatusSchema } from '../../common/contract/auth.js';
import { AUTH_MESSAGES } from '../../common/api/auth.js';
import { nameKey } from '../../common/names.js';
import type { App } from '../http/types.js';
import { findMemberByKey } from '../modules/members/repo.js';
import { addMember, ensureAdmin, newEnrollmentLink, resetMemberPin } from '../modules/members/service.js';
import { openEnrollmentLink, type SessionCookies } from '../test/sign-in.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';
import { expectApiError } from '../test/api-errors.js';

/**
 * Taking over a member who has no PIN yet: knowing the team password and a name must never be
 * enough. Only the browser that opened the member's one-time enrollment link may create the PIN.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const PASSWORD = TEST_SECRETS.teamPassword;

describe('enrollment links', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = (url: string, payload: unknown, cookies: SessionCookies = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload), cookies });
  const setupPin = (name: string, pin: string, cookies: SessionCookies = {}) => post('/api/setup-pin', { password: PASSWORD, name, pin }, cookies);
  const pinOf = async (name: string) => (await findMemberByKey(app.database.db, nameKey(name)))?.pin_hash ?? null;
  const status = async (cookies: SessionCookies) =>
    enrollmentStatusSchema.parse((await app.inject({ method: 'GET', url: '/api/enrollment', cookies })).json());

  it('refuses PIN setup to a holder of the team password without the enrollment cookie, for new members and the admin alike', async () => {
    await addMember(app.database.db, 'Nina New');
    expectApiError(await setupPin('Nina New', '8024'), 403, 'ENROLLMENT_REQUIRED');
    // ADMIN_NAME bootstrapped 'Avery Admin' without a PIN: the most valuable account to take over.
    expectApiError(await setupPin('Avery Admin', '8024'), 403, 'ENROLLMENT_REQUIRED');
    expect(await pinOf('Nina New')).toBeNull();
    expect(await pinOf('Avery Admin')).toBeNull();
  });

  it('lets the enrolled browser create the PIN once, then signs in with it', async () => {
    await addMember(app.database.db, 'Omar Once');
    const { cookies } = await openEnrollmentLink(app, 'Omar Once');
    expect(await status(cookies)).toEqual({ state: 'valid', memberName: 'Omar Once' });
    const created = await setupPin('omar once', '8024', cookies);
    expect(created.statusCode, created.body).toBe(200);
    // The answer clears the enrollment cookie; the link itself no longer works either.
    expect(created.cookies.find((cookie) => cookie.name === 'biggy_enrollment')?.value).toBe('');
    expect(await status(cookies)).toEqual({ state: 'invalid' });
    expect(await pinOf('Omar Once')).not.toBeNull();
    const login = await post('/api/login', { password: PASSWORD, name: 'Omar Once', pin: '8024' });
    expect(login.statusCode, login.body).toBe(200);
  });

  it('refuses a reused link, even when the PIN was cleared again meanwhile', async () => {
    await addMember(app.database.db, 'Rita Reuse');
    const { cookies } = await openEnrollmentLink(app, 'Rita Reuse');
    expect((await setupPin('Rita Reuse', '8024', cookies)).statusCode).toBe(200);
    await resetMemberPin(app.database.db, 'Rita Reuse', 'test', { publicUrl: 'http://review.test', notifyEnded: () => Promise.resolve() });
    expectApiError(await setupPin('Rita Reuse', '4817', cookies), 403, 'ENROLLMENT_REQUIRED');
    expect(await pinOf('Rita Reuse')).toBeNull();
  });

  it("refuses another member's link, whoever's name is sent", async () => {
    await addMember(app.database.db, 'Olga Owner');
    await addMember(app.database.db, 'Tim Target');
    const { cookies } = await openEnrollmentLink(app, 'Olga Owner');
    expectApiError(await setupPin('Tim Target', '8024', cookies), 403, 'ENROLLMENT_REQUIRED');
    expectApiError(await setupPin('Avery Admin', '8024', cookies), 403, 'ENROLLMENT_REQUIRED');
    expect(await pinOf('Tim Target')).toBeNull();
    // Olga's link still works for Olga.
    expect((await setupPin('Olga Owner', '8024', cookies)).statusCode).toBe(200);
  });

  it('refuses an expired link', async () => {
    await addMember(app.database.db, 'Evan Expired');
    const { cookies } = await openEnrollmentLink(app, 'Evan Expired');
    const member = await findMemberByKey(app.database.db, nameKey('Evan Expired'));
    if (member === undefined) throw new Error('no member');
    await app.database.db.updateTable('enrollment_tokens').set({ expires_at: Date.now() - 1 }).where('member_id', '=', member.id).execute();
    expect(await status(cookies)).toEqual({ state: 'invalid' });
    expectApiError(await setupPin('Evan Expired', '8024', cookies), 403, 'ENROLLMENT_REQUIRED');
  });

  it('refuses a link replaced by a newer one, and forged or malformed tokens', async () => {
    await addMember(app.database.db, 'Nora Newer');
    const first = await openEnrollmentLink(app, 'Nora Newer');
    const second = await openEnrollmentLink(app, 'Nora Newer');
    expectApiError(await setupPin('Nora Newer', '8024', first.cookies), 403, 'ENROLLMENT_REQUIRED');
    expectApiError(await setupPin('Nora Newer', '8024', { biggy_enrollment: 'A'.repeat(43) }), 403, 'ENROLLMENT_REQUIRED');
    expectApiError(await setupPin('Nora Newer', '8024', { biggy_enrollment: '../../etc' }), 403, 'ENROLLMENT_REQUIRED');
    const malformed = await app.inject({ method: 'GET', url: '/enroll/not-a-token' });
    expect(malformed.statusCode).toBe(303);
    expect(malformed.cookies.find((cookie) => cookie.name === 'biggy_enrollment')?.value).toBe('');
    expect((await setupPin('Nora Newer', '8024', second.cookies)).statusCode).toBe(200);
  });

  it('stores the link in an HttpOnly SameSite=Strict cookie, redirects to the sign-in screen, and keeps only a hash', async () => {
    await addMember(app.database.db, 'Hana Hash');
    const member = await findMemberByKey(app.database.db, nameKey('Hana Hash'));
    if (member === undefined) throw new Error('no member');
    const { link } = await newEnrollmentLink(app.database.db, 'Hana Hash', 'http://review.test');
    const token = link.url.slice('http://review.test/enroll/'.length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect(link.expiresAt - Date.now()).toBeLessThanOrEqual(72 * 3_600_000);
    const opened = await app.inject({ method: 'GET', url: `/enroll/${token}` });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/');
    expect(opened.headers['cache-control']).toBe('no-store');
    const cookie = opened.cookies.find((entry) => entry.name === 'biggy_enrollment');
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Strict', path: '/' });
    const rows = await app.database.db.selectFrom('enrollment_tokens').selectAll().where('member_id', '=', member.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(token);
  });

  it('gives "no PIN yet" and "wrong PIN" the same status and body without the enrollment cookie', async () => {
    await addMember(app.database.db, 'Una Unset');
    await addMember(app.database.db, 'Pia Pinned');
    const { cookies } = await openEnrollmentLink(app, 'Pia Pinned');
    expect((await setupPin('Pia Pinned', '7139', cookies)).statusCode).toBe(200);

    const noPinYet = await post('/api/login', { password: PASSWORD, name: 'Una Unset', pin: '8024' });
    const wrongPin = await post('/api/login', { password: PASSWORD, name: 'Pia Pinned', pin: '8024' });
    expect([noPinYet.statusCode, noPinYet.body]).toEqual([wrongPin.statusCode, wrongPin.body]);
    expectApiError(noPinYet, 401, 'INVALID_CREDENTIALS');

    const emptyNoPinYet = await post('/api/login', { password: PASSWORD, name: 'Una Unset', pin: '' });
    const emptyPinned = await post('/api/login', { password: PASSWORD, name: 'Pia Pinned', pin: '' });
    expect([emptyNoPinYet.statusCode, emptyNoPinYet.body]).toEqual([emptyPinned.statusCode, emptyPinned.body]);
    expectApiError(emptyNoPinYet, 400, 'PIN_REQUIRED', AUTH_MESSAGES.pinRequired);

    // The enrolled browser is told to create the PIN.
    const enrolled = await openEnrollmentLink(app, 'Una Unset');
    expect((await post('/api/login', { password: PASSWORD, name: 'Una Unset', pin: '' }, enrolled.cookies)).statusCode).toBe(202);
  });

  it('revokes a pending link when the member signs in', async () => {
    await addMember(app.database.db, 'Sam Signed');
    const first = await openEnrollmentLink(app, 'Sam Signed');
    expect((await setupPin('Sam Signed', '8024', first.cookies)).statusCode).toBe(200);
    const member = await findMemberByKey(app.database.db, nameKey('Sam Signed'));
    if (member === undefined) throw new Error('no member');
    // A link issued by mistake while the PIN exists dies with the next sign-in.
    const stray = await openEnrollmentLink(app, 'Sam Signed');
    expect((await post('/api/login', { password: PASSWORD, name: 'Sam Signed', pin: '8024' })).statusCode).toBe(200);
    expect(await app.database.db.selectFrom('enrollment_tokens').select('member_id').where('member_id', '=', member.id).execute()).toEqual([]);
    expect(await status(stray.cookies)).toEqual({ state: 'invalid' });
  });

  it('bootstraps the admin with a link when the admin has no PIN and no live link, and never over a PIN', async () => {
    const db = app.database.db;
    const first = await ensureAdmin(db, 'Avery Admin', 'http://review.test');
    // The app's own start issued one already: a restart does not replace a live link.
    expect(first).toBeUndefined();
    const admin = await findMemberByKey(db, nameKey('Avery Admin'));
    if (admin === undefined) throw new Error('no admin');
    await db.updateTable('enrollment_tokens').set({ expires_at: Date.now() - 1 }).where('member_id', '=', admin.id).execute();
    const renewed = await ensureAdmin(db, 'Avery Admin', 'http://review.test');
    expect(renewed?.url).toMatch(/^http:\/\/review\.test\/enroll\/[A-Za-z0-9_-]{43}$/);
    await db.updateTable('members').set({ pin_hash: 'set' }).where('id', '=', admin.id).execute();
    await db.deleteFrom('enrollment_tokens').where('member_id', '=', admin.id).execute();
    expect(await ensureAdmin(db, 'Avery Admin', 'http://review.test')).toBeUndefined();
    await expect(newEnrollmentLink(db, 'Avery Admin', 'http://review.test')).rejects.toThrow(/already has a PIN/);
  });
});
