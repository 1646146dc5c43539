import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameKey } from '../../common/names.js';
import type { App } from '../http/types.js';
import { setRole } from '../modules/members/repo.js';
import { signInAs, type SessionCookies } from '../test/sign-in.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';
import { expectApiError } from '../test/api-errors.js';

/**
 * Guessing the admin password: wrong guesses are throttled per session and per address (5 in 15
 * minutes, then 429) and audited; every admin action that succeeds is audited too. The same admin
 * in another session from another address is never held by it.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const PROMPT = { name: 'narrative-summary', prompt: 'Summarise for the leads:\n{suggestionsText}', description: 'Leads', isActive: 1 } as const;

describe('admin password', () => {
  let testApp: TestApp;
  let app: App;
  let admin: SessionCookies;
  let deputy: SessionCookies;
  beforeAll(async () => {
    testApp = await createTestApp();
    app = testApp.app;
    admin = await signInAs(app, 'Avery Admin');
    deputy = await signInAs(app, 'Dee Deputy');
    await setRole(app.database.db, nameKey('Dee Deputy'), 'admin');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const savePrompt = (cookies: SessionCookies, adminPassword: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: '/api/ai-prompts', headers: JSON_HEADERS, cookies, remoteAddress, payload: JSON.stringify({ ...PROMPT, adminPassword }) });
  const auditRows = (event: string, ip: string) =>
    app.database.db.selectFrom('audit_log').selectAll().where('event', '=', event).where('ip', '=', ip).orderBy('id').execute();

  it('never throttles the right password: ten saves in a row succeed, each audited', async () => {
    const ip = '198.51.100.1';
    for (let i = 0; i < 10; i += 1) expect((await savePrompt(admin, TEST_SECRETS.adminPassword, ip)).statusCode).toBe(201);
    const rows = await auditRows('admin-action', ip);
    expect(rows).toHaveLength(10);
    for (const row of rows) expect(row).toMatchObject({ outcome: 'success', actor_name: 'Avery Admin', detail: 'save AI prompt' });
  });

  it('refuses the 6th wrong password in 15 minutes with 429, even when it is right, and audits every guess', async () => {
    const ip = '198.51.100.2';
    for (let i = 0; i < 5; i += 1) expectApiError(await savePrompt(admin, `guess-${i}`, ip), 403, 'INVALID_ADMIN_PASSWORD');
    const sixth = await savePrompt(admin, TEST_SECRETS.adminPassword, ip);
    expectApiError(sixth, 429, 'ADMIN_PASSWORD_THROTTLED');
    const retryAfter = Number(sixth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);

    const guesses = await auditRows('admin-password', ip);
    expect(guesses.filter((row) => row.outcome === 'failure')).toHaveLength(5);
    expect(guesses.filter((row) => row.outcome === 'locked')).toHaveLength(1);
    for (const row of guesses) {
      expect(row.actor_name).toBe('Avery Admin');
      expect(row.detail).toMatch(/^save AI prompt: /);
      expect(row.detail).not.toContain('guess-');
    }
    // The throttle is per session: from a fresh address, the same session still waits.
    expectApiError(await savePrompt(admin, TEST_SECRETS.adminPassword, '198.51.100.3'), 429, 'ADMIN_PASSWORD_THROTTLED');
  });

  it('throttles per address too: another admin guessing from that address waits, from elsewhere does not', async () => {
    const ip = '198.51.100.4';
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    for (let i = 0; i < 5; i += 1) expectApiError(await savePrompt(deputy, `guess-${i}`, ip), 403, 'INVALID_ADMIN_PASSWORD');
    await app.database.db.deleteFrom('rate_limit_buckets').where('key', 'like', 'admin-password:session:%').execute();
    expectApiError(await savePrompt(admin, TEST_SECRETS.adminPassword, ip), 429, 'ADMIN_PASSWORD_THROTTLED');
    expect((await savePrompt(admin, TEST_SECRETS.adminPassword, '198.51.100.5')).statusCode).toBe(201);
  });

  it('checks at most 5 of a burst of 20 parallel guesses', async () => {
    const ip = '198.51.100.6';
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => savePrompt(deputy, `burst-${i}`, ip)));
    expect(answers.filter((answer) => answer.statusCode === 403)).toHaveLength(5);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(15);
    expect((await auditRows('admin-password', ip)).filter((row) => row.outcome === 'failure')).toHaveLength(5);
  });

  it("never holds the admin's other session from another address", async () => {
    await app.database.db.deleteFrom('rate_limit_buckets').execute();
    const stolen = await signInAs(app, 'Avery Admin');
    const ip = '198.51.100.7';
    for (let i = 0; i < 5; i += 1) expectApiError(await savePrompt(stolen, `guess-${i}`, ip), 403, 'INVALID_ADMIN_PASSWORD');
    expectApiError(await savePrompt(stolen, TEST_SECRETS.adminPassword, ip), 429, 'ADMIN_PASSWORD_THROTTLED');
    // The configured admin on their own device: another session, another address.
    const own = await savePrompt(admin, TEST_SECRETS.adminPassword, '198.51.100.8');
    expect(own.statusCode, own.body).toBe(201);
  });
});
