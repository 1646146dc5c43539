import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../common/api/index.js';
import { EVENTS_PATH } from '../../common/api/live-events.js';
import { buildPath, type Route } from '../../common/api/route.js';
import type { App } from '../http/types.js';
import { apiCall, signInAs, type ApiMethod, type SessionCookies } from '../test/sign-in.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Every /api route × every kind of caller, generated from the shared route table: a route added to
 * the table is checked without anyone writing a line here, and a route the server registers
 * outside the table fails the first test. What each caller may do is stated here, independently
 * of the server's own declarations.
 */

const PASSWORD = TEST_SECRETS.adminPassword;
const allRoutes: Route[] = Object.values(routes).flatMap((area: Readonly<Record<string, Route>>) => Object.values(area));
const key = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/**
 * Callable signed out. Two answer a stranger 401 on their own terms: who is signed in (nobody), and
 * the names, which need the team password in a header.
 */
const ANONYMOUS_401 = new Set([routes.auth.user, routes.auth.teamMemberNames].map(key));
const PUBLIC = new Set(
  [
    routes.auth.user,
    routes.auth.login,
    routes.auth.setupPin,
    routes.auth.quickLogin,
    routes.auth.logout,
    routes.auth.clearSession,
    routes.auth.checkSession,
    routes.auth.teamMemberNames,
    routes.auth.forgotPin,
    routes.auth.enrollment,
    routes.errorReports.create,
    routes.health.get,
  ].map(key),
);

/** The admin panel's calls: 403 to members. */
const ADMIN = new Set(
  [
    ...Object.values(routes.admin),
    ...Object.values(routes.qa),
    ...Object.values(routes.aiPrompts),
    routes.errorReports.list,
    routes.errorReports.unresolved,
    routes.errorReports.resolve,
    routes.decisions.record,
    routes.suggestions.setStatus,
    routes.suggestions.assign,
  ].map(key),
);

/** A well-formed body for each admin call that takes one; every one of them carries the admin password. */
const ADMIN_BODIES = new Map<string, Record<string, unknown>>([
  [key(routes.admin.addMember), { adminPassword: PASSWORD, memberName: 'Matrix Member' }],
  [key(routes.admin.enrollmentLink), { adminPassword: PASSWORD }],
  [key(routes.admin.unlock), { adminPassword: PASSWORD }],
  [key(routes.admin.setRole), { adminPassword: PASSWORD, role: 'member' }],
  [key(routes.admin.setActive), { adminPassword: PASSWORD, active: true }],
  [key(routes.admin.initQa), { adminPassword: PASSWORD }],
  [key(routes.admin.resetPin), { adminPassword: PASSWORD }],
  [key(routes.admin.resolvePinReset), { adminPassword: PASSWORD }],
  [key(routes.aiPrompts.create), { adminPassword: PASSWORD, name: 'narrative-summary', prompt: 'Summarise:\n{suggestionsText}', description: 'Matrix', isActive: 1 }],
  [key(routes.aiPrompts.activate), { adminPassword: PASSWORD }],
  [key(routes.decisions.record), { adminPassword: PASSWORD, outcome: 'deferred', rationale: 'Matrix run' }],
  [key(routes.suggestions.setStatus), { adminPassword: PASSWORD, status: 'accepted' }],
  [key(routes.suggestions.assign), { adminPassword: PASSWORD, ownerName: 'Mel Member' }],
]);

type Caller = 'anonymous' | 'member' | 'admin without admin password' | 'admin';

function urlOf(route: Route): string {
  const names = [...route.path.matchAll(/:([A-Za-z]\w*)/g)].map((match) => match[1] ?? '');
  const params = Object.fromEntries(names.map((name) => [name, name === 'componentId' ? 'event-management' : 999_999]));
  return names.length === 0 ? route.path : buildPath(route.path, params);
}

/** What a caller must get: an exact status, or "anything but a refusal of who they are, and no 5xx". */
function expectation(route: Route, caller: Caller): number | 'allowed' {
  const isAdminRoute = ADMIN.has(key(route));
  const isPublic = PUBLIC.has(key(route));
  switch (caller) {
    case 'anonymous':
      return isPublic && !ANONYMOUS_401.has(key(route)) ? 'allowed' : 401;
    case 'member':
      return isAdminRoute ? 403 : 'allowed';
    case 'admin without admin password':
      return ADMIN_BODIES.has(key(route)) ? 400 : 'allowed';
    case 'admin':
      return 'allowed';
  }
}

describe('route × role matrix', () => {
  let testApp: TestApp;
  let app: App;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('the server registers no /api route outside the shared table', () => {
    const table = new Set(allRoutes.map(key));
    // The live stream is not a JSON call: its path is shared as EVENTS_PATH and it is members-only.
    const outside = app.apiRoutes.filter((route) => route.method !== 'HEAD' && route.url !== EVENTS_PATH && !table.has(`${route.method} ${route.url}`));
    expect(outside).toEqual([]);
    expect(app.apiRoutes.find((route) => route.url === EVENTS_PATH && route.method === 'GET')?.access).toBe('member');
    expect(allRoutes.length).toBeGreaterThan(40);
  });

  it('every admin call that changes something has a sample body with the admin password', () => {
    const changing = allRoutes.filter((route) => ADMIN.has(key(route)) && route.method !== 'GET');
    const withoutBody = changing.filter((route) => !ADMIN_BODIES.has(key(route))).map(key);
    // These three take no body in the product's contract: the admin role alone decides.
    expect(withoutBody.sort()).toEqual([key(routes.errorReports.resolve), key(routes.qa.runTests)].sort());
  });

  const callers: Caller[] = ['anonymous', 'member', 'admin without admin password', 'admin'];
  const sessionOf = async (caller: Caller): Promise<SessionCookies | undefined> => {
    if (caller === 'anonymous') return undefined;
    // A fresh session for every call: logout and clear-session end the one they are sent with.
    return signInAs(app, caller === 'member' ? 'Mel Member' : 'Avery Admin');
  };

  for (const route of allRoutes) {
    it(`${key(route)}: ${callers.map((caller) => `${caller} → ${String(expectation(route, caller))}`).join(', ')}`, async () => {
      for (const caller of callers) {
        const expected = expectation(route, caller);
        // An admin call without a password-carrying body does the same with or without the password: it runs once.
        if (caller === 'admin' && ADMIN.has(key(route)) && !ADMIN_BODIES.has(key(route))) continue;
        const body = caller === 'admin' ? (ADMIN_BODIES.get(key(route)) ?? {}) : route.method === 'GET' ? undefined : {};
        const response = await apiCall(app, route.method as ApiMethod, urlOf(route), await sessionOf(caller), body);
        const label = `${caller} ${key(route)} answered ${response.statusCode}: ${response.body.slice(0, 200)}`;
        if (expected === 'allowed') {
          expect(response.statusCode, label).toBeLessThan(500);
          expect([401, 403], label).not.toContain(response.statusCode);
        } else {
          expect(response.statusCode, label).toBe(expected);
        }
      }
    }, 60_000);
  }
});
