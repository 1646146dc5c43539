import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../common/api/index.js';
import { buildPath } from '../../../common/api/route.js';
import { addMemberResultSchema, enrollmentLinkResultSchema, pinResetRequestSchema } from '../../../common/contract/admin.js';
import { messageResponseSchema } from '../../../common/contract/common.js';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { useAdminAndMember } from '../../test/admin-app.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { TEST_SECRETS } from '../../test/test-app.js';
import { findMemberByKey, setRole } from '../members/repo.js';
import { deleteEnrollmentTokensOf } from '../enrollment/repo.js';
import { addMember, ensureAdmin, newEnrollmentLink, resetMemberPin } from '../members/service.js';

const PASSWORD = TEST_SECRETS.adminPassword;

/**
 * An app of the block's own with the configured admin and, signed in and made admins, the named
 * others; `member` reads one back by name.
 */
function useAdmins(...names: string[]) {
  const fixture = useAdminAndMember();
  const sessions = new Map<string, SessionCookies>();
  beforeAll(async () => {
    for (const name of names) {
      sessions.set(name, await signInAs(fixture.app, name));
      await setRole(fixture.app.database.db, nameKey(name), 'admin');
    }
  });
  return {
    app: () => fixture.app,
    configured: () => fixture.admin,
    session: (name: string): SessionCookies => {
      const cookies = sessions.get(name);
      if (cookies === undefined) throw new Error(`${name} is not signed in`);
      return cookies;
    },
    member: async (name: string) => {
      const found = await findMemberByKey(fixture.app.database.db, nameKey(name));
      if (found === undefined) throw new Error(`${name} is not a member`);
      return found;
    },
  };
}

/**
 * A PIN reset hands its resolver an enrollment link, that is the account: the configured admin's
 * PIN is reset only by the configured admin (or the command line), and any admin's only by the
 * configured admin. A second admin gets 403 with a message, and nothing changes.
 */
describe('who may reset whose PIN', () => {
  const admins = useAdmins('Sam Second', 'Tia Third');
  let app: App;
  let configured: SessionCookies;
  let second: SessionCookies;
  beforeAll(() => {
    app = admins.app();
    configured = admins.configured();
    second = admins.session('Sam Second');
  });

  const idOf = async (name: string) => (await admins.member(name)).id;
  const requestReset = async (name: string) => {
    expect((await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: name })).statusCode).toBe(200);
    const list = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, second)).json());
    const request = list.find((entry) => entry.memberName === name && entry.status === 'pending');
    if (request === undefined) throw new Error(`no pending request of ${name}`);
    return request.id;
  };
  const resolve = (id: number, as: SessionCookies) => apiCall(app, 'POST', buildPath(routes.admin.resolvePinReset.path, { id }), as, { adminPassword: PASSWORD });
  const pinHashOf = async (name: string) => (await findMemberByKey(app.database.db, nameKey(name)))?.pin_hash;

  it("refuses a second admin the configured admin's PIN reset with 403, and leaves the PIN", async () => {
    const id = await requestReset('Avery Admin');
    const before = await pinHashOf('Avery Admin');
    const response = await resolve(id, second);
    const body = expectApiError(response, 403, 'FORBIDDEN_CHANGE');
    expect(body.message).toMatch(/configured admin/);
    expect(response.body).not.toMatch(/enroll\//);
    expect(await pinHashOf('Avery Admin')).toBe(before);
    // The configured admin may resolve their own request.
    const own = await resolve(id, configured);
    expect(own.statusCode, own.body).toBe(200);
    expect(enrollmentLinkResultSchema.parse(own.json()).memberName).toBe('Avery Admin');
    configured = await signInAs(app, 'Avery Admin', '7294');
  });

  it("refuses a second admin another admin's PIN reset; the configured admin may resolve it", async () => {
    const id = await requestReset('Tia Third');
    expectApiError(await resolve(id, second), 403, 'FORBIDDEN_CHANGE');
    expect(await pinHashOf('Tia Third')).not.toBeNull();
    const response = await resolve(id, configured);
    expect(response.statusCode, response.body).toBe(200);
    expect(await pinHashOf('Tia Third')).toBeNull();
  });

  it("refuses a second admin a new enrollment link for an admin who has no PIN (a reset from the command line)", async () => {
    await resetMemberPin(app.database.db, 'Avery Admin', 'admin (command line)', { publicUrl: 'http://review.test', notifyEnded: () => Promise.resolve() });
    const path = buildPath(routes.admin.enrollmentLink.path, { id: await idOf('Avery Admin') });
    expectApiError(await apiCall(app, 'POST', path, second, { adminPassword: PASSWORD }), 403, 'FORBIDDEN_CHANGE');
    const tiaPath = buildPath(routes.admin.enrollmentLink.path, { id: await idOf('Tia Third') });
    expectApiError(await apiCall(app, 'POST', tiaPath, second, { adminPassword: PASSWORD }), 403, 'FORBIDDEN_CHANGE');
  });

  it("lets any admin resolve a member's request", async () => {
    const id = await requestReset('Morgan Member');
    const response = await resolve(id, second);
    expect(response.statusCode, response.body).toBe(200);
  });
});

/**
 * An admin resets a PIN from the member list without a request: the same rule of who may reset
 * whose PIN, the same writes in one transaction with the member's row locked, and a member
 * deactivated meanwhile keeps their PIN.
 */
describe("an admin's PIN reset without a request", () => {
  const admins = useAdmins('Sam Second', 'Tia Third');
  let app: App;
  let configured: SessionCookies;
  let second: SessionCookies;
  beforeAll(() => {
    app = admins.app();
    configured = admins.configured();
    second = admins.session('Sam Second');
  });
  const reset = async (name: string, as: SessionCookies) =>
    apiCall(app, 'POST', buildPath(routes.admin.resetPin.path, { id: (await admins.member(name)).id }), as, { adminPassword: PASSWORD });
  const refusalsBy = (actor: string) =>
    app.database.db.selectFrom('audit_log').select('detail').where('actor_name', '=', actor).where('event', '=', 'admin-action').where('outcome', '=', 'failure').execute();

  it("refuses a second admin the configured admin's or another admin's reset with 403, audited, and leaves the PIN", async () => {
    for (const name of ['Avery Admin', 'Tia Third']) {
      const before = (await admins.member(name)).pin_hash;
      const body = expectApiError(await reset(name, second), 403, 'FORBIDDEN_CHANGE');
      expect(body.message).toMatch(/configured admin/);
      expect((await admins.member(name)).pin_hash).toBe(before);
    }
    expect(await refusalsBy('Sam Second')).toContainEqual({ detail: 'reset the PIN of Tia Third refused: not the configured admin' });
  });

  it("lets the configured admin reset another admin's PIN, and any admin a member's", async () => {
    const tia = await reset('Tia Third', configured);
    expect(tia.statusCode, tia.body).toBe(200);
    expect(enrollmentLinkResultSchema.parse(tia.json()).memberName).toBe('Tia Third');
    expect((await admins.member('Tia Third')).pin_hash).toBeNull();
    const morgan = await reset('Morgan Member', second);
    expect(morgan.statusCode, morgan.body).toBe(200);
    expect((await admins.member('Morgan Member')).pin_hash).toBeNull();
  });

  it('leaves the PIN and issues no link when the deactivation commits while the reset waits', async () => {
    await signInAs(app, 'Val Vanishing');
    const { id, pin_hash: before } = await admins.member('Val Vanishing');
    let resetting: ReturnType<typeof apiCall> | undefined;
    // The deactivation's own statement, held open while an admin asks for the reset.
    await app.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('members').set({ active: 0 }).where('id', '=', id).execute();
      resetting = apiCall(app, 'POST', buildPath(routes.admin.resetPin.path, { id }), second, { adminPassword: PASSWORD });
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    if (resetting === undefined) throw new Error('the reset was never asked for');
    expectApiError(await resetting, 409, 'MEMBER_INACTIVE');
    expect((await admins.member('Val Vanishing')).pin_hash).toBe(before);
    expect(await app.database.db.selectFrom('enrollment_tokens').select('member_id').where('member_id', '=', id).execute()).toEqual([]);
  });
});

/**
 * Demoting an admin, or deactivating them, would make their PIN reset a member's, which any admin
 * resolves: demote, reset, sign in as them, promote back. So only the configured admin (or the
 * command line) takes another admin's role away or deactivates them; others get 403 with the
 * reason, audited, and nothing changes.
 */
describe('who may demote or deactivate an admin', () => {
  const admins = useAdmins('Sam Second', 'Tia Third');
  let app: App;
  let configured: SessionCookies;
  let second: SessionCookies;
  let tia: SessionCookies;
  beforeAll(() => {
    app = admins.app();
    configured = admins.configured();
    second = admins.session('Sam Second');
    tia = admins.session('Tia Third');
  });
  const member = admins.member;
  const setRoleOf = async (name: string, role: 'member' | 'admin', as: SessionCookies) =>
    apiCall(app, 'POST', buildPath(routes.admin.setRole.path, { id: (await member(name)).id }), as, { adminPassword: PASSWORD, role });
  const setActiveOf = async (name: string, active: boolean, as: SessionCookies) =>
    apiCall(app, 'POST', buildPath(routes.admin.setActive.path, { id: (await member(name)).id }), as, { adminPassword: PASSWORD, active });
  const refusalsBy = (actor: string) =>
    app.database.db.selectFrom('audit_log').select('detail').where('actor_name', '=', actor).where('event', '=', 'admin-action').where('outcome', '=', 'failure').execute();

  it("refuses a second admin the demotion of another admin, so the takeover through a member's PIN reset fails", async () => {
    const demoted = await setRoleOf('Tia Third', 'member', second);
    const body = expectApiError(demoted, 403, 'FORBIDDEN_CHANGE');
    expect(body.message).toMatch(/Tia Third is an admin: only the configured admin/);
    expect((await member('Tia Third')).role).toBe('admin');
    expect((await apiCall(app, 'GET', routes.auth.user.path, tia)).json()).toMatchObject({ role: 'admin' });
    expect(await refusalsBy('Sam Second')).toContainEqual({ detail: 'remove the admin role of Tia Third refused: not the configured admin' });

    // The rest of the takeover: her request stays an admin's, which the second admin cannot resolve.
    expect((await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: 'Tia Third' })).statusCode).toBe(200);
    const list = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, second)).json());
    const request = list.find((entry) => entry.memberName === 'Tia Third' && entry.status === 'pending');
    if (request === undefined) throw new Error('no pending request of Tia Third');
    const resolved = await apiCall(app, 'POST', buildPath(routes.admin.resolvePinReset.path, { id: request.id }), second, { adminPassword: PASSWORD });
    expectApiError(resolved, 403, 'FORBIDDEN_CHANGE');
    expect((await member('Tia Third')).pin_hash).not.toBeNull();
  });

  it('refuses a second admin the deactivation of another admin: still active, still signed in', async () => {
    expectApiError(await setActiveOf('Tia Third', false, second), 403, 'FORBIDDEN_CHANGE');
    expect((await member('Tia Third')).active).toBe(1);
    expect((await apiCall(app, 'GET', routes.auth.user.path, tia)).statusCode).toBe(200);
    expect(await refusalsBy('Sam Second')).toContainEqual({ detail: 'deactivate Tia Third refused: not the configured admin' });
  });

  it('keeps what held: nobody demotes or deactivates the configured admin or themselves', async () => {
    expectApiError(await setRoleOf('Avery Admin', 'member', second), 409, 'FORBIDDEN_CHANGE');
    expectApiError(await setActiveOf('Avery Admin', false, second), 409, 'FORBIDDEN_CHANGE');
    expectApiError(await setRoleOf('Sam Second', 'member', second), 409, 'FORBIDDEN_CHANGE', 'You cannot remove the admin role of yourself');
    expectApiError(await setActiveOf('Avery Admin', false, configured), 409, 'FORBIDDEN_CHANGE');
    expect(await member('Avery Admin')).toMatchObject({ role: 'admin', active: 1 });
  });

  it('lets any admin promote, demote back and deactivate a member', async () => {
    await signInAs(app, 'Pat Promoted');
    expect((await setRoleOf('Pat Promoted', 'admin', second)).statusCode).toBe(200);
    // Now an admin: only the configured admin may take it back.
    expectApiError(await setRoleOf('Pat Promoted', 'member', second), 403, 'FORBIDDEN_CHANGE');
    expect((await setRoleOf('Pat Promoted', 'member', configured)).statusCode).toBe(200);
    const deactivated = await setActiveOf('Morgan Member', false, second);
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await setActiveOf('Morgan Member', true, second)).statusCode).toBe(200);
  });

  it('lets the configured admin demote and deactivate another admin', async () => {
    const demoted = await setRoleOf('Tia Third', 'member', configured);
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect((await member('Tia Third')).role).toBe('member');
    expect((await setRoleOf('Tia Third', 'admin', configured)).statusCode).toBe(200);
    const deactivated = await setActiveOf('Tia Third', false, configured);
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await apiCall(app, 'GET', routes.auth.user.path, tia)).statusCode).toBe(401);
  });
});

/**
 * Either way, another admin's active state is the configured admin's to change: a second admin
 * bringing back an admin the configured admin deactivated undoes their decision. Lifting another
 * admin's sign-in lock renews the guesses at that admin's PIN, so it follows the same rule; an
 * admin may still lift their own.
 */
describe('who may reactivate or unlock another admin', () => {
  const admins = useAdmins('Sam Second', 'Tia Third');
  let app: App;
  let configured: SessionCookies;
  let second: SessionCookies;
  beforeAll(() => {
    app = admins.app();
    configured = admins.configured();
    second = admins.session('Sam Second');
  });
  const member = admins.member;
  const setActiveOf = async (name: string, active: boolean, as: SessionCookies) =>
    apiCall(app, 'POST', buildPath(routes.admin.setActive.path, { id: (await member(name)).id }), as, { adminPassword: PASSWORD, active });
  const unlock = async (name: string, as: SessionCookies) => apiCall(app, 'POST', buildPath(routes.admin.unlock.path, { id: (await member(name)).id }), as, { adminPassword: PASSWORD });
  const lock = async (name: string) => {
    const now = Date.now();
    await app.database.db.insertInto('login_locks').values({ name_key: nameKey(name), failures: 0, lock_count: 1, locked_until: now + 3_600_000, updated_at: now }).execute();
  };
  const isLocked = async (name: string) => (await app.database.db.selectFrom('login_locks').select('name_key').where('name_key', '=', nameKey(name)).execute()).length > 0;
  const refusalsBy = (actor: string) =>
    app.database.db.selectFrom('audit_log').select('detail').where('actor_name', '=', actor).where('event', '=', 'admin-action').where('outcome', '=', 'failure').execute();

  it('refuses a second admin the reactivation of an admin the configured admin deactivated', async () => {
    expect((await setActiveOf('Tia Third', false, configured)).statusCode).toBe(200);
    const body = expectApiError(await setActiveOf('Tia Third', true, second), 403, 'FORBIDDEN_CHANGE');
    expect(body.message).toBe('Tia Third is an admin: only the configured admin (ADMIN_NAME) can reactivate another admin');
    expect((await member('Tia Third')).active).toBe(0);
    expect(await refusalsBy('Sam Second')).toContainEqual({ detail: 'reactivate Tia Third refused: not the configured admin' });
    // The configured admin may; any admin still reactivates a member.
    expect((await setActiveOf('Tia Third', true, configured)).statusCode).toBe(200);
    expect((await member('Tia Third')).active).toBe(1);
    expect((await setActiveOf('Morgan Member', false, second)).statusCode).toBe(200);
    expect((await setActiveOf('Morgan Member', true, second)).statusCode).toBe(200);
  });

  it("refuses a second admin the unlock of another admin; the configured admin may, and an admin lifts their own lock", async () => {
    await lock('Tia Third');
    const body = expectApiError(await unlock('Tia Third', second), 403, 'FORBIDDEN_CHANGE');
    expect(body.message).toBe('Tia Third is an admin: only the configured admin (ADMIN_NAME) can unlock another admin');
    expect(await isLocked('Tia Third')).toBe(true);
    expect(await refusalsBy('Sam Second')).toContainEqual({ detail: 'unlock Tia Third refused: not the configured admin' });
    expect((await unlock('Tia Third', configured)).statusCode).toBe(200);
    expect(await isLocked('Tia Third')).toBe(false);

    await lock('Sam Second');
    expect((await unlock('Sam Second', second)).statusCode).toBe(200);
    expect(await isLocked('Sam Second')).toBe(false);
    await lock('Morgan Member');
    expect((await unlock('Morgan Member', second)).statusCode).toBe(200);
    expect(await isLocked('Morgan Member')).toBe(false);
  });
});

/**
 * Any admin hands a member their enrollment link (a first PIN's, or a PIN reset's), but only the
 * configured admin hands one to an admin. A link a second admin got while the target was a member
 * would otherwise outlive the promotion and set the new admin's PIN: promoting revokes it.
 */
describe('an enrollment link handed out to a member does not outlive their promotion', () => {
  const admins = useAdmins('Sam Second');
  let app: App;
  let configured: SessionCookies;
  let second: SessionCookies;
  beforeAll(() => {
    app = admins.app();
    configured = admins.configured();
    second = admins.session('Sam Second');
  });
  const member = admins.member;
  const promote = async (name: string, as: SessionCookies) =>
    apiCall(app, 'POST', buildPath(routes.admin.setRole.path, { id: (await member(name)).id }), as, { adminPassword: PASSWORD, role: 'admin' });
  const newLink = async (name: string, as: SessionCookies) =>
    apiCall(app, 'POST', buildPath(routes.admin.enrollmentLink.path, { id: (await member(name)).id }), as, { adminPassword: PASSWORD });
  /** Opens the link in a fresh browser and creates the PIN with it, as its holder would. */
  const enroll = async (url: string, name: string) => {
    const opened = await app.inject({ method: 'GET', url: new URL(url).pathname });
    const cookies = Object.fromEntries(opened.cookies.map((cookie) => [cookie.name, cookie.value]));
    return apiCall(app, 'POST', routes.auth.setupPin.path, cookies, { password: TEST_SECRETS.teamPassword, name, pin: '3816' });
  };
  const linkRowsOf = async (name: string) => app.database.db.selectFrom('enrollment_tokens').select('member_id').where('member_id', '=', (await member(name)).id).execute();

  it("revokes a new member's first-PIN link a second admin got, once the configured admin promotes them", async () => {
    const added = await apiCall(app, 'POST', routes.admin.addMember.path, second, { adminPassword: PASSWORD, memberName: 'Nia New' });
    expect(added.statusCode, added.body).toBe(201);
    const { url } = addMemberResultSchema.parse(added.json()).enrollmentLink;

    const promoted = await promote('Nia New', configured);
    expect(promoted.statusCode, promoted.body).toBe(200);
    expectApiError(await enroll(url, 'Nia New'), 403, 'ENROLLMENT_REQUIRED');
    expect(messageResponseSchema.parse(promoted.json()).message).toMatch(/^Nia New is now an admin\. Their unused enrollment link no longer works/);
    expect((await member('Nia New')).pin_hash).toBeNull();
    const trail = await app.database.db.selectFrom('audit_log').select('detail').where('actor_name', '=', 'Nia New').where('event', '=', 'enrollment').execute();
    expect(trail).toContainEqual({ detail: 'unused link revoked: made an admin by Avery Admin' });

    // A new link is now the configured admin's to hand out, and it works.
    expectApiError(await newLink('Nia New', second), 403, 'FORBIDDEN_CHANGE');
    const fresh = await newLink('Nia New', configured);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const enrolled = await enroll(enrollmentLinkResultSchema.parse(fresh.json()).enrollmentLink.url, 'Nia New');
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    expect(enrolled.json()).toMatchObject({ role: 'admin' });
  });

  it("revokes a member's PIN-reset link a second admin got, once the configured admin promotes them", async () => {
    await signInAs(app, 'Rae Reset');
    expect((await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: 'Rae Reset' })).statusCode).toBe(200);
    const list = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, second)).json());
    const request = list.find((entry) => entry.memberName === 'Rae Reset' && entry.status === 'pending');
    if (request === undefined) throw new Error('no pending request of Rae Reset');
    const resolved = await apiCall(app, 'POST', buildPath(routes.admin.resolvePinReset.path, { id: request.id }), second, { adminPassword: PASSWORD });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const { url } = enrollmentLinkResultSchema.parse(resolved.json()).enrollmentLink;

    expect((await promote('Rae Reset', configured)).statusCode).toBe(200);
    expectApiError(await enroll(url, 'Rae Reset'), 403, 'ENROLLMENT_REQUIRED');
    expect((await member('Rae Reset')).pin_hash).toBeNull();
  });

  it('leaves no link when a second admin issues one while the promotion commits', async () => {
    await addMember(app.database.db, 'Lee Late');
    const { id } = await member('Lee Late');
    let issuing: ReturnType<typeof apiCall> | undefined;
    // The promotion's own statements, held open while the second admin asks for a link.
    await app.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('members').set({ role: 'admin' }).where('id', '=', id).execute();
      await deleteEnrollmentTokensOf(trx, id);
      issuing = apiCall(app, 'POST', buildPath(routes.admin.enrollmentLink.path, { id }), second, { adminPassword: PASSWORD });
      await new Promise((resolve) => setTimeout(resolve, 500));
    });
    if (issuing === undefined) throw new Error('the link was never asked for');
    expectApiError(await issuing, 403, 'FORBIDDEN_CHANGE');
    expect(await linkRowsOf('Lee Late')).toEqual([]);
  });

  it('revokes the link of a member ADMIN_NAME names at the next start, and hands out a new one', async () => {
    await addMember(app.database.db, 'Zed Zero');
    const { link: earlier } = await newEnrollmentLink(app.database.db, 'Zed Zero', 'http://review.test');
    const printed = await ensureAdmin(app.database.db, 'Zed Zero', 'http://review.test');
    if (printed === undefined) throw new Error('the start printed no link for the new configured admin');
    expectApiError(await enroll(earlier.url, 'Zed Zero'), 403, 'ENROLLMENT_REQUIRED');
    const enrolled = await enroll(printed.url, 'Zed Zero');
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    expect(enrolled.json()).toMatchObject({ role: 'admin' });
  });
});
