import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Selectable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { AuditLogTable } from '../../db/schema.js';
import type { App } from '../../http/types.js';
import { TEST_SECRETS, testConfig } from '../../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { openEnrollmentLink } from '../../test/sign-in.js';
import { addMember } from '../members/service.js';

/** The audit log: who signed in, failed, was locked, logged out or asked for a PIN reset; never a secret. */

type AuditRow = Selectable<AuditLogTable>;

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const PASSWORD = TEST_SECRETS.teamPassword;
/** Every PIN this file sends; none may be stored or logged. */
const PINS = ['5791', '6803', '7914', '3580'] as const;
const [PIN, WRONG_PIN, OTHER_PIN, QUICK_WRONG_PIN] = PINS;

/** A PIN as a value of its own, not as four digits inside a timestamp or a duration. */
const standalone = (pin: string) => new RegExp(`(?<![\\w.])${pin}(?![\\w.])`);

describe('audit log', () => {
  let database: TestDatabase;
  let app: App;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp(testConfig(database, { signInLimitPerMinute: 10_000, logLevel: 'trace' }), {
      collectProcessMetrics: false,
      logDestination: {
        write(line: string) {
          logLines.push(line);
        },
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  const post = (url: string, payload: unknown, options: Omit<InjectOptions, 'method' | 'url' | 'payload'> = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: payload === undefined ? '' : JSON.stringify(payload), ...options });

  function cookieValue(response: LightMyRequestResponse, name: string): string {
    const found = response.cookies.find((cookie) => cookie.name === name);
    if (found === undefined) throw new Error(`no ${name} cookie (status ${response.statusCode}: ${response.body})`);
    return found.value;
  }

  /** Where a test starts: the time, the last audit row before it, the log lines before it. */
  async function mark() {
    const last = await app.database.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return { since: Date.now(), afterId: last?.id ?? 0, logStart: logLines.length };
  }
  type Mark = Awaited<ReturnType<typeof mark>>;

  /** The rows written since the mark, oldest first. */
  const rowsSince = (start: Mark) => app.database.db.selectFrom('audit_log').selectAll().where('id', '>', start.afterId).orderBy('id').execute();

  function expectRow(rows: AuditRow[], expected: Partial<AuditRow>) {
    expect(rows, JSON.stringify(rows, null, 1)).toContainEqual(expect.objectContaining(expected));
  }

  /** No audit row and no log line written since the mark holds a PIN or the team password. */
  async function expectNoSecretsSince(start: Mark) {
    const rows = await rowsSince(start);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const text = [row.event, row.outcome, row.actor_name, row.ip, row.detail].join('\u0000');
      expect(text, `audit row ${row.id}`).not.toContain(PASSWORD);
      for (const pin of PINS) expect(text, `audit row ${row.id}`).not.toContain(pin);
    }
    const lines = logLines.slice(start.logStart);
    // The log runs at trace level: each request leaves lines, and they name the routes.
    expect(lines.some((line) => line.includes('"url":"/api/'))).toBe(true);
    for (const line of lines) {
      expect(line).not.toContain(PASSWORD);
      for (const pin of PINS) expect(line).not.toMatch(standalone(pin));
    }
  }

  it('records PIN setup, sign-in success and failure, with actor, address, time and outcome', async () => {
    await addMember(app.database.db, 'Ada Lovelace');
    const ip = '198.51.100.23';
    const start = await mark();
    const { cookies, url } = await openEnrollmentLink(app, 'Ada Lovelace');
    expect((await post('/api/login', { password: PASSWORD, name: 'ada lovelace', pin: '' }, { remoteAddress: ip, cookies })).statusCode).toBe(202);
    expect((await post('/api/setup-pin', { password: PASSWORD, name: 'Ada Lovelace', pin: PIN }, { remoteAddress: ip, cookies })).statusCode).toBe(200);
    expect((await post('/api/setup-pin', { password: PASSWORD, name: 'Ada Lovelace', pin: OTHER_PIN }, { remoteAddress: ip, cookies })).statusCode).toBe(403);
    expect((await post('/api/login', { password: PASSWORD, name: 'ADA LOVELACE', pin: PIN }, { remoteAddress: ip })).statusCode).toBe(200);
    expect((await post('/api/login', { password: PASSWORD, name: 'Ada Lovelace', pin: WRONG_PIN }, { remoteAddress: ip })).statusCode).toBe(401);
    expect((await post('/api/login', { password: 'wrong-team-password', name: 'Ada Lovelace', pin: PIN }, { remoteAddress: ip })).statusCode).toBe(401);
    expect((await post('/api/login', { password: PASSWORD, name: 'Nobody Known', pin: PIN }, { remoteAddress: ip })).statusCode).toBe(401);
    const until = Date.now();

    const rows = await rowsSince(start);
    for (const row of rows) {
      expect(row.ip).toBe(ip);
      expect(row.created_at).toBeGreaterThanOrEqual(start.since);
      expect(row.created_at).toBeLessThanOrEqual(until);
    }
    expectRow(rows, { event: 'sign-in', outcome: 'info', actor_name: 'Ada Lovelace' });
    expectRow(rows, { event: 'pin-setup', outcome: 'success', actor_name: 'Ada Lovelace' });
    expectRow(rows, { event: 'pin-setup', outcome: 'failure', actor_name: 'Ada Lovelace' });
    expectRow(rows, { event: 'sign-in', outcome: 'success', actor_name: 'Ada Lovelace' });
    expect(rows.filter((row) => row.event === 'sign-in' && row.outcome === 'failure' && row.actor_name === 'Ada Lovelace')).toHaveLength(2);
    expectRow(rows, { event: 'sign-in', outcome: 'failure', actor_name: 'Nobody Known' });
    await expectNoSecretsSince(start);
    // The enrollment token is a credential too: the request that opened the link is logged without it.
    const token = url.split('/').pop() ?? '';
    expect(token).toHaveLength(43);
    const lines = logLines.slice(start.logStart);
    expect(lines.some((line) => line.includes('"url":"/enroll/[token]"'))).toBe(true);
    for (const line of lines) expect(line).not.toContain(token);
  });

  it('records quick login, logout, clear-session and forgot-PIN', async () => {
    await addMember(app.database.db, 'Grace Hopper');
    const ip = '198.51.100.42';
    const start = await mark();
    const { cookies } = await openEnrollmentLink(app, 'Grace Hopper');
    const setup = await post('/api/setup-pin', { password: PASSWORD, name: 'Grace Hopper', pin: OTHER_PIN }, { remoteAddress: ip, cookies });
    const device = cookieValue(setup, 'biggy_device');
    const quick = await post('/api/quick-login', { name: 'Grace Hopper', pin: OTHER_PIN }, { remoteAddress: ip, cookies: { biggy_device: device } });
    expect(quick.statusCode).toBe(200);
    const session = cookieValue(quick, 'biggy_session');
    expect((await post('/api/quick-login', { name: 'Grace Hopper', pin: QUICK_WRONG_PIN }, { remoteAddress: ip, cookies: { biggy_device: device } })).statusCode).toBe(401);
    expect((await post('/api/logout', undefined, { remoteAddress: ip, cookies: { biggy_session: session } })).statusCode).toBe(200);
    expect((await post('/api/clear-session', undefined, { remoteAddress: ip, cookies: { biggy_device: device } })).statusCode).toBe(200);
    expect((await post('/api/forgot-pin', { memberName: 'grace hopper' }, { remoteAddress: ip })).statusCode).toBe(200);
    expect((await post('/api/forgot-pin', { memberName: 'Nobody Else' }, { remoteAddress: ip })).statusCode).toBe(200);

    const rows = await rowsSince(start);
    expect(rows.every((row) => row.ip === ip)).toBe(true);
    expectRow(rows, { event: 'quick-login', outcome: 'success', actor_name: 'Grace Hopper' });
    expectRow(rows, { event: 'quick-login', outcome: 'failure', actor_name: 'Grace Hopper' });
    expectRow(rows, { event: 'logout', outcome: 'success', actor_name: 'Grace Hopper' });
    expectRow(rows, { event: 'clear-session', outcome: 'success' });
    expectRow(rows, { event: 'forgot-pin', outcome: 'success', actor_name: 'Grace Hopper' });
    expectRow(rows, { event: 'forgot-pin', outcome: 'failure', actor_name: 'Nobody Else' });
    await expectNoSecretsSince(start);
  });

  it('writes nothing for a logout or clear-session that ended nothing, and answers it as before', async () => {
    await addMember(app.database.db, 'Katherine Johnson');
    const { cookies } = await openEnrollmentLink(app, 'Katherine Johnson');
    const setup = await post('/api/setup-pin', { password: PASSWORD, name: 'Katherine Johnson', pin: PIN }, { cookies });
    const session = cookieValue(setup, 'biggy_session');
    expect((await post('/api/logout', undefined, { cookies: { biggy_session: session } })).statusCode).toBe(200);
    const start = await mark();
    // Public and not rate-limited: with nothing to end, a call must store nothing, however many come.
    const calls: { url: string; cookies: Record<string, string> }[] = [
      { url: '/api/logout', cookies: {} },
      { url: '/api/logout', cookies: { biggy_session: 'not-a-session' } },
      { url: '/api/logout', cookies: { biggy_session: session } },
      { url: '/api/clear-session', cookies: {} },
      { url: '/api/clear-session', cookies: { biggy_session: 'not-a-session', biggy_device: 'not-a-device' } },
      { url: '/api/clear-session', cookies: { biggy_session: session } },
    ];
    for (const call of calls) {
      const response = await post(call.url, undefined, { remoteAddress: '203.0.113.9', cookies: call.cookies });
      expect(response.statusCode, `${call.url}: ${response.body}`).toBe(200);
      expect(response.json()).toEqual({ message: call.url === '/api/logout' ? 'Logged out' : 'Session cleared' });
      expect(response.cookies.find((cookie) => cookie.name === 'biggy_session')?.value).toBe('');
    }
    expect(await rowsSince(start)).toEqual([]);
  });

  it('records the lockout and every attempt refused by it', async () => {
    await addMember(app.database.db, 'Alan Turing');
    const { cookies } = await openEnrollmentLink(app, 'Alan Turing');
    expect((await post('/api/setup-pin', { password: PASSWORD, name: 'Alan Turing', pin: PIN }, { cookies })).statusCode).toBe(200);
    const ip = '198.51.100.77';
    const start = await mark();
    for (let i = 0; i < 4; i += 1) {
      expect((await post('/api/login', { password: PASSWORD, name: 'Alan Turing', pin: WRONG_PIN }, { remoteAddress: ip })).statusCode).toBe(401);
    }
    expect((await post('/api/login', { password: PASSWORD, name: 'Alan Turing', pin: WRONG_PIN }, { remoteAddress: ip })).statusCode).toBe(429);
    expect((await post('/api/login', { password: PASSWORD, name: 'Alan Turing', pin: PIN }, { remoteAddress: ip })).statusCode).toBe(429);

    const rows = await rowsSince(start);
    const locks = rows.filter((row) => row.event === 'lockout');
    expect(locks).toHaveLength(2);
    for (const row of locks) expect(row).toMatchObject({ outcome: 'locked', actor_name: 'Alan Turing', ip });
    expect(locks[0]?.detail).toMatch(/^locked for unknown devices .* until \d{4}-\d\d-\d\dT/);
    expect(rows.filter((row) => row.event === 'sign-in' && row.outcome === 'failure')).toHaveLength(5);
    await expectNoSecretsSince(start);
  });
});
