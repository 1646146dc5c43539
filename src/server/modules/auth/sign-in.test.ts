import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSessionResponseSchema, pinSetupRequiredSchema, teamMemberNamesSchema } from '../../../common/contract/auth.js';
import { AUTH_MESSAGES, TEAM_PASSWORD_HEADER } from '../../../common/api/auth.js';
import { apiErrorSchema, messageResponseSchema } from '../../../common/contract/common.js';
import { currentUserSchema } from '../../../common/contract/user.js';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../../test/test-app.js';
import { openEnrollmentLink } from '../../test/sign-in.js';
import { clearPinHash, findMemberByKey, setFirstPinHash } from '../members/repo.js';
import { addMember } from '../members/service.js';
import { hashPin } from './secrets.js';
import { expectApiError } from '../../test/api-errors.js';

/**
 * The sign-in calls (docs/product.md, 'Signing in and the session') through HTTP: payloads, statuses, messages and cookies.
 * Sessions, lockout, the per-IP limit, roles and CSRF have files of their own.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const PASSWORD = TEST_SECRETS.teamPassword;

type InjectedCookie = LightMyRequestResponse['cookies'][number];

function cookieNamed(response: LightMyRequestResponse, name: string): InjectedCookie {
  const found = response.cookies.find((cookie) => cookie.name === name);
  if (found === undefined) throw new Error(`the response sets no ${name} cookie (status ${response.statusCode}: ${response.body})`);
  return found;
}

describe('sign-in calls', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    // The per-IP limit has its own tests; here it would only hide what each test is about.
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** A member of the team, with a PIN when one is given. */
  async function createMember(name: string, options: { pin?: string; email?: string } = {}) {
    await addMember(app.database.db, name, { email: options.email ?? null });
    const member = await findMemberByKey(app.database.db, nameKey(name));
    if (member === undefined) throw new Error(`member ${name} was not created`);
    if (options.pin !== undefined) await setFirstPinHash(app.database.db, member.id, await hashPin(options.pin, TEST_SECRETS.pinPepper));
    return member;
  }

  const post = (url: string, payload: unknown, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload), ...options });

  const login = (payload: unknown, cookies: Record<string, string> = {}) => post('/api/login', payload, { cookies });

  async function signIn(name: string, pin: string) {
    const response = await login({ password: PASSWORD, name, pin });
    expect(response.statusCode, response.body).toBe(200);
    return { session: cookieNamed(response, 'biggy_session').value, device: cookieNamed(response, 'biggy_device').value };
  }

  const getUser = (session?: string) =>
    app.inject({ method: 'GET', url: '/api/user', cookies: session === undefined ? {} : { biggy_session: session } });

  describe('GET /api/user', () => {
    it('answers 401 { message, code } when signed out, or with an unknown session cookie', async () => {
      expectApiError(await getUser(), 401, 'UNAUTHENTICATED');
      expectApiError(await getUser('not-a-session-token'), 401, 'UNAUTHENTICATED');
      expectApiError(await getUser(''), 401, 'UNAUTHENTICATED');
    });

    it('answers the current user plus the role, and what it allows, when signed in', async () => {
      await createMember('Ada Lovelace', { pin: '3816', email: 'ada@example.org' });
      const { session } = await signIn('Ada Lovelace', '3816');
      const response = await getUser(session);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        name: 'Ada Lovelace',
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.org',
        profileImageUrl: null,
        role: 'member',
        permissions: { canAdminister: false, canDecide: false },
      });
      // An admin is told the admin's permissions, from the same policies the routes check.
      const admin = await createMember('Grace Hopper', { pin: '7391' });
      await app.database.db.updateTable('members').set({ role: 'admin' }).where('id', '=', admin.id).execute();
      const adminUser = await getUser((await signIn('Grace Hopper', '7391')).session);
      expect(currentUserSchema.parse(adminUser.json())).toMatchObject({ role: 'admin', permissions: { canAdminister: true, canDecide: true } });
    });
  });

  describe('POST /api/login', () => {
    it('answers 202 with the canonical full name to the enrolled browser of a member who has no PIN yet, however the name was typed', async () => {
      await createMember('Grace Brewster Hopper');
      const { cookies } = await openEnrollmentLink(app, 'Grace Brewster Hopper');
      for (const typed of ['Grace Brewster Hopper', '  grace   BREWSTER hopper ', 'GRACE BREWSTER HOPPER']) {
        const response = await login({ password: PASSWORD, name: typed, pin: '' }, cookies);
        expect(response.statusCode, typed).toBe(202);
        const body = pinSetupRequiredSchema.parse(response.json());
        expect(body).toEqual({ pinSetupRequired: true, name: 'Grace Brewster Hopper', message: body.message });
        expect(body.message.length).toBeGreaterThan(0);
        // PIN setup signs nobody in: no session yet.
        expect(response.cookies).toEqual([]);
      }
      // An omitted PIN means the same as an empty one.
      expect((await login({ password: PASSWORD, name: 'Grace Brewster Hopper' }, cookies)).statusCode).toBe(202);
    });

    it("answers 400 'PIN is required' when the member has a PIN and none is sent", async () => {
      await createMember('Alan Turing', { pin: '5062' });
      expectApiError(await login({ password: PASSWORD, name: 'Alan Turing', pin: '' }), 400, 'PIN_REQUIRED', AUTH_MESSAGES.pinRequired);
      expectApiError(await login({ password: PASSWORD, name: 'alan turing' }), 400, 'PIN_REQUIRED', AUTH_MESSAGES.pinRequired);
    });

    it('signs in with the right PIN: 200 with the user, an HttpOnly SameSite=Lax session cookie and device cookie', async () => {
      await createMember('Katherine Johnson', { pin: '9753' });
      const response = await login({ password: PASSWORD, name: ' katherine  johnson', pin: '9753' });
      expect(response.statusCode, response.body).toBe(200);
      expect(currentUserSchema.parse(response.json())).toMatchObject({ name: 'Katherine Johnson', firstName: 'Katherine', lastName: 'Johnson', role: 'member' });

      const session = cookieNamed(response, 'biggy_session');
      const device = cookieNamed(response, 'biggy_device');
      for (const cookie of [session, device]) {
        expect(cookie.httpOnly, cookie.name).toBe(true);
        expect(cookie.sameSite, cookie.name).toBe('Lax');
        expect(cookie.path, cookie.name).toBe('/');
        // Plain HTTP: a Secure cookie would never come back.
        expect(cookie.secure, cookie.name).toBeFalsy();
        expect(cookie.domain, cookie.name).toBeUndefined();
        // 256 random bits, base64url.
        expect(cookie.value, cookie.name).toMatch(/^[A-Za-z0-9_-]{43}$/);
      }
      expect(session.value).not.toBe(device.value);
      expect(session.maxAge).toBe(12 * 3600);
      expect(device.maxAge).toBe(30 * 24 * 3600);

      expect((await getUser(session.value)).statusCode).toBe(200);
    });

    it('gives a wrong PIN, a wrong team password and an unknown name the very same 401', async () => {
      await createMember('Dorothy Vaughan', { pin: '4682' });
      await createMember('Mary Jackson');
      const attempts = [
        { password: PASSWORD, name: 'Dorothy Vaughan', pin: '0795' },
        { password: 'not-the-team-password', name: 'Dorothy Vaughan', pin: '4682' },
        { password: `${PASSWORD} `, name: 'Dorothy Vaughan', pin: '4682' },
        { password: PASSWORD, name: 'Nobody Atall', pin: '4682' },
        { password: PASSWORD, name: 'Nobody Atall', pin: '' },
        { password: 'not-the-team-password', name: 'Nobody Atall', pin: '4682' },
        // A wrong password must not reveal that a member still has to create a PIN (no 202).
        { password: 'not-the-team-password', name: 'Mary Jackson', pin: '' },
        { password: 'not-the-team-password', name: 'Dorothy Vaughan', pin: '' },
      ];
      const bodies = new Set<string>();
      for (const attempt of attempts) {
        const response = await login(attempt);
        expectApiError(response, 401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.invalidCredentials);
        expect(response.cookies, JSON.stringify(attempt)).toEqual([]);
        bodies.add(response.body);
      }
      expect(bodies.size).toBe(1);
      // Fewer than five failures per name: the right PIN still signs in (and clears the count).
      await signIn('Dorothy Vaughan', '4682');
    });

    it('refuses malformed bodies with 400 before looking at any credential', async () => {
      await createMember('Edsger Dijkstra', { pin: '3579' });
      const valid = { password: PASSWORD, name: 'Edsger Dijkstra', pin: '3579' };
      const invalid: [string, unknown][] = [
        ['letters in the PIN', { ...valid, pin: '12a4' }],
        ['three digits', { ...valid, pin: '123' }],
        ['five digits', { ...valid, pin: '12345' }],
        ['PIN as a number', { ...valid, pin: 3579 }],
        ['PIN with spaces', { ...valid, pin: ' 3579' }],
        ['an extra field', { ...valid, role: 'admin' }],
        ['missing name', { password: PASSWORD, pin: '3579' }],
        ['blank name', { ...valid, name: '   ' }],
        ['name over 100 characters', { ...valid, name: 'A'.repeat(101) }],
        ['missing password', { name: 'Edsger Dijkstra', pin: '3579' }],
        ['empty password', { ...valid, password: '' }],
        ['password over 200 characters', { ...valid, password: 'p'.repeat(201) }],
        ['an array', [valid]],
        ['null', null],
        ['a string', 'Edsger Dijkstra'],
      ];
      for (const [label, payload] of invalid) {
        const response = await login(payload);
        expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
        expect(apiErrorSchema.parse(response.json()).code, label).toMatch(/^(VALIDATION_FAILED|BAD_REQUEST)$/);
        expect(response.cookies, label).toEqual([]);
      }
      const notJson = await app.inject({ method: 'POST', url: '/api/login', headers: JSON_HEADERS, payload: '{"password": "x", "name":' });
      expectApiError(notJson, 400, 'BAD_REQUEST');
      const empty = await app.inject({ method: 'POST', url: '/api/login', headers: JSON_HEADERS, payload: '' });
      expect(empty.statusCode).toBe(400);

      // None of them counted as a wrong PIN: five more real failures would be needed to lock.
      await signIn('Edsger Dijkstra', '3579');
    });
  });

  describe('POST /api/setup-pin', () => {
    const setupPin = (payload: { password: string; name: string; pin: string }, cookies: Record<string, string>) => post('/api/setup-pin', payload, { cookies });

    it('sets the first PIN and signs the member in', async () => {
      await createMember('Barbara Liskov');
      const { cookies } = await openEnrollmentLink(app, 'Barbara Liskov');
      const response = await setupPin({ password: PASSWORD, name: 'barbara  liskov', pin: '8024' }, cookies);
      expect(response.statusCode, response.body).toBe(200);
      expect(currentUserSchema.parse(response.json()).name).toBe('Barbara Liskov');
      const session = cookieNamed(response, 'biggy_session');
      cookieNamed(response, 'biggy_device');
      expect((await getUser(session.value)).statusCode).toBe(200);

      const stored = await findMemberByKey(app.database.db, nameKey('Barbara Liskov'));
      expect(stored?.pin_hash).toMatch(/^\$argon2id\$/);
      expect(stored?.pin_hash).not.toContain('8024');
      expect(stored?.pin_set_at).toBeGreaterThan(0);

      // The new PIN is the one that signs in from now on.
      await signIn('Barbara Liskov', '8024');
    });

    it('refuses a second setup for the same member and keeps the first PIN', async () => {
      await createMember('Frances Allen');
      const { cookies } = await openEnrollmentLink(app, 'Frances Allen');
      expect((await setupPin({ password: PASSWORD, name: 'Frances Allen', pin: '1286' }, cookies)).statusCode).toBe(200);
      // The link was used up by the first setup.
      const again = await setupPin({ password: PASSWORD, name: 'FRANCES ALLEN', pin: '3344' }, cookies);
      expectApiError(again, 403, 'ENROLLMENT_REQUIRED', AUTH_MESSAGES.enrollmentRequired);
      expect(again.cookies).toEqual([]);
      // A link issued while a PIN exists (it cannot be, but a race could leave one) still replaces nothing.
      const late = await openEnrollmentLink(app, 'Frances Allen');
      expectApiError(await setupPin({ password: PASSWORD, name: 'Frances Allen', pin: '3344' }, late.cookies), 409, 'PIN_ALREADY_SET', AUTH_MESSAGES.pinAlreadySet);
      await signIn('Frances Allen', '1286');
      expectApiError(await login({ password: PASSWORD, name: 'Frances Allen', pin: '3344' }), 401, 'INVALID_CREDENTIALS');
    });

    it('answers 401 to a wrong team password even with the enrollment cookie, and sets nothing', async () => {
      await createMember('Radia Perlman');
      const { cookies } = await openEnrollmentLink(app, 'Radia Perlman');
      const wrongPassword = await setupPin({ password: 'wrong-team-password', name: 'Radia Perlman', pin: '5566' }, cookies);
      expectApiError(wrongPassword, 401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.invalidCredentials);
      expect((await findMemberByKey(app.database.db, nameKey('Radia Perlman')))?.pin_hash).toBeNull();
    });

    it('answers the same 403 to an unknown name, a member with a PIN and a member without one when there is no enrollment cookie', async () => {
      await createMember('Sophie Wilson');
      await createMember('Lynn Conway', { pin: '7139' });
      const answers = await Promise.all(
        ['Nobody Known', 'Sophie Wilson', 'Lynn Conway'].map((name) => setupPin({ password: PASSWORD, name, pin: '5566' }, {})),
      );
      for (const answer of answers) expectApiError(answer, 403, 'ENROLLMENT_REQUIRED', AUTH_MESSAGES.enrollmentRequired);
      expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
      expect((await findMemberByKey(app.database.db, nameKey('Sophie Wilson')))?.pin_hash).toBeNull();
    });

    it('refuses a PIN that is not exactly 4 digits, and an empty one', async () => {
      await createMember('Adele Goldberg');
      const { cookies } = await openEnrollmentLink(app, 'Adele Goldberg');
      for (const pin of ['', '123', '12345', 'abcd', '12 4']) {
        const response = await setupPin({ password: PASSWORD, name: 'Adele Goldberg', pin }, cookies);
        expectApiError(response, 400, 'VALIDATION_FAILED');
      }
      expect((await findMemberByKey(app.database.db, nameKey('Adele Goldberg')))?.pin_hash).toBeNull();
    });
  });

  describe('POST /api/quick-login', () => {
    const quickLogin = (name: string, pin: string, device?: string) =>
      post('/api/quick-login', { name, pin }, { cookies: device === undefined ? {} : { biggy_device: device } });

    it('signs in with the device cookie of that member and the right PIN', async () => {
      await createMember('Hedy Lamarr', { pin: '4680' });
      const first = await signIn('Hedy Lamarr', '4680');
      const response = await quickLogin('hedy lamarr', '4680', first.device);
      expect(response.statusCode, response.body).toBe(200);
      expect(currentUserSchema.parse(response.json()).name).toBe('Hedy Lamarr');
      const session = cookieNamed(response, 'biggy_session').value;
      expect(session).not.toBe(first.session);
      // The device stays remembered under the same token.
      expect(cookieNamed(response, 'biggy_device').value).toBe(first.device);
      expect((await getUser(session)).statusCode).toBe(200);
    });

    it('answers 401 without a device cookie, with an unknown one, or with the device of another member', async () => {
      await createMember('Joan Clarke', { pin: '1212' });
      await createMember('Tommy Flowers', { pin: '3461' });
      const joan = await signIn('Joan Clarke', '1212');
      const refusals = [
        await quickLogin('Joan Clarke', '1212'),
        await quickLogin('Joan Clarke', '1212', 'forged-device-token'),
        // Joan's device cannot be used to try Tommy's PIN, even the right one, nor to sign in as
        // Joan under Tommy's name.
        await quickLogin('Tommy Flowers', '3461', joan.device),
        await quickLogin('Tommy Flowers', '1212', joan.device),
        await quickLogin('Joan Clarke', '2175', joan.device),
      ];
      for (const response of refusals) {
        expectApiError(response, 401, 'INVALID_CREDENTIALS', AUTH_MESSAGES.invalidCredentials);
        expect(response.cookies).toEqual([]);
      }
      expect((await quickLogin('Joan Clarke', '1212', joan.device)).statusCode).toBe(200);
    });

    it("answers 400 'PIN not set…' when the member's PIN was cleared", async () => {
      const member = await createMember('Annie Easley', { pin: '5829' });
      const { device } = await signIn('Annie Easley', '5829');
      await clearPinHash(app.database.db, member.id);
      expectApiError(await quickLogin('Annie Easley', '5829', device), 400, 'PIN_NOT_SET', AUTH_MESSAGES.pinNotSet);
    });

    it('refuses a malformed body with 400', async () => {
      await createMember('Evelyn Boyd', { pin: '6173' });
      const { device } = await signIn('Evelyn Boyd', '6173');
      for (const payload of [{ name: 'Evelyn Boyd', pin: '' }, { name: 'Evelyn Boyd' }, { pin: '6173' }, { name: 'Evelyn Boyd', pin: '6173', password: PASSWORD }]) {
        const response = await post('/api/quick-login', payload, { cookies: { biggy_device: device } });
        expectApiError(response, 400, 'VALIDATION_FAILED');
      }
    });
  });

  describe('GET /api/check-session', () => {
    const checkSession = async (device?: string) => {
      const response = await app.inject({ method: 'GET', url: '/api/check-session', cookies: device === undefined ? {} : { biggy_device: device } });
      expect(response.statusCode, response.body).toBe(200);
      return checkSessionResponseSchema.parse(response.json());
    };

    it('names the member of the device cookie, and nobody without one', async () => {
      await createMember('Margaret Hamilton', { pin: '7093' });
      const { device } = await signIn('Margaret Hamilton', '7093');
      expect(await checkSession(device)).toEqual({ canQuickLogin: true, memberName: 'Margaret Hamilton' });
      expect(await checkSession()).toEqual({ canQuickLogin: false, memberName: null });
      expect(await checkSession('forged-device-token')).toEqual({ canQuickLogin: false, memberName: null });
    });

    it('offers no quick login once the PIN was cleared', async () => {
      const member = await createMember('Sophie Wilson', { pin: '8306' });
      const { device } = await signIn('Sophie Wilson', '8306');
      await clearPinHash(app.database.db, member.id);
      expect(await checkSession(device)).toEqual({ canQuickLogin: false, memberName: null });
    });
  });

  describe('GET /api/team-members/names', () => {
    const names = (options: Omit<InjectOptions, 'method' | 'url'> = {}) => app.inject({ method: 'GET', url: '/api/team-members/names', ...options });

    it('answers 401 when signed out without proof of the team password, or with a wrong one', async () => {
      expectApiError(await names(), 401, 'TEAM_PASSWORD_REQUIRED');
      expectApiError(await names({ headers: { [TEAM_PASSWORD_HEADER]: 'wrong-team-password' } }), 401, 'TEAM_PASSWORD_REQUIRED');
      expectApiError(await names({ headers: { [TEAM_PASSWORD_HEADER]: '' } }), 401, 'TEAM_PASSWORD_REQUIRED');
      // Only the header counts: the password in the query string proves nothing (and would be logged).
      expectApiError(await names({ query: { password: PASSWORD } }), 401, 'TEAM_PASSWORD_REQUIRED');
    });

    it('lists the active members, sorted, with the team password header or to a signed-in member', async () => {
      await createMember('Zelda Zuse', { pin: '9146' });
      const retired = await createMember('Rita Retired');
      await app.database.db.updateTable('members').set({ active: 0 }).where('id', '=', retired.id).execute();

      const withProof = await names({ headers: { [TEAM_PASSWORD_HEADER]: PASSWORD } });
      expect(withProof.statusCode, withProof.body).toBe(200);
      const list = teamMemberNamesSchema.parse(withProof.json());
      expect(list).toContain('Avery Admin');
      expect(list).toContain('Zelda Zuse');
      expect(list).not.toContain('Rita Retired');
      expect(list).toEqual([...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

      const { session } = await signIn('Zelda Zuse', '9146');
      const signedIn = await names({ cookies: { biggy_session: session } });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      expect(teamMemberNamesSchema.parse(signedIn.json())).toEqual(list);
    });
  });

  describe('POST /api/forgot-pin', () => {
    const forgotPin = (memberName: unknown) => post('/api/forgot-pin', { memberName });
    const pendingRequests = () => app.database.db.selectFrom('pin_reset_requests').selectAll().where('status', '=', 'pending').execute();

    it('answers the same 200 message for an existing and an unknown name', async () => {
      await createMember('Jean Sammet', { pin: '2354' });
      const known = await forgotPin('Jean Sammet');
      const unknown = await forgotPin('Nobody Whatsoever');
      for (const response of [known, unknown]) {
        expect(response.statusCode, response.body).toBe(200);
        expect(messageResponseSchema.parse(response.json())).toEqual({ message: AUTH_MESSAGES.forgotPinAccepted });
      }
      expect(unknown.body).toBe(known.body);
    });

    it('creates exactly one pending request per member however often it is asked, and none for unknown names', async () => {
      const member = await createMember('Kathleen Booth', { pin: '4596' });
      const before = await pendingRequests();
      for (const typed of ['Kathleen Booth', 'kathleen booth', ' KATHLEEN  BOOTH ']) {
        expect((await forgotPin(typed)).statusCode).toBe(200);
      }
      const after = await pendingRequests();
      const mine = after.filter((row) => row.member_id === member.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ member_name: 'Kathleen Booth', status: 'pending', resolved_at: null, resolved_by: null });
      expect(after).toHaveLength(before.length + 1);

      for (let i = 0; i < 3; i += 1) expect((await forgotPin('Unknown Person')).statusCode).toBe(200);
      expect(await pendingRequests()).toHaveLength(before.length + 1);
    });

    it('refuses a body without a name', async () => {
      expectApiError(await forgotPin(''), 400, 'VALIDATION_FAILED');
      expectApiError(await post('/api/forgot-pin', {}), 400, 'VALIDATION_FAILED');
      expectApiError(await post('/api/forgot-pin', { name: 'Jean Sammet' }), 400, 'VALIDATION_FAILED');
    });
  });
});
