import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../common/contract/common.js';
import { nameKey } from '../../common/names.js';
import { findMemberByKey, setFirstPinHash } from '../modules/members/repo.js';
import { addMember } from '../modules/members/service.js';
import { hashPin } from '../modules/auth/secrets.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';
import type { App } from './types.js';

/**
 * A state-changing /api call must be same-origin and JSON. light-my-request
 * sends Host 'localhost:80', so this app's own origin is http://localhost:80.
 */

const SAME_ORIGIN = 'http://localhost:80';
const JSON_HEADERS = { 'content-type': 'application/json' } as const;

function expectRejected(response: LightMyRequestResponse, label: string) {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(403);
  expect(apiErrorSchema.parse(response.json()).code, label).toBe('CSRF_REJECTED');
}

describe('CSRF protection', () => {
  let testApp: TestApp;
  let app: App;
  let session: string;
  let hits = 0;

  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
    // A member route of every state-changing method, counting the calls that got through.
    const handler = () => {
      hits += 1;
      return { ok: true };
    };
    app.post('/api/test-change', handler);
    app.put('/api/test-change', handler);
    app.patch('/api/test-change', handler);
    app.delete('/api/test-change', handler);
    app.get('/api/test-change', handler);

    await addMember(app.database.db, 'Ada Lovelace');
    const member = await findMemberByKey(app.database.db, nameKey('Ada Lovelace'));
    if (member === undefined) throw new Error('member was not created');
    await setFirstPinHash(app.database.db, member.id, await hashPin('3816', TEST_SECRETS.pinPepper));
    session = await signIn();
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function signIn(): Promise<string> {
    const login = await app.inject({
      method: 'POST',
      url: '/api/login',
      headers: JSON_HEADERS,
      payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name: 'Ada Lovelace', pin: '3816' }),
    });
    const cookie = login.cookies.find((entry) => entry.name === 'biggy_session');
    if (cookie === undefined) throw new Error(`sign-in failed: ${login.body}`);
    return cookie.value;
  }

  /** A signed-in state-changing call with the given headers (content type JSON unless overridden). */
  const change = (headers: Record<string, string>, options: Omit<InjectOptions, 'url' | 'headers'> = {}) =>
    app.inject({ method: 'POST', url: '/api/test-change', headers: { ...JSON_HEADERS, ...headers }, payload: '{}', cookies: { biggy_session: session }, ...options });

  const stillSignedIn = async () => (await app.inject({ method: 'GET', url: '/api/user', cookies: { biggy_session: session } })).statusCode === 200;

  describe('Origin', () => {
    it('refuses a foreign origin with 403 CSRF_REJECTED before the handler runs', async () => {
      const before = hits;
      for (const origin of ['https://evil.example', 'http://localhost:80.evil.example', 'https://localhost:80', 'http://localhost:8080', 'null', 'http://127.0.0.1:80']) {
        expectRejected(await change({ origin }), origin);
      }
      expect(hits).toBe(before);
    });

    it('passes this origin', async () => {
      const before = hits;
      const response = await change({ origin: SAME_ORIGIN });
      expect(response.statusCode, response.body).toBe(200);
      expect(hits).toBe(before + 1);
    });

    it('protects every state-changing method, and the sign-in calls', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        expectRejected(await change({ origin: 'https://evil.example' }, { method }), method);
      }
      const login = await app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { ...JSON_HEADERS, origin: 'https://evil.example' },
        payload: JSON.stringify({ password: TEST_SECRETS.teamPassword, name: 'Ada Lovelace', pin: '3816' }),
      });
      expectRejected(login, 'login');
      expect(login.cookies).toEqual([]);
    });

    it('refuses a forged logout, which leaves the session alive', async () => {
      for (const url of ['/api/logout', '/api/clear-session', '/%61pi/logout']) {
        const response = await app.inject({ method: 'POST', url, headers: { ...JSON_HEADERS, origin: 'https://evil.example' }, cookies: { biggy_session: session } });
        expectRejected(response, url);
      }
      expect(await stillSignedIn()).toBe(true);
    });

    it('checks the route however its path is spelled', async () => {
      expectRejected(await app.inject({ method: 'POST', url: '/%61pi/test-change', headers: { 'content-type': 'text/plain' }, payload: 'x', cookies: { biggy_session: session } }), 'text/plain');
      expectRejected(await app.inject({ method: 'POST', url: '/%61pi/test-change', headers: { ...JSON_HEADERS, origin: 'https://evil.example' }, payload: '{}', cookies: { biggy_session: session } }), 'origin');
    });
  });

  describe('Sec-Fetch-Site', () => {
    it('refuses cross-site and same-site requests', async () => {
      expectRejected(await change({ 'sec-fetch-site': 'cross-site' }), 'cross-site');
      expectRejected(await change({ 'sec-fetch-site': 'same-site' }), 'same-site');
      // A matching Origin does not excuse a cross-site fetch.
      expectRejected(await change({ 'sec-fetch-site': 'cross-site', origin: SAME_ORIGIN }), 'cross-site with own origin');
    });

    it('passes same-origin', async () => {
      expect((await change({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
      expect((await change({ 'sec-fetch-site': 'same-origin', origin: SAME_ORIGIN })).statusCode).toBe(200);
    });
  });

  describe('content type', () => {
    it('refuses anything a cross-site form can send without a preflight, and no content type at all', async () => {
      const formTypes = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'text/json'];
      for (const type of formTypes) {
        expectRejected(await change({ 'content-type': type }), type);
      }
      const noType = await app.inject({ method: 'POST', url: '/api/test-change', payload: Buffer.from('{}'), cookies: { biggy_session: session } });
      expectRejected(noType, 'no content type');
      const bodiless = await app.inject({ method: 'POST', url: '/api/logout', cookies: { biggy_session: session } });
      expectRejected(bodiless, 'logout without content type');
      expect(await stillSignedIn()).toBe(true);
    });

    it('passes JSON, with a charset or in capitals', async () => {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON']) {
        const response = await change({ 'content-type': type });
        expect(response.statusCode, `${type}: ${response.body}`).toBe(200);
      }
    });

    it('reads an empty JSON body as "no payload" (logout)', async () => {
      const own = await signIn();
      const response = await app.inject({ method: 'POST', url: '/api/logout', headers: JSON_HEADERS, payload: '', cookies: { biggy_session: own } });
      expect(response.statusCode, response.body).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/user', cookies: { biggy_session: own } })).statusCode).toBe(401);
    });
  });

  describe('safe methods', () => {
    it('are not affected', async () => {
      const hostile = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' };
      expect((await app.inject({ method: 'GET', url: '/api/check-session', headers: hostile })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/health', headers: hostile })).statusCode).toBe(200);
      // A member GET still needs the member, but never trips CSRF.
      const response = await app.inject({ method: 'GET', url: '/api/test-change', headers: hostile });
      expect(apiErrorSchema.parse(response.json()).code).toBe('UNAUTHENTICATED');
    });

    it('leaves unknown paths to their 404', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/no-such-thing', headers: { origin: 'https://evil.example', 'content-type': 'text/plain' }, payload: 'x' });
      expect(response.statusCode).toBe(404);
    });
  });
});
