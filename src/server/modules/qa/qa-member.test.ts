import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../common/api/index.js';
import { buildPath } from '../../../common/api/route.js';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { useAdminAndMember } from '../../test/admin-app.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, type SessionCookies } from '../../test/sign-in.js';
import { TEST_SECRETS } from '../../test/test-app.js';
import { SessionStore } from '../auth/sessions.js';
import { findMemberByKey } from '../members/repo.js';

const QA_NAME = 'QA Test User';

/**
 * The QA member is the self-test's, not a shared account: the sign-in routes refuse it whatever the
 * PIN, and a self-test run never brings back a QA member an admin deactivated.
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

  it('is not reactivated by a self-test run: the run is refused with a message saying so', async () => {
    const path = buildPath(routes.admin.setActive.path, { id: (await qaMember()).id });
    const deactivate = await apiCall(app, 'POST', path, admin, { adminPassword: TEST_SECRETS.adminPassword, active: false });
    expect(deactivate.statusCode, deactivate.body).toBe(200);

    const run = await apiCall(app, 'POST', routes.qa.runTests.path, admin);
    const body = expectApiError(run, 409, 'MEMBER_INACTIVE');
    expect(body.message).toMatch(/QA Test User.*deactivated/);
    expect((await qaMember()).active).toBe(0);
  });
});
