import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../common/api/index.js';
import { buildPath } from '../../../common/api/route.js';
import { addMemberResultSchema, pinResetRequestSchema } from '../../../common/contract/admin.js';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { useAdminAndMember } from '../../test/admin-app.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, type SessionCookies } from '../../test/sign-in.js';
import { TEST_SECRETS } from '../../test/test-app.js';
import { SessionStore } from '../auth/sessions.js';
import { findMemberByKey, insertPinResetRequest } from '../members/repo.js';

const QA_NAME = 'QA Test User';

/**
 * The QA member is the self-test's, not a shared account: the sign-in routes and forgot-PIN treat
 * it as an unknown name whatever is sent, and a self-test run never brings back a QA member an
 * admin deactivated.
 */
describe('the QA member', () => {
  const fixture = useAdminAndMember();
  let app: App;
  let admin: SessionCookies;
  beforeAll(async () => {
    ({ app, admin } = fixture);
    const init = await apiCall(app, 'POST', routes.admin.initQa.path, admin, { adminPassword: TEST_SECRETS.adminPassword });
    expect(init.statusCode, init.body).toBe(200);
  });

  const qaMember = async () => {
    const member = await findMemberByKey(app.database.db, nameKey(QA_NAME));
    if (member === undefined) throw new Error('no QA member');
    return member;
  };

  it('cannot sign in through the sign-in routes, even with the right QA PIN', async () => {
    const login = await apiCall(app, 'POST', routes.auth.login.path, undefined, { password: TEST_SECRETS.teamPassword, name: QA_NAME, pin: TEST_SECRETS.qaPin });
    expectApiError(login, 401, 'INVALID_CREDENTIALS');
    expect(login.cookies.filter((cookie) => cookie.value !== '')).toEqual([]);

    // Not with a device token of the QA member either.
    const store = new SessionStore(app.database.db, { idleMs: 60_000, absoluteMs: 3_600_000 });
    const device = await store.createDeviceToken((await qaMember()).id);
    const quick = await app.inject({
      method: 'POST',
      url: routes.auth.quickLogin.path,
      headers: { 'content-type': 'application/json' },
      cookies: { biggy_device: device },
      payload: JSON.stringify({ name: QA_NAME, pin: TEST_SECRETS.qaPin }),
    });
    expectApiError(quick, 401, 'INVALID_CREDENTIALS');
    expect((await app.database.db.selectFrom('sessions').select('member_id').where('member_id', '=', (await qaMember()).id).execute()).length).toBe(0);
  });

  it('is an unknown name to forgot-PIN: the same answer, no request filed, the QA PIN kept', async () => {
    const before = (await qaMember()).pin_hash;
    const qa = await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: 'qa test user' });
    const unknown = await apiCall(app, 'POST', routes.auth.forgotPin.path, undefined, { memberName: 'Nobody Known' });
    expect(qa.statusCode, qa.body).toBe(200);
    expect(qa.body).toBe(unknown.body);
    const requests = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
    expect(requests.filter((request) => request.memberName === QA_NAME)).toEqual([]);
    expect((await qaMember()).pin_hash).toBe(before);
    const audited = await app.database.db.selectFrom('audit_log').select(['outcome', 'detail']).where('event', '=', 'forgot-pin').where('actor_name', '=', QA_NAME).execute();
    expect(audited).toEqual([{ outcome: 'failure', detail: 'the QA member: no PIN reset' }]);
  });

  it('keeps its PIN when an admin resolves a request filed for it earlier', async () => {
    await insertPinResetRequest(app.database.db, await qaMember());
    const requests = pinResetRequestSchema.array().parse((await apiCall(app, 'GET', routes.admin.pinResetRequests.path, admin)).json());
    const request = requests.find((entry) => entry.memberName === QA_NAME && entry.status === 'pending');
    if (request === undefined) throw new Error('no pending request of the QA member');
    const before = (await qaMember()).pin_hash;
    const resolved = await apiCall(app, 'POST', buildPath(routes.admin.resolvePinReset.path, { id: request.id }), admin, { adminPassword: TEST_SECRETS.adminPassword });
    const body = expectApiError(resolved, 409, 'FORBIDDEN_CHANGE');
    expect(body.message).toMatch(/QA Test User is the QA user/);
    expect((await qaMember()).pin_hash).toBe(before);
  });

  it('is not reactivated by a self-test run: the run is refused with a message saying so', async () => {
    const path = buildPath(routes.admin.setActive.path, { id: (await qaMember()).id });
    const deactivate = await apiCall(app, 'POST', path, admin, { adminPassword: TEST_SECRETS.adminPassword, active: false });
    expect(deactivate.statusCode, deactivate.body).toBe(200);

    const run = await apiCall(app, 'POST', routes.qa.runTests.path, admin);
    const body = expectApiError(run, 409, 'MEMBER_INACTIVE');
    expect(body.message).toBe('The QA member QA Test User is deactivated, so the self-test cannot run; an admin can reactivate it in Team Management');
    expect((await qaMember()).active).toBe(0);
  });
});

/**
 * QA_USER_NAME is kept for the QA member: a real member added under it first would make the
 * self-test (and the init-qa call) refuse for good (they never take a real member over).
 */
describe("the QA member's name", () => {
  const fixture = useAdminAndMember();

  it('is refused to add-member with a clear 409 before the QA member exists, and the init-qa call still works', async () => {
    const { app, admin } = fixture;
    const added = await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: TEST_SECRETS.adminPassword, memberName: '  qa  TEST user ' });
    const body = expectApiError(added, 409, 'CONFLICT');
    expect(body.message).toBe(`"QA Test User" is the QA user's name (QA_USER_NAME), kept for the self-test, which creates that member itself: choose another name`);
    expect(await findMemberByKey(app.database.db, nameKey(QA_NAME))).toBeUndefined();

    const init = await apiCall(app, 'POST', routes.admin.initQa.path, admin, { adminPassword: TEST_SECRETS.adminPassword });
    expect(init.statusCode, init.body).toBe(200);
    expect(await findMemberByKey(app.database.db, nameKey(QA_NAME))).toMatchObject({ is_qa: 1 });
    // Once it exists the name is still refused, the same way; other names are added as ever.
    expectApiError(await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: TEST_SECRETS.adminPassword, memberName: QA_NAME }), 409, 'CONFLICT');
    const other = await apiCall(app, 'POST', routes.admin.addMember.path, admin, { adminPassword: TEST_SECRETS.adminPassword, memberName: 'QA Test Userton' });
    expect(addMemberResultSchema.parse(other.json()).memberName).toBe('QA Test Userton');
  });
});
