import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContract } from '../../../common/contract/auth.js';
import { apiErrorSchema } from '../../../common/contract/common.js';
import { reportErrorContract } from '../../../common/contract/error-reports.js';
import { healthContract } from '../../../common/contract/health.js';
import { currentUserSchema } from '../../../common/contract/user.js';
import { nameKey } from '../../../common/names.js';
import type { App } from '../../http/types.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../../test/test-app.js';
import { openEnrollmentLink } from '../../test/sign-in.js';
import { findMemberByKey, setFirstPinHash } from '../members/repo.js';
import { addMember } from '../members/service.js';
import { hashPin } from './secrets.js';

/**
 * Roles are server facts and every /api route needs a member unless it says
 * otherwise. The route × role matrix runs against the real app with test routes of each access.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;

/** The only /api routes a signed-out caller may reach (health, the sign-in calls, error reports). */
const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  '/api/health',
  '/api/login',
  '/api/setup-pin',
  '/api/quick-login',
  '/api/logout',
  '/api/clear-session',
  '/api/check-session',
  '/api/team-members/names',
  '/api/forgot-pin',
  '/api/enrollment',
  '/api/errors/log',
]);

interface RegisteredRoute {
  method: string;
  url: string;
}

/**
 * Every route the app has, read from Fastify's own route tree, so a route added later is checked
 * without anyone remembering to list it here. printRoutes draws a tree: a child line continues its
 * parent's path, each level indented by four characters.
 */
function registeredRoutes(app: App): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const methods = match[3];
    if (methods === undefined) continue;
    for (const method of methods.split(', ')) routes.push({ method, url: stack.join('') });
  }
  return routes;
}

function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(apiErrorSchema.parse(response.json()).code, response.body).toBe(code);
}

describe('route access', () => {
  let testApp: TestApp;
  let app: App;
  let memberSession: string;
  let adminSession: string;
  let memberId: number;

  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
    // There are no admin routes yet: these stand in for them and for ordinary member routes.
    app.post('/api/test-admin', { config: { access: 'admin' } }, (_request, reply) => reply.send({ ok: true }));
    app.get('/api/test-admin', { config: { access: 'admin' } }, (_request, reply) => reply.send({ ok: true }));
    app.get('/api/test-member', (_request, reply) => reply.send({ ok: true }));
    app.post('/api/test-member', (_request, reply) => reply.send({ ok: true }));
    app.delete('/api/test-member/:id', (_request, reply) => reply.send({ ok: true }));
    app.get('/api/test-member/:memberId/detail', (_request, reply) => reply.send({ ok: true }));

    const db = app.database.db;
    await addMember(db, 'Morgan Member');
    const member = await findMemberByKey(db, nameKey('Morgan Member'));
    if (member === undefined) throw new Error('member was not created');
    memberId = member.id;
    await setFirstPinHash(db, member.id, await hashPin('3816', TEST_SECRETS.pinPepper));
    memberSession = sessionOf(await post('/api/login', { password: TEST_SECRETS.teamPassword, name: 'Morgan Member', pin: '3816' }));
    // ADMIN_NAME made 'Avery Admin' the admin, without a PIN: the first sign-in sets it.
    const { cookies } = await openEnrollmentLink(app, 'Avery Admin');
    adminSession = sessionOf(await post('/api/setup-pin', { password: TEST_SECRETS.teamPassword, name: 'Avery Admin', pin: '5062' }, { cookies }));
  });
  afterAll(async () => {
    await testApp.close();
  });

  function post(url: string, payload: unknown, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) {
    return app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(payload), ...options });
  }

  function sessionOf(response: LightMyRequestResponse): string {
    expect(response.statusCode, response.body).toBe(200);
    const cookie = response.cookies.find((entry) => entry.name === 'biggy_session');
    if (cookie === undefined) throw new Error('no session cookie');
    return cookie.value;
  }

  const asAdminRoute = (options: Omit<InjectOptions, 'method' | 'url'>) =>
    app.inject({ method: 'POST', url: '/api/test-admin', headers: JSON_HEADERS, ...options });

  describe('requireAdmin', () => {
    it('answers 401 to a signed-out caller', async () => {
      expectError(await asAdminRoute({ payload: '{}' }), 401, 'UNAUTHENTICATED');
      expectError(await app.inject({ method: 'GET', url: '/api/test-admin' }), 401, 'UNAUTHENTICATED');
    });

    it("answers 403 to a member's session whatever name, role or flag it sends", async () => {
      const bodies: unknown[] = [
        {},
        { role: 'admin' },
        { isAdmin: true },
        { admin: true },
        { name: 'Avery Admin' },
        { memberName: 'Avery Admin' },
        { adminPassword: TEST_SECRETS.adminPassword },
        { role: 'admin', isAdmin: true, name: 'Avery Admin', adminPassword: TEST_SECRETS.adminPassword },
        { user: { role: 'admin', name: 'Avery Admin' } },
      ];
      for (const body of bodies) {
        const response = await asAdminRoute({ payload: JSON.stringify(body), cookies: { biggy_session: memberSession } });
        expectError(response, 403, 'ADMIN_ONLY');
      }
      const headerSets: Record<string, string>[] = [
        { 'x-role': 'admin' },
        { 'x-admin': 'true' },
        { 'x-user-name': 'Avery Admin' },
        { 'x-admin-password': TEST_SECRETS.adminPassword },
        { authorization: `Bearer ${TEST_SECRETS.adminPassword}` },
        { 'x-forwarded-user': 'Avery Admin' },
      ];
      for (const headers of headerSets) {
        const response = await asAdminRoute({ payload: '{}', headers: { ...JSON_HEADERS, ...headers }, cookies: { biggy_session: memberSession } });
        expectError(response, 403, 'ADMIN_ONLY');
      }
      const withCookies = await asAdminRoute({ payload: '{}', cookies: { biggy_session: memberSession, role: 'admin', isAdmin: 'true', name: 'Avery Admin' } });
      expectError(withCookies, 403, 'ADMIN_ONLY');
      const withQuery = await app.inject({
        method: 'GET',
        url: '/api/test-admin',
        query: { role: 'admin', isAdmin: 'true', name: 'Avery Admin' },
        cookies: { biggy_session: memberSession },
      });
      expectError(withQuery, 403, 'ADMIN_ONLY');
    });

    it("answers 200 to the admin's session", async () => {
      const response = await asAdminRoute({ payload: '{}', cookies: { biggy_session: adminSession } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });
      expect((await app.inject({ method: 'GET', url: '/api/test-admin', cookies: { biggy_session: adminSession } })).statusCode).toBe(200);
    });

    // A role changed behind the app's back applies within a second (session-cache.test.ts); one the app announces, at once.
    it('reads the role from the database, at once after a member change', async () => {
      const db = app.database.db;
      const user = async () => currentUserSchema.parse((await app.inject({ method: 'GET', url: '/api/user', cookies: { biggy_session: memberSession } })).json());
      const setRole = async (role: 'admin' | 'member') => {
        await db.updateTable('members').set({ role }).where('id', '=', memberId).execute();
        await app.events.publish({ type: 'members.changed' });
      };
      expect((await user()).role).toBe('member');
      await setRole('admin');
      try {
        expect((await user()).role).toBe('admin');
        expect((await asAdminRoute({ payload: '{}', cookies: { biggy_session: memberSession } })).statusCode).toBe(200);
      } finally {
        await setRole('member');
      }
      expect((await user()).role).toBe('member');
      expectError(await asAdminRoute({ payload: '{}', cookies: { biggy_session: memberSession } }), 403, 'ADMIN_ONLY');
    });

    it('reports the role in GET /api/user', async () => {
      const roleOf = async (session: string) =>
        currentUserSchema.parse((await app.inject({ method: 'GET', url: '/api/user', cookies: { biggy_session: session } })).json()).role;
      expect(await roleOf(adminSession)).toBe('admin');
      expect(await roleOf(memberSession)).toBe('member');
    });
  });

  describe('requireMember (the default)', () => {
    it('answers 401 to a signed-out caller or a forged session and 200 to a member', async () => {
      expectError(await app.inject({ method: 'GET', url: '/api/test-member' }), 401, 'UNAUTHENTICATED');
      expect((await app.inject({ method: 'HEAD', url: '/api/test-member' })).statusCode).toBe(401);
      expectError(await post('/api/test-member', {}), 401, 'UNAUTHENTICATED');
      expectError(await app.inject({ method: 'GET', url: '/api/test-member', cookies: { biggy_session: 'forged' } }), 401, 'UNAUTHENTICATED');
      expect((await app.inject({ method: 'GET', url: '/api/test-member', cookies: { biggy_session: memberSession } })).statusCode).toBe(200);
      expect((await post('/api/test-member', {}, { cookies: { biggy_session: memberSession } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/test-member', cookies: { biggy_session: adminSession } })).statusCode).toBe(200);
    });

    it('guards a route however its path is spelled (percent-encoding, trailing slash, query)', async () => {
      for (const url of ['/%61pi/test-member', '/api/%74est-member', '/%61%70%69/test-member', '/api/test-member/', '/api/test-member?role=admin']) {
        expectError(await app.inject({ method: 'GET', url }), 401, 'UNAUTHENTICATED');
      }
      expectError(await app.inject({ method: 'DELETE', url: '/%61pi/test-member/7', headers: JSON_HEADERS }), 401, 'UNAUTHENTICATED');
      expectError(await app.inject({ method: 'GET', url: '/%61pi/test-admin', cookies: { biggy_session: memberSession } }), 403, 'ADMIN_ONLY');
    });
  });

  describe('deny by default', () => {
    it('finds every route of the contract in the route table', () => {
      const urls = new Set(registeredRoutes(app).map((route) => `${route.method} ${route.url}`));
      const contract = [...Object.values(authContract), reportErrorContract, healthContract];
      for (const route of contract) expect(urls, `${route.method} ${route.path}`).toContain(`${route.method} ${route.path}`);
      // Parametric routes too, including siblings whose parameter names the tree prints merged.
      expect([...urls].some((entry) => /^DELETE \/api\/test-member\/:[^/]+$/.test(entry)), [...urls].join('\n')).toBe(true);
      expect([...urls].some((entry) => /^GET \/api\/test-member\/:[^/]+\/detail$/.test(entry)), [...urls].join('\n')).toBe(true);
      for (const url of PUBLIC_ROUTES) expect([...urls].some((entry) => entry.endsWith(` ${url}`)), url).toBe(true);
    });

    it('answers 401 to a signed-out caller on every /api route except the public ones', async () => {
      const apiRoutes = registeredRoutes(app).filter((route) => route.url.startsWith('/api/'));
      expect(apiRoutes.length).toBeGreaterThan(PUBLIC_ROUTES.size);
      let address = 0;
      for (const route of apiRoutes) {
        address += 1;
        // Parameters become '1' (find-my-way prints siblings' names joined, as ':componentId|:id').
        const url = route.url.replace(/:[^/]+/g, '1').replace(/\*/g, 'x');
        const withBody = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
        const response = await app.inject({
          method: route.method as InjectOptions['method'],
          url,
          remoteAddress: `192.0.2.${address}`,
          ...(withBody ? { headers: JSON_HEADERS, payload: '{}' } : {}),
        });
        const label = `${route.method} ${route.url} → ${response.statusCode} ${response.body}`;
        const code = response.body === '' ? undefined : apiErrorSchema.safeParse(response.json()).data?.code;
        if (PUBLIC_ROUTES.has(route.url)) {
          expect(code, label).not.toBe('UNAUTHENTICATED');
          // The names need a member or the team password: 401, but a reason of their own.
          if (route.url === '/api/team-members/names') expect(response.statusCode, label).toBe(401);
          else expect(response.statusCode, label).not.toBe(401);
        } else {
          expect(response.statusCode, label).toBe(401);
          if (route.method !== 'HEAD') expect(code, label).toBe('UNAUTHENTICATED');
        }
      }
    });
  });
});
