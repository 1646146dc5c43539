import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustProxy } from '../config.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Whose X-Forwarded-For the server believes decides the address that per-IP limits and the audit
 * log see. The left-most entry is whatever the client wrote; only what the trusted proxies added
 * may count (ADR 0017).
 */

const SIGN_IN_LIMIT = 10;

async function appTrusting(trustProxy: TrustProxy): Promise<TestApp> {
  return createTestApp({ trustProxy, signInLimitPerMinute: SIGN_IN_LIMIT });
}

/** A sign-in with a wrong team password: counted by the per-IP limit and audited with the client's address. */
function failedSignIn(testApp: TestApp, name: string, connection: { remoteAddress: string; forwardedFor?: string; forwardedProto?: string }) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: connection.remoteAddress,
    headers: {
      'content-type': 'application/json',
      ...(connection.forwardedFor === undefined ? {} : { 'x-forwarded-for': connection.forwardedFor }),
      ...(connection.forwardedProto === undefined ? {} : { 'x-forwarded-proto': connection.forwardedProto }),
    },
    payload: JSON.stringify({ password: `not-${TEST_SECRETS.teamPassword}`, name, pin: '3816' }),
  });
}

async function auditedAddresses(testApp: TestApp, name: string): Promise<(string | null)[]> {
  const rows = await testApp.app.database.db.selectFrom('audit_log').select('ip').where('actor_name', '=', name).orderBy('id').execute();
  return rows.map((row) => row.ip);
}

describe('TRUST_PROXY=1: one proxy in front of the server', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await appTrusting(1);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const PROXY = '10.0.0.2';
  const CLIENT = '198.51.100.7';

  it('takes the address the proxy added, never a forged left-most entry', async () => {
    const name = 'Mallory Forger';
    for (let attempt = 0; attempt < SIGN_IN_LIMIT; attempt += 1) {
      // An attacker writes a new X-Forwarded-For of their own on every attempt; the proxy appends the real address.
      const response = await failedSignIn(testApp, name, { remoteAddress: PROXY, forwardedFor: `203.0.113.${attempt + 1}, ${CLIENT}` });
      expect(response.statusCode, response.body).toBe(401);
    }
    const limited = await failedSignIn(testApp, name, { remoteAddress: PROXY, forwardedFor: `203.0.113.99, ${CLIENT}` });
    expect(limited.statusCode, limited.body).toBe(429);
    expect(await auditedAddresses(testApp, name)).toEqual(Array.from({ length: SIGN_IN_LIMIT }, () => CLIENT));

    // Another client behind the same proxy has a budget of its own.
    const other = await failedSignIn(testApp, name, { remoteAddress: PROXY, forwardedFor: '198.51.100.8' });
    expect(other.statusCode, other.body).toBe(401);
  });

  it('takes the connection address when no proxy forwarded the request', async () => {
    const name = 'Direct Dana';
    const response = await failedSignIn(testApp, name, { remoteAddress: '198.51.100.30' });
    expect(response.statusCode).toBe(401);
    expect(await auditedAddresses(testApp, name)).toEqual(['198.51.100.30']);
  });
});

describe('TRUST_PROXY as a list of proxy addresses', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await appTrusting(['10.0.0.0/8', 'fd00::/8', '127.0.0.1']);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('honours X-Forwarded-For from a listed proxy', async () => {
    const name = 'Listed Lee';
    await failedSignIn(testApp, name, { remoteAddress: '10.1.2.3', forwardedFor: '198.51.100.20' });
    await failedSignIn(testApp, name, { remoteAddress: 'fd00::17', forwardedFor: '2001:db8::20' });
    expect(await auditedAddresses(testApp, name)).toEqual(['198.51.100.20', '2001:db8::20']);
  });

  it('ignores X-Forwarded-For from a connection that is not a listed proxy', async () => {
    const name = 'Unlisted Uma';
    await failedSignIn(testApp, name, { remoteAddress: '203.0.113.50', forwardedFor: '198.51.100.21' });
    await failedSignIn(testApp, name, { remoteAddress: '2001:db8::50', forwardedFor: '198.51.100.21' });
    expect(await auditedAddresses(testApp, name)).toEqual(['203.0.113.50', '2001:db8::50']);
  });

  it('walks back through listed proxies to the first address that is not one', async () => {
    const name = 'Chained Chen';
    // The client forged the first entry; an outer listed proxy (10.0.0.9) relayed to the inner one.
    await failedSignIn(testApp, name, { remoteAddress: '10.0.0.2', forwardedFor: '192.0.2.66, 198.51.100.22, 10.0.0.9' });
    expect(await auditedAddresses(testApp, name)).toEqual(['198.51.100.22']);
  });

  it('limits sign-ins by the forwarded address, whatever the client prepends', async () => {
    const name = 'Limited Liu';
    for (let attempt = 0; attempt < SIGN_IN_LIMIT; attempt += 1) {
      const response = await failedSignIn(testApp, name, { remoteAddress: '127.0.0.1', forwardedFor: `192.0.2.${attempt + 1}, 198.51.100.23` });
      expect(response.statusCode, response.body).toBe(401);
    }
    const limited = await failedSignIn(testApp, name, { remoteAddress: '127.0.0.1', forwardedFor: '192.0.2.200, 198.51.100.23' });
    expect(limited.statusCode).toBe(429);
  });

  it('believes X-Forwarded-Proto only from a listed proxy', async () => {
    const health = (remoteAddress: string) =>
      testApp.app.inject({ method: 'GET', url: '/api/health', remoteAddress, headers: { 'x-forwarded-proto': 'https' } });
    // HSTS is sent only over HTTPS, so it shows which protocol the server believed.
    expect((await health('10.0.0.2')).headers['strict-transport-security']).toBeDefined();
    expect((await health('203.0.113.50')).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('TRUST_PROXY=false (the default)', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await appTrusting(false);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('ignores X-Forwarded-For entirely', async () => {
    const name = 'Plain Pat';
    await failedSignIn(testApp, name, { remoteAddress: '198.51.100.40', forwardedFor: '192.0.2.1' });
    expect(await auditedAddresses(testApp, name)).toEqual(['198.51.100.40']);
  });
});
