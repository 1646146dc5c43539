import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../common/api/index.js';
import { buildPath } from '../../../common/api/route.js';
import { addMemberResultSchema, adminMemberSchema, auditPageSchema, enrollmentLinkResultSchema, pinResetRequestSchema, systemStatusSchema } from '../../../common/contract/admin.js';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { useAdminAndMember } from '../../test/admin-app.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { TEST_SECRETS } from '../../test/test-app.js';
import { allCommentsForAnalysis, componentCommentsForAnalysis } from '../comments/analysis-input.js';
import { listVotersOf } from '../comments/repo.js';
import { audit } from '../auth/audit.js';
import { findMemberByKey } from '../members/repo.js';
import { QA_REMOTE_ADDRESS } from '../qa/runner.js';

const PASSWORD = TEST_SECRETS.adminPassword;

describe('admin panel calls', () => {
  const fixture = useAdminAndMember();
  let app: App;
  let admin: SessionCookies;
  let member: SessionCookies;
  beforeAll(() => {
    ({ app, admin, member } = fixture);
  });

  const members = async () => adminMemberSchema.array().parse((await apiCall(app, 'GET', routes.admin.members.path, admin)).json());
  const memberNamed = async (name: string) => {
    const found = (await members()).find((entry) => entry.name === name);
    if (found === undefined) throw new Error(`${name} is not listed`);
    return found;
  };
  const idOf = async (name: string) => (await memberNamed(name)).id;
  const memberPath = (path: string, name: string) => async () => buildPath(path, { id: await idOf(name) });
  const signIn = (name: string, pin: string, cookies?: SessionCookies) =>
    apiCall(app, 'POST', routes.auth.login.path, cookies, { password: TEST_SECRETS.teamPassword, name, pin });

  describe('add member', () => {
    it('adds a member and answers their one-time enrollment link; the link is never listed again', async () => {
      const response = await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: PASSWORD, memberName: '  Nora   Newcomer ' });
      expect(response.statusCode, response.body).toBe(201);
      const body = addMemberResultSchema.parse(response.json());
      expect(body.memberName).toBe('Nora Newcomer');
      expect(body.enrollmentLink.url).toMatch(/^http:\/\/review\.test\/enroll\/[A-Za-z0-9_-]{43}$/);
      expect(body.member).toMatchObject({ name: 'Nora Newcomer', role: 'member', pinSet: false, enrollment: 'pending', active: true, isQa: false });
      expect(JSON.stringify(await members())).not.toContain(body.enrollmentLink.url.split('/').at(-1));
    });

    it('refuses a name that is taken (in any case) with 409 and a clear message', async () => {
      const response = await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: PASSWORD, memberName: 'NORA NEWCOMER' });
      expectApiError(response, 409, 'MEMBER_EXISTS', 'Nora Newcomer is already a team member');
    });

    it('refuses a missing password or name (400), a wrong password (403, audited), and members (403)', async () => {
      expectApiError(await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: '', memberName: 'Pat Person' }), 400, 'VALIDATION_FAILED');
      expectApiError(await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: PASSWORD, memberName: '' }), 400, 'VALIDATION_FAILED');
      expectApiError(await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: PASSWORD, memberName: 'Robert <script>' }), 400, 'INVALID_NAME');
      expectApiError(await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: 'wrong', memberName: 'Pat Person' }), 403, 'INVALID_ADMIN_PASSWORD');
      expectApiError(await apiCall(app, 'POST', routes.admin.addMember.path, member, { adminPassword: PASSWORD, memberName: 'Pat Person' }), 403, 'ADMIN_ONLY');
      expect(await findMemberByKey(app.database.db, nameKey('Pat Person'))).toBeUndefined();
    });
  });

  describe('member list and actions', () => {
    it('lists role, PIN, enrollment, last sign-in and lock for each member, without secrets', async () => {
      const listed = await members();
      const adminEntry = listed.find((entry) => entry.name === 'Avery Admin');
      expect(adminEntry).toMatchObject({ role: 'admin', pinSet: true, enrollment: 'none', lockedUntil: null });
      expect(adminEntry?.lastSignInAt).not.toBeNull();
      const body = JSON.stringify(listed);
      for (const forbidden of ['pin_hash', 'token', '$argon2']) expect(body).not.toContain(forbidden);
      expectApiError(await apiCall(app, 'GET', routes.admin.members.path, member), 403, 'ADMIN_ONLY');
      expectApiError(await apiCall(app, 'GET', routes.admin.members.path, undefined), 401, 'UNAUTHENTICATED');
    });

    it('issues a fresh enrollment link only to a member without a PIN', async () => {
      const fresh = await apiCall(app, 'POST', await memberPath(routes.admin.enrollmentLink.path, 'Nora Newcomer')(), admin, { adminPassword: PASSWORD });
      expect(fresh.statusCode, fresh.body).toBe(200);
      expect(enrollmentLinkResultSchema.parse(fresh.json()).memberName).toBe('Nora Newcomer');
      const refused = await apiCall(app, 'POST', await memberPath(routes.admin.enrollmentLink.path, 'Morgan Member')(), admin, { adminPassword: PASSWORD });
      expectApiError(refused, 409, 'PIN_ALREADY_SET');
      expectApiError(await apiCall(app, 'POST', buildPath(routes.admin.enrollmentLink.path, { id: 999_999 }), admin, { adminPassword: PASSWORD }), 404, 'MEMBER_NOT_FOUND');
    });

    it('shows a lock from wrong PINs and lifts it on unlock', async () => {
      await signInAs(app, 'Lee Locked');
      for (let attempt = 0; attempt < 5; attempt += 1) await signIn('Lee Locked', '0000');
      expect((await memberNamed('Lee Locked')).lockedUntil).not.toBeNull();
      expect((await signIn('Lee Locked', '3816')).statusCode).toBe(429);
      const unlocked = await apiCall(app, 'POST', await memberPath(routes.admin.unlock.path, 'Lee Locked')(), admin, { adminPassword: PASSWORD });
      expect(unlocked.statusCode, unlocked.body).toBe(200);
      expect((await memberNamed('Lee Locked')).lockedUntil).toBeNull();
      expect((await signIn('Lee Locked', '3816')).statusCode).toBe(200);
    });

    it('makes a member admin and back; the server role follows, and an admin cannot demote themselves or the configured admin', async () => {
      const deputy = await signInAs(app, 'Dana Deputy');
      const rolePath = await memberPath(routes.admin.setRole.path, 'Dana Deputy')();
      expect((await apiCall(app, 'POST', rolePath, admin, { adminPassword: PASSWORD, role: 'admin' })).statusCode).toBe(200);
      expect((await apiCall(app, 'GET', routes.auth.user.path, deputy)).json()).toMatchObject({ role: 'admin' });
      expect((await apiCall(app, 'GET', routes.admin.members.path, deputy)).statusCode).toBe(200);

      const self = await apiCall(app, 'POST', await memberPath(routes.admin.setRole.path, 'Dana Deputy')(), deputy, { adminPassword: PASSWORD, role: 'member' });
      expectApiError(self, 409, 'FORBIDDEN_CHANGE', 'You cannot remove the admin role of yourself');
      const configured = await apiCall(app, 'POST', await memberPath(routes.admin.setRole.path, 'Avery Admin')(), deputy, { adminPassword: PASSWORD, role: 'member' });
      expectApiError(configured, 409, 'FORBIDDEN_CHANGE');

      expect((await apiCall(app, 'POST', rolePath, admin, { adminPassword: PASSWORD, role: 'member' })).statusCode).toBe(200);
      expectApiError(await apiCall(app, 'GET', routes.admin.members.path, deputy), 403, 'ADMIN_ONLY');
    });

    it('deactivating ends the member’s session at once and refuses sign-in until reactivated', async () => {
      const leaving = await signInAs(app, 'Lou Leaving');
      const activePath = await memberPath(routes.admin.setActive.path, 'Lou Leaving')();
      const deactivated = await apiCall(app, 'POST', activePath, admin, { adminPassword: PASSWORD, active: false });
      expect(deactivated.statusCode, deactivated.body).toBe(200);
      expect((await apiCall(app, 'GET', routes.auth.user.path, leaving)).statusCode).toBe(401);
      expect((await signIn('Lou Leaving', '3816')).statusCode).toBe(401);
      expect((await memberNamed('Lou Leaving')).active).toBe(false);
      expect((await apiCall(app, 'GET', routes.auth.teamMemberNames.path, member)).json()).not.toContain('Lou Leaving');

      expect((await apiCall(app, 'POST', activePath, admin, { adminPassword: PASSWORD, active: true })).statusCode).toBe(200);
      expect((await signIn('Lou Leaving', '3816')).statusCode).toBe(200);
      const self = await apiCall(app, 'POST', await memberPath(routes.admin.setActive.path, 'Avery Admin')(), admin, { adminPassword: PASSWORD, active: false });
      expectApiError(self, 409, 'FORBIDDEN_CHANGE');
    });
  });

  describe('QA user', () => {
    it('creates the QA member: flagged, a plain member, refused by the sign-in routes, not offered as a name', async () => {
      const response = await apiCall(app, 'POST', routes.admin.initQa.path, admin, { adminPassword: PASSWORD });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).not.toContain(TEST_SECRETS.qaPin);
      expect(await memberNamed('QA Test User')).toMatchObject({ isQa: true, role: 'member', pinSet: true });
      // Only the self-test signs in as it, in-process: not a shared account.
      expect((await signIn('QA Test User', TEST_SECRETS.qaPin)).statusCode).toBe(401);
      expect((await apiCall(app, 'GET', routes.auth.teamMemberNames.path, member)).json()).not.toContain('QA Test User');
      // Again: the same state, no second member.
      expect((await apiCall(app, 'POST', routes.admin.initQa.path, admin, { adminPassword: PASSWORD })).statusCode).toBe(200);
      expect((await members()).filter((entry) => entry.isQa)).toHaveLength(1);
      expectApiError(await apiCall(app, 'POST', routes.admin.initQa.path, admin, { adminPassword: 'nope' }), 403, 'INVALID_ADMIN_PASSWORD');
    });

    it('leaves the QA member’s comments and votes out of the AI inputs of real components', async () => {
      const qa = await signInAs(app, 'QA Test User', TEST_SECRETS.qaPin);
      const real = await signInAs(app, 'Rita Reviewer');
      const componentId = 'event-management';
      const posted = await apiCall(app, 'POST', routes.comments.create.path, qa, { componentId, content: 'A QA probe that must never reach a summary.' });
      expect(posted.statusCode, posted.body).toBe(201);
      const realComment = await apiCall(app, 'POST', routes.comments.create.path, real, { componentId, content: 'Correlation needs the change calendar.' });
      const realId = realComment.json<{ id: number }>().id;
      await apiCall(app, 'POST', buildPath(routes.comments.vote.path, { id: realId }), qa, { voteType: 'thumbs_down' });
      // A real member's vote reaches the analysis with who cast it (stance is read from who votes what).
      const voter = await signInAs(app, 'Fran Forgetful');
      await apiCall(app, 'POST', buildPath(routes.comments.vote.path, { id: realId }), voter, { voteType: 'thumbs_up' });
      const voterId = await idOf('Fran Forgetful');

      const component = await componentCommentsForAnalysis(app.database.db, componentId, 'Event Management');
      expect(component.map((comment) => comment.content)).toEqual(['Correlation needs the change calendar.']);
      expect(component[0]).toMatchObject({ upVotes: 1, downVotes: 0, upVoterIds: [voterId], downVoterIds: [] });
      const scratch = await apiCall(app, 'POST', routes.comments.create.path, qa, { componentId: 'qa-test-component', content: 'A self-test comment.' });
      expect(scratch.statusCode, scratch.body).toBe(201);
      // The scratch component is the QA member's alone.
      expectApiError(await apiCall(app, 'POST', routes.comments.create.path, real, { componentId: 'qa-test-component', content: 'Hidden?' }), 404, 'UNKNOWN_COMPONENT');
      expect(Object.keys((await apiCall(app, 'GET', routes.comments.counts.path, real)).json<Record<string, number>>())).not.toContain('qa-test-component');
      const all = await allCommentsForAnalysis(app.database.db, { titleOf: (id) => id, descriptionOf: () => undefined });
      expect(all.map((comment) => comment.content)).not.toContain('A QA probe that must never reach a summary.');
      expect(all.map((comment) => comment.componentId)).not.toContain('qa-test-component');
      expect(all.find((comment) => comment.id === realId)).toMatchObject({ upVotes: 1, downVotes: 0, upVoterIds: [voterId], downVoterIds: [] });
      // The suggestions' support, read for the team narrative, leaves the QA member's vote out too.
      expect(await listVotersOf(app.database.db, [realId])).toEqual([{ comment_id: realId, member_id: voterId, vote_type: 'thumbs_up' }]);
    });
  });

  describe('PIN resets', () => {
    it('collapses repeated requests into one pending request, which the admin sees', async () => {
      await signInAs(app, 'Fran Forgetful');
      for (let i = 0; i < 3; i += 1) expect((await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: 'fran forgetful' })).statusCode).toBe(200);
      const list = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
      const pending = list.filter((request) => request.memberName === 'Fran Forgetful' && request.status === 'pending');
      expect(pending).toHaveLength(1);
      expectApiError(await apiCall(app, 'GET', routes.admin.pinResetRequests.path, member), 403, 'ADMIN_ONLY');
    });

    it('resolving clears the PIN, ends sessions and devices, answers a fresh link, and only once', async () => {
      const session = await signInAs(app, 'Fran Forgetful');
      const list = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
      const request = list.find((entry) => entry.memberName === 'Fran Forgetful' && entry.status === 'pending');
      if (request === undefined) throw new Error('no pending request');
      const path = buildPath(routes.admin.resolvePinReset.path, { id: request.id });

      expectApiError(await apiCall(app, 'POST', path, admin, {}), 400, 'VALIDATION_FAILED');
      const resolved = await apiCall(app, 'POST', path, admin, { adminPassword: PASSWORD });
      expect(resolved.statusCode, resolved.body).toBe(200);
      expect(enrollmentLinkResultSchema.parse(resolved.json()).enrollmentLink.url).toContain('/enroll/');

      expect((await apiCall(app, 'GET', routes.auth.user.path, session)).statusCode).toBe(401);
      const fran = await findMemberByKey(app.database.db, nameKey('Fran Forgetful'));
      expect(fran?.pin_hash).toBeNull();
      const devices = await app.database.db.selectFrom('device_tokens').select('member_id').where('member_id', '=', fran?.id ?? -1).execute();
      expect(devices).toHaveLength(0);
      expect(await memberNamed('Fran Forgetful')).toMatchObject({ pinSet: false, enrollment: 'pending' });

      const after = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
      expect(after.find((entry) => entry.id === request.id)).toMatchObject({ status: 'resolved', resolvedBy: 'Avery Admin' });
      expectApiError(await apiCall(app, 'POST', path, admin, { adminPassword: PASSWORD }), 409, 'ALREADY_RESOLVED');
      expectApiError(await apiCall(app, 'POST', buildPath(routes.admin.resolvePinReset.path, { id: 999_999 }), admin, { adminPassword: PASSWORD }), 404, 'PIN_RESET_NOT_FOUND');
    });

    it('resets an active member’s PIN without a request: cleared, signed out, a fresh link, audited', async () => {
      const session = await signInAs(app, 'Nico Noreq');
      const resetPath = await memberPath(routes.admin.resetPin.path, 'Nico Noreq')();
      const pendingBefore = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
      expect(pendingBefore.filter((entry) => entry.memberName === 'Nico Noreq')).toEqual([]);

      const reset = await apiCall(app, 'POST', resetPath, admin, { adminPassword: PASSWORD });
      expect(reset.statusCode, reset.body).toBe(200);
      const body = enrollmentLinkResultSchema.parse(reset.json());
      expect(body.memberName).toBe('Nico Noreq');
      expect(body.message).toMatch(/^The PIN of Nico Noreq has been cleared and they are signed out everywhere\./);
      expect(body.enrollmentLink.url).toMatch(/\/enroll\/[A-Za-z0-9_-]{43}$/);
      expect((await apiCall(app, 'GET', routes.auth.user.path, session)).statusCode).toBe(401);
      expect((await signIn('Nico Noreq', '3816')).statusCode).toBe(401);
      expect(await memberNamed('Nico Noreq')).toMatchObject({ pinSet: false, enrollment: 'pending' });
      const nico = await findMemberByKey(app.database.db, nameKey('Nico Noreq'));
      const devices = await app.database.db.selectFrom('device_tokens').select('member_id').where('member_id', '=', nico?.id ?? -1).execute();
      expect(devices).toHaveLength(0);
      const trail = await app.database.db.selectFrom('audit_log').select(['event', 'actor_name', 'detail']).where('detail', 'like', '%Nico Noreq%').orderBy('id').execute();
      expect(trail).toContainEqual({ event: 'admin-action', actor_name: 'Avery Admin', detail: 'reset the PIN of Nico Noreq' });
      const issued = await app.database.db.selectFrom('audit_log').select('detail').where('actor_name', '=', 'Nico Noreq').where('event', '=', 'enrollment').execute();
      expect(issued.map((entry) => entry.detail)).toEqual([expect.stringMatching(/^link issued by Avery Admin, valid until /)]);
    });

    it('resolves the member’s pending request with an admin’s reset, so it cannot be resolved again', async () => {
      await signInAs(app, 'Pia Pending');
      expect((await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: 'Pia Pending' })).statusCode).toBe(200);
      const before = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
      const request = before.find((entry) => entry.memberName === 'Pia Pending' && entry.status === 'pending');
      if (request === undefined) throw new Error('no pending request');
      const reset = await apiCall(app, 'POST', await memberPath(routes.admin.resetPin.path, 'Pia Pending')(), admin, { adminPassword: PASSWORD });
      expect(reset.statusCode, reset.body).toBe(200);
      const after = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
      expect(after.find((entry) => entry.id === request.id)).toMatchObject({ status: 'resolved', resolvedBy: 'Avery Admin' });
      const resolvePath = buildPath(routes.admin.resolvePinReset.path, { id: request.id });
      expectApiError(await apiCall(app, 'POST', resolvePath, admin, { adminPassword: PASSWORD }), 409, 'ALREADY_RESOLVED');
    });

    it('refuses a reset of a deactivated member, the QA user, an unknown id, without or with a wrong password, and to members', async () => {
      await signInAs(app, 'Dee Departed');
      const departedPath = await memberPath(routes.admin.resetPin.path, 'Dee Departed')();
      const activePath = await memberPath(routes.admin.setActive.path, 'Dee Departed')();
      expect((await apiCall(app, 'POST', activePath, admin, { adminPassword: PASSWORD, active: false })).statusCode).toBe(200);
      const departedPin = (await findMemberByKey(app.database.db, nameKey('Dee Departed')))?.pin_hash;
      expectApiError(await apiCall(app, 'POST', departedPath, admin, { adminPassword: PASSWORD }), 409, 'MEMBER_INACTIVE', 'Dee Departed is deactivated; reactivate them first');
      expect((await findMemberByKey(app.database.db, nameKey('Dee Departed')))?.pin_hash).toBe(departedPin);

      const qaPath = await memberPath(routes.admin.resetPin.path, 'QA Test User')();
      const qaPin = (await findMemberByKey(app.database.db, nameKey('QA Test User')))?.pin_hash;
      const qa = expectApiError(await apiCall(app, 'POST', qaPath, admin, { adminPassword: PASSWORD }), 409, 'FORBIDDEN_CHANGE');
      expect(qa.message).toMatch(/QA Test User is the QA user/);
      expect((await findMemberByKey(app.database.db, nameKey('QA Test User')))?.pin_hash).toBe(qaPin);

      expectApiError(await apiCall(app, 'POST', buildPath(routes.admin.resetPin.path, { id: 999_999 }), admin, { adminPassword: PASSWORD }), 404, 'MEMBER_NOT_FOUND');
      const morganPath = await memberPath(routes.admin.resetPin.path, 'Morgan Member')();
      expectApiError(await apiCall(app, 'POST', morganPath, admin, {}), 400, 'VALIDATION_FAILED');
      expectApiError(await apiCall(app, 'POST', morganPath, admin, { adminPassword: 'wrong' }), 403, 'INVALID_ADMIN_PASSWORD');
      expectApiError(await apiCall(app, 'POST', morganPath, member, { adminPassword: PASSWORD }), 403, 'ADMIN_ONLY');
      expect(await memberNamed('Morgan Member')).toMatchObject({ pinSet: true });
    });
  });

  describe('audit trail', () => {
    it('lists sign-ins, admin actions and wrong admin passwords, newest first, filterable and paginated', async () => {
      const everything = auditPageSchema.parse((await apiCall(app, 'GET', routes.admin.audit.path, admin)).json());
      expect(everything.total).toBeGreaterThan(10);
      expect(everything.entries.length).toBeLessThanOrEqual(everything.pageSize);
      const times = everything.entries.map((entry) => Date.parse(entry.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);

      const wrong = auditPageSchema.parse((await apiCall(app, 'GET', `${routes.admin.audit.path}?event=admin-password`, admin)).json());
      expect(wrong.entries.length).toBeGreaterThan(0);
      expect(wrong.entries.every((entry) => entry.event === 'admin-password' && entry.outcome === 'failure')).toBe(true);

      const lee = auditPageSchema.parse((await apiCall(app, 'GET', `${routes.admin.audit.path}?member=lee%20locked&event=lockout`, admin)).json());
      expect(lee.entries.length).toBeGreaterThan(0);
      for (const entry of lee.entries) expect(entry).toMatchObject({ actorName: 'Lee Locked', event: 'lockout', outcome: 'locked' });

      const pages = Math.ceil(everything.total / everything.pageSize);
      const last = auditPageSchema.parse((await apiCall(app, 'GET', `${routes.admin.audit.path}?page=${pages}`, admin)).json());
      expect(last.entries.length).toBe(everything.total - (pages - 1) * everything.pageSize);
      const nora = auditPageSchema.parse((await apiCall(app, 'GET', `${routes.admin.audit.path}?member=Nora%20Newcomer&event=enrollment`, admin)).json());
      expect(nora.entries.length).toBe(2);
      expect(nora.entries[0]?.detail).toMatch(/^link issued by Avery Admin, valid until /);
      expectApiError(await apiCall(app, 'GET', `${routes.admin.audit.path}?page=0`, admin), 400, 'VALIDATION_FAILED');
      expectApiError(await apiCall(app, 'GET', `${routes.admin.audit.path}?qa=maybe`, admin), 400, 'VALIDATION_FAILED');
      expectApiError(await apiCall(app, 'GET', `${routes.admin.audit.path}?event=drop%20table`, admin), 400, 'VALIDATION_FAILED');
    });
  });

  describe('audit trail without the self-test', () => {
    it('leaves out, when asked, what requests from the self-test’s address wrote, and only that', async () => {
      await audit(app.database.db, { event: 'sign-in', outcome: 'success', actorName: 'QA Test User', ip: QA_REMOTE_ADDRESS, detail: 'QA self-test session' });
      await audit(app.database.db, { event: 'forgot-pin', outcome: 'failure', actorName: 'QA Test User', ip: '203.0.113.9', detail: 'the QA member: no PIN reset' });
      await audit(app.database.db, { event: 'admin-action', outcome: 'success', actorName: 'Avery Admin', ip: 'cli', detail: 'unlock Nobody' });
      const read = async (query: string) => auditPageSchema.parse((await apiCall(app, 'GET', `${routes.admin.audit.path}${query}`, admin)).json());
      const shown = await read('?qa=show');
      const hidden = await read('?qa=hide');
      const byDefault = await read('');
      expect(byDefault.total).toBe(shown.total);
      expect(shown.entries.some((entry) => entry.ip === QA_REMOTE_ADDRESS)).toBe(true);
      expect(hidden.total).toBe(shown.total - 1);
      expect(hidden.entries.some((entry) => entry.ip === QA_REMOTE_ADDRESS)).toBe(false);
      // The QA member's name typed from anywhere else is someone's attempt, not the self-test: it stays.
      expect(hidden.entries.find((entry) => entry.ip === '203.0.113.9')).toMatchObject({ actorName: 'QA Test User', event: 'forgot-pin' });
      const qaByName = await read('?member=QA%20Test%20User&qa=hide');
      expect(qaByName.entries.map((entry) => entry.ip)).toContain('203.0.113.9');
      expect(qaByName.entries.map((entry) => entry.ip)).not.toContain(QA_REMOTE_ADDRESS);
    });
  });

  describe('admin contact', () => {
    it('names the admin to any signed-in member, and to nobody signed out', async () => {
      expect((await apiCall(app, 'GET', routes.auth.adminContact.path, member)).json()).toEqual({ name: 'Avery Admin' });
      expect((await apiCall(app, 'GET', routes.auth.adminContact.path, undefined)).statusCode).toBe(401);
    });
  });

  describe('System tab', () => {
    it('states the security model and where each secret came from, never a value', async () => {
      const response = await apiCall(app, 'GET', routes.admin.system.path, admin);
      const body = systemStatusSchema.parse(response.json());
      expect(body.securityModel.length).toBeGreaterThan(3);
      expect(body.secrets.map((secret) => [secret.name, secret.source])).toEqual([
        ['TEAM_PASSWORD', 'environment'],
        ['ADMIN_PASSWORD', 'environment'],
        ['QA_PIN', 'generated'],
        ['PIN_PEPPER', 'generated'],
      ]);
      for (const secret of Object.values(TEST_SECRETS)) expect(response.body).not.toContain(secret);
    });
  });
});
