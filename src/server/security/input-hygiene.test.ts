import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../common/contract/common.js';
import type { App } from '../http/types.js';
import { addMember } from '../modules/members/service.js';
import { signInAs, type SessionCookies } from '../test/sign-in.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../test/test-app.js';

/**
 * Text that a database cannot store or a reader cannot trust: NUL and other control characters are
 * refused with a 400 on both engines (PostgreSQL answered 500 to a NUL before), zero-width
 * characters do not make a text non-empty, and direction overrides are refused in names.
 */

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const COMPONENT = 'responder-engagement';

function expectRefused(response: LightMyRequestResponse, fragment: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = apiErrorSchema.parse(response.json());
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.message).toContain(fragment);
}

describe('input hygiene', () => {
  let testApp: TestApp;
  let app: App;
  let member: SessionCookies;
  beforeAll(async () => {
    testApp = await createTestApp({ signInLimitPerMinute: 10_000 });
    app = testApp.app;
    member = await signInAs(app, 'Hugo Hygiene');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = (url: string, payload: unknown, cookies: SessionCookies = {}) =>
    app.inject({ method: 'POST', url, headers: JSON_HEADERS, cookies, payload: JSON.stringify(payload) });
  const comment = (content: string) => post('/api/comments', { componentId: COMPONENT, content }, member);
  const commentCount = async () => (await app.database.db.selectFrom('comments').select('id').execute()).length;

  it('refuses a comment with NUL or another control character with 400, and stores nothing', async () => {
    const before = await commentCount();
    for (const content of ['before\u0000after', 'bell\u0007', '\u001B[31mred', 'del\u007F', 'lone \uD800 surrogate']) {
      expectRefused(await comment(content), 'control characters');
    }
    expect(await commentCount()).toBe(before);
  });

  it('treats a comment of only zero-width characters as empty, and strips them elsewhere', async () => {
    expectRefused(await comment('\u200B\u200C\u200D\u2060\uFEFF'), 'Comment cannot be empty');
    expectRefused(await comment('  \u200B  '), 'Comment cannot be empty');
    const kept = await comment('Page\u200B the on-call');
    expect(kept.statusCode, kept.body).toBe(201);
    expect((kept.json<{ content: string }>()).content).toBe('Page the on-call');
  });

  it('keeps tabs and line breaks in a comment', async () => {
    const response = await comment('Steps:\n\t1. detect\r\n\t2. page');
    expect(response.statusCode, response.body).toBe(201);
    expect((response.json<{ content: string }>()).content).toBe('Steps:\n\t1. detect\r\n\t2. page');
  });

  it.each([
    ['NUL', 'Ada\u0000Lovelace', 'control characters'],
    ['a line break', 'Ada\nLovelace', 'control characters'],
    ['a right-to-left override', 'Ada\u202ELovelace', 'text-direction'],
    ['an isolate', '\u2067Ada Lovelace\u2069', 'text-direction'],
  ])('refuses a name with %s on every sign-in call with 400, never 500', async (_what, name, fragment) => {
    expectRefused(await post('/api/login', { password: TEST_SECRETS.teamPassword, name, pin: '3816' }), fragment);
    expectRefused(await post('/api/setup-pin', { password: TEST_SECRETS.teamPassword, name, pin: '3816' }), fragment);
    expectRefused(await post('/api/quick-login', { name, pin: '3816' }), fragment);
    expectRefused(await post('/api/forgot-pin', { memberName: name }), fragment);
  });

  it('treats a name of only zero-width characters as missing, and ignores them inside a name', async () => {
    expectRefused(await post('/api/login', { password: TEST_SECRETS.teamPassword, name: '\u200B\uFEFF', pin: '3816' }), 'Name is required');
    await addMember(app.database.db, 'Zelda Zero');
    const login = await post('/api/login', { password: TEST_SECRETS.teamPassword, name: 'Zel\u200Bda Zero', pin: '' });
    // The name is found: without a PIN a known name answers 400 PIN_REQUIRED, an unknown one 401.
    expect(login.statusCode, login.body).toBe(400);
    expect(apiErrorSchema.parse(login.json()).code).toBe('PIN_REQUIRED');
  });

  it('refuses control characters in a saved AI prompt and in a summary title', async () => {
    const admin = await signInAs(app, 'Avery Admin');
    const prompt = { name: 'narrative-summary', prompt: 'Sum up\u0000{suggestionsText}', description: 'x', adminPassword: TEST_SECRETS.adminPassword, isActive: 1 };
    expectRefused(await post('/api/ai-prompts', prompt, admin), 'control characters');
    expectRefused(await post('/api/ai-prompts', { ...prompt, prompt: 'Sum up {suggestionsText}', description: 'd\u0000' }, admin), 'control characters');
    const title = await app.inject({ method: 'GET', url: `/api/comments/${COMPONENT}/summary?title=a%00b`, cookies: member });
    expectRefused(title, 'control characters');
  });

  it('refuses a member name with controls or overrides when the admin adds one', async () => {
    for (const name of ['Eve\u0000Evil', 'Eve\tEvil', 'Eve\nEvil', 'Eve\u202EEvil', 'Eve\u200BEvil']) {
      await expect(addMember(app.database.db, name), JSON.stringify(name)).rejects.toMatchObject({ statusCode: 400 });
    }
  });
});
