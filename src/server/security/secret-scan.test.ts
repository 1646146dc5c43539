import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_PASSWORD_HEADER } from '../../common/api/auth.js';
import { nameKey } from '../../common/names.js';
import { buildApp } from '../app.js';
import type { Secrets } from '../config.js';
import type { App } from '../http/types.js';
import { clearPinHash, findMemberByKey } from '../modules/members/repo.js';
import { addMember } from '../modules/members/service.js';
import { openEnrollmentLink } from '../test/sign-in.js';
import { TEST_SECRETS, testConfig } from '../test/test-app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';

/**
 * No value of TEAM_PASSWORD, ADMIN_PASSWORD, QA_PIN or PIN_PEPPER
 * ever reaches a client or the log. The app runs on canary secrets, every
 * sign-in route is driven through its successes and failures, and every response and log line is
 * searched; then the built client bundle is searched for the canaries and the test secrets.
 */

const CANARY: Secrets = {
  teamPassword: 'CANARY-team-7f3a',
  adminPassword: 'CANARY-admin-91bc',
  // Never used as a member's PIN below: an '8631' anywhere in the output would be the QA PIN leaking.
  qaPin: '8631',
  pinPepper: 'CANARY-pepper-5d2e-0123456789',
};

const DIST_CLIENT = fileURLToPath(new URL('../../../dist/client', import.meta.url));

/**
 * The secrets of `secrets` found in `text`. A PIN is four digits, which timestamps, durations and
 * hashes contain by chance, so it counts only as a value of its own (not inside a longer word or
 * number); the other secrets count anywhere.
 */
function leaksIn(text: string, secrets: Secrets): (keyof Secrets)[] {
  const found: (keyof Secrets)[] = [];
  for (const name of ['teamPassword', 'adminPassword', 'qaPin', 'pinPepper'] as const) {
    const value = secrets[name];
    const hit = /^\d+$/.test(value) ? new RegExp(`(?<![\\w.])${value}(?![\\w.])`).test(text) : text.includes(value);
    if (hit) found.push(name);
  }
  return found;
}

describe('the leak finder', () => {
  it('finds each secret, and a PIN only as a value of its own', () => {
    expect(leaksIn(`{"message":"password ${CANARY.teamPassword} rejected"}`, CANARY)).toEqual(['teamPassword']);
    expect(leaksIn(`x-admin: ${CANARY.adminPassword}`, CANARY)).toEqual(['adminPassword']);
    expect(leaksIn(`{"pin":"${CANARY.qaPin}"}`, CANARY)).toEqual(['qaPin']);
    expect(leaksIn(`pepper=${CANARY.pinPepper}`, CANARY)).toEqual(['pinPepper']);
    expect(leaksIn('{"time":1763686428631,"responseTime":3.8631,"id":"a8631b"}', CANARY)).toEqual([]);
  });
});

describe('secrets never leave the server', () => {
  let database: TestDatabase;
  let app: App;
  const logLines: string[] = [];
  const responses: { label: string; text: string }[] = [];
  let requestNumber = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp(testConfig(database, { secrets: { ...CANARY }, logLevel: 'trace' }), {
      collectProcessMetrics: false,
      logDestination: {
        write(line: string) {
          logLines.push(line);
        },
      },
    });
    await driveEveryAuthRoute();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  /**
   * Sends a request and keeps its whole answer. Each gets its own address (the per-IP limit is
   * exercised on purpose once) and a plain request id, so random UUIDs cannot fake a PIN hit.
   */
  async function send(label: string, options: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    requestNumber += 1;
    const response = await app.inject({
      remoteAddress: `10.77.${requestNumber >> 8}.${requestNumber & 255}`,
      ...options,
      headers: { 'x-request-id': `scan-${requestNumber}`, ...options.headers },
    });
    responses.push({
      label: `${label} (${options.method ?? 'GET'} ${options.url} → ${response.statusCode})`,
      text: `${response.statusCode}\n${JSON.stringify(response.headers)}\n${response.body}`,
    });
    return response;
  }

  const json = { 'content-type': 'application/json' } as const;
  const post = (label: string, url: string, payload: unknown, options: Omit<InjectOptions, 'url' | 'payload'> = {}) =>
    send(label, { method: 'POST', url, headers: json, payload: JSON.stringify(payload), ...options });

  function cookieValue(response: LightMyRequestResponse, name: string): string {
    const found = response.cookies.find((cookie) => cookie.name === name);
    if (found === undefined) throw new Error(`no ${name} cookie (status ${response.statusCode}: ${response.body})`);
    return found.value;
  }

  async function expectStatus(responsePromise: Promise<LightMyRequestResponse>, status: number) {
    const response = await responsePromise;
    expect(response.statusCode, response.body).toBe(status);
    return response;
  }

  async function driveEveryAuthRoute() {
    const db = app.database.db;
    const password = CANARY.teamPassword;
    await addMember(db, 'Ada Lovelace');
    await addMember(db, 'Alan Turing');
    await addMember(db, 'Grace Hopper');

    await expectStatus(send('health', { url: '/api/health' }), 200);
    await expectStatus(send('user signed out', { url: '/api/user' }), 401);
    await expectStatus(send('names without proof', { url: '/api/team-members/names' }), 401);
    await expectStatus(send('names wrong proof', { url: '/api/team-members/names', headers: { [TEAM_PASSWORD_HEADER]: 'CANARY-team-7f3b' } }), 401);
    await expectStatus(send('names with proof', { url: '/api/team-members/names', headers: { [TEAM_PASSWORD_HEADER]: password } }), 200);
    await expectStatus(send('check-session signed out', { url: '/api/check-session' }), 200);

    // First sign-in of the admin and of a member: PIN setup through their enrollment links.
    const adminLink = await openEnrollmentLink(app, 'Avery Admin');
    const adaLink = await openEnrollmentLink(app, 'Ada Lovelace');
    await expectStatus(send('enrollment status', { url: '/api/enrollment', cookies: adminLink.cookies }), 200);
    await expectStatus(post('login, PIN setup required', '/api/login', { password, name: 'avery admin', pin: '' }, { cookies: adminLink.cookies }), 202);
    await expectStatus(post('login, no enrollment', '/api/login', { password, name: 'Alan Turing', pin: '' }), 400);
    const adminSetup = await expectStatus(post('setup-pin admin', '/api/setup-pin', { password, name: 'Avery Admin', pin: '3816' }, { cookies: adminLink.cookies }), 200);
    const adminSession = cookieValue(adminSetup, 'biggy_session');
    await expectStatus(post('setup-pin again', '/api/setup-pin', { password, name: 'Avery Admin', pin: '5062' }, { cookies: adminLink.cookies }), 403);
    await expectStatus(post('setup-pin wrong password', '/api/setup-pin', { password: 'wrong-password', name: 'Ada Lovelace', pin: '5062' }, { cookies: adaLink.cookies }), 401);
    await expectStatus(post('setup-pin unknown name', '/api/setup-pin', { password, name: 'Nobody Known', pin: '5062' }), 403);
    await expectStatus(post('setup-pin guessable PIN', '/api/setup-pin', { password, name: 'Ada Lovelace', pin: '1234' }, { cookies: adaLink.cookies }), 400);
    await expectStatus(post('setup-pin bad PIN', '/api/setup-pin', { password, name: 'Ada Lovelace', pin: '24' }, { cookies: adaLink.cookies }), 400);
    const adaSetup = await expectStatus(post('setup-pin member', '/api/setup-pin', { password, name: 'Ada Lovelace', pin: '5062' }, { cookies: adaLink.cookies }), 200);
    const strayLink = await openEnrollmentLink(app, 'Ada Lovelace');
    await expectStatus(post('setup-pin over a PIN', '/api/setup-pin', { password, name: 'Ada Lovelace', pin: '4817' }, { cookies: strayLink.cookies }), 409);

    // Full login, right and wrong, and every malformed body.
    const login = await expectStatus(post('login', '/api/login', { password, name: 'Ada Lovelace', pin: '5062' }), 200);
    const session = cookieValue(login, 'biggy_session');
    const device = cookieValue(login, 'biggy_device');
    await expectStatus(post('login wrong PIN', '/api/login', { password, name: 'Ada Lovelace', pin: '9753' }), 401);
    await expectStatus(post('login wrong password', '/api/login', { password: 'CANARY-team-0000', name: 'Ada Lovelace', pin: '5062' }), 401);
    await expectStatus(post('login unknown name', '/api/login', { password, name: 'Nobody Known', pin: '5062' }), 401);
    await expectStatus(post('login PIN required', '/api/login', { password, name: 'Ada Lovelace', pin: '' }), 400);
    await expectStatus(post('login bad PIN', '/api/login', { password, name: 'Ada Lovelace', pin: '12a4' }), 400);
    await expectStatus(post('login extra field', '/api/login', { password, name: 'Ada Lovelace', pin: '5062', secret: password }), 400);
    await expectStatus(post('login long name', '/api/login', { password, name: 'N'.repeat(101), pin: '5062' }), 400);
    // A parser error must not quote the body it choked on (it holds the password).
    await expectStatus(send('login broken JSON', { method: 'POST', url: '/api/login', headers: json, payload: `{"password":"${password}","name":"Ada Lovelace",` }), 400);
    await expectStatus(send('login text body', { method: 'POST', url: '/api/login', headers: { 'content-type': 'text/plain' }, payload: password }), 403);
    await expectStatus(send('login foreign origin', { method: 'POST', url: '/api/login', headers: { ...json, origin: 'https://evil.example' }, payload: JSON.stringify({ password, name: 'Ada Lovelace', pin: '5062' }) }), 403);

    // Signed in.
    await expectStatus(send('user signed in', { url: '/api/user', cookies: { biggy_session: session } }), 200);
    await expectStatus(send('admin user', { url: '/api/user', cookies: { biggy_session: adminSession } }), 200);
    await expectStatus(send('names signed in', { url: '/api/team-members/names', cookies: { biggy_session: session } }), 200);
    await expectStatus(send('check-session with device', { url: '/api/check-session', cookies: { biggy_device: device } }), 200);
    const report = { source: 'frontend', errorType: 'api_error', message: 'failed to fetch', severity: 'medium' };
    await expectStatus(post('error report signed in', '/api/errors/log', report, { cookies: { biggy_session: session } }), 201);
    await expectStatus(post('error report signed out', '/api/errors/log', report), 201);
    await expectStatus(post('error report invalid', '/api/errors/log', { ...report, severity: 'fatal' }), 400);

    // Quick login, right and wrong, and with the PIN cleared.
    await expectStatus(post('quick-login', '/api/quick-login', { name: 'Ada Lovelace', pin: '5062' }, { cookies: { biggy_device: device } }), 200);
    await expectStatus(post('quick-login wrong PIN', '/api/quick-login', { name: 'Ada Lovelace', pin: '9753' }, { cookies: { biggy_device: device } }), 401);
    await expectStatus(post('quick-login without device', '/api/quick-login', { name: 'Ada Lovelace', pin: '5062' }), 401);
    await expectStatus(post('quick-login bad body', '/api/quick-login', { name: 'Ada Lovelace', pin: '5062', password }), 400);
    const adaDevice = cookieValue(adaSetup, 'biggy_device');
    const ada = await findMemberByKey(db, nameKey('Ada Lovelace'));
    if (ada === undefined) throw new Error('Ada is missing');
    await clearPinHash(db, ada.id);
    await expectStatus(post('quick-login PIN not set', '/api/quick-login', { name: 'Ada Lovelace', pin: '5062' }, { cookies: { biggy_device: adaDevice } }), 400);

    // Forgot PIN.
    await expectStatus(post('forgot-pin known', '/api/forgot-pin', { memberName: 'Ada Lovelace' }), 200);
    await expectStatus(post('forgot-pin unknown', '/api/forgot-pin', { memberName: 'Nobody Known' }), 200);
    await expectStatus(post('forgot-pin invalid', '/api/forgot-pin', { memberName: '' }), 400);

    // Lockout: five wrong PINs, then the right one.
    const alanLink = await openEnrollmentLink(app, 'Alan Turing');
    await expectStatus(post('setup-pin Alan', '/api/setup-pin', { password, name: 'Alan Turing', pin: '4829' }, { cookies: alanLink.cookies }), 200);
    for (let i = 0; i < 4; i += 1) await expectStatus(post('login wrong PIN before lock', '/api/login', { password, name: 'Alan Turing', pin: '9753' }), 401);
    await expectStatus(post('login locking', '/api/login', { password, name: 'Alan Turing', pin: '9753' }), 429);
    await expectStatus(post('login while locked', '/api/login', { password, name: 'Alan Turing', pin: '4829' }), 429);

    // Per-IP limit: one address past its budget, on every sign-in route.
    const sprayer = { remoteAddress: '203.0.113.99' };
    for (let i = 0; i < 10; i += 1) await expectStatus(post('spray', '/api/login', { password, name: `Sprayed Name ${String.fromCharCode(65 + i)}`, pin: '5062' }, sprayer), 401);
    await expectStatus(post('spray limited login', '/api/login', { password, name: 'Grace Hopper', pin: '' }, sprayer), 429);
    await expectStatus(post('spray limited setup', '/api/setup-pin', { password, name: 'Grace Hopper', pin: '5062' }, sprayer), 429);
    await expectStatus(send('spray limited names', { url: '/api/team-members/names', headers: { [TEAM_PASSWORD_HEADER]: password }, ...sprayer }), 429);

    // The end of sessions.
    await expectStatus(send('logout', { method: 'POST', url: '/api/logout', headers: json, payload: '', cookies: { biggy_session: session } }), 200);
    await expectStatus(send('user after logout', { url: '/api/user', cookies: { biggy_session: session } }), 401);
    await expectStatus(send('clear-session', { method: 'POST', url: '/api/clear-session', headers: json, cookies: { biggy_session: adminSession, biggy_device: device } }), 200);
    await expectStatus(send('unknown API path', { url: '/api/admin/secrets' }), 404);
  }

  it('drove every sign-in route, and the log captured it at trace level', () => {
    expect(responses.length).toBeGreaterThan(60);
    const statuses = new Set(responses.map((response) => Number(response.text.split('\n', 1)[0])));
    expect([...statuses].sort()).toEqual([200, 201, 202, 400, 401, 403, 404, 409, 429]);
    expect(logLines.length).toBeGreaterThanOrEqual(responses.length);
    for (const url of ['/api/login', '/api/setup-pin', '/api/quick-login', '/api/forgot-pin', '/api/team-members/names', '/api/logout']) {
      expect(logLines.some((line) => line.includes(`"url":"${url}`)), url).toBe(true);
    }
  });

  it('sends none of the four secrets in any response body or header', () => {
    const leaks = responses.flatMap((response) => leaksIn(response.text, CANARY).map((secret) => `${secret} in ${response.label}`));
    expect(leaks).toEqual([]);
  });

  it('writes none of the four secrets to the log', () => {
    const leaks = logLines.flatMap((line, index) => leaksIn(line, CANARY).map((secret) => `${secret} in log line ${index}: ${line.slice(0, 300)}`));
    expect(leaks).toEqual([]);
  });
});

describe('the built client bundle', () => {
  /** Every file under dist/client, compressed copies unpacked, as text. */
  async function bundleFiles(): Promise<{ file: string; text: string }[]> {
    const entries = await readdir(DIST_CLIENT, { recursive: true, withFileTypes: true });
    const files: { file: string; text: string }[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const raw = await readFile(file);
      const bytes = file.endsWith('.gz') ? gunzipSync(raw) : file.endsWith('.br') ? brotliDecompressSync(raw) : raw;
      files.push({ file: path.relative(DIST_CLIENT, file), text: bytes.toString('utf8') });
    }
    return files;
  }

  it('holds none of the canary secrets nor the test secrets', async () => {
    // npm test builds the client before vitest runs; this test builds nothing itself.
    expect(existsSync(path.join(DIST_CLIENT, 'index.html')), `${DIST_CLIENT}/index.html is missing: run "npm run build:client" first`).toBe(true);
    const files = await bundleFiles();
    expect(files.some((entry) => entry.file.endsWith('.js'))).toBe(true);
    const leaks = files.flatMap(({ file, text }) => [
      ...leaksIn(text, CANARY).map((secret) => `canary ${secret} in ${file}`),
      ...leaksIn(text, TEST_SECRETS).map((secret) => `test ${secret} in ${file}`),
    ]);
    expect(leaks).toEqual([]);
  });
});
