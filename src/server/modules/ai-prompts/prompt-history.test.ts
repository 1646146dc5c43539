import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_HISTORY_PAGE, PROMPT_PREVIEW_LENGTH } from '../../../common/api/ai-prompts.js';
import { routes } from '../../../common/api/index.js';
import { buildPath } from '../../../common/api/route.js';
import { aiPromptListItemSchema, aiPromptSchema, type AiPromptListItem } from '../../../common/contract/ai.js';
import type { App } from '../../http/types.js';
import { expectApiError } from '../../test/api-errors.js';
import { apiCall, signInAs, type SessionCookies } from '../../test/sign-in.js';
import { TEST_SECRETS, createTestApp, type TestApp } from '../../test/test-app.js';

/** The prompt history: capped at AI_PROMPT_HISTORY_MAX versions, paged newest first, whole texts one at a time. */

const HISTORY_MAX = 5;
const { aiPrompts } = routes;

describe('AI prompt history', () => {
  let testApp: TestApp;
  let app: App;
  let admin: SessionCookies;
  beforeAll(async () => {
    testApp = await createTestApp({ aiPromptHistoryMax: HISTORY_MAX });
    app = testApp.app;
    admin = await signInAs(app, 'Avery Admin');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const longText = (label: string) => `${label}: ${'Weigh each suggestion by its votes. '.repeat(300)}\n{suggestionsText}`;
  const save = async (label: string) => {
    const response = await apiCall(app, 'POST', aiPrompts.create.path, admin, { name: 'narrative-summary', prompt: longText(label), description: label, adminPassword: TEST_SECRETS.adminPassword });
    expect(response.statusCode, response.body).toBe(201);
    return aiPromptSchema.parse(response.json());
  };
  const page = async (query = '') => {
    const response = await apiCall(app, 'GET', `${aiPrompts.list.path}${query}`, admin);
    expect(response.statusCode, response.body).toBe(200);
    return aiPromptListItemSchema.array().parse(response.json());
  };
  const everything = async () => {
    const all: AiPromptListItem[] = [];
    for (let items = await page('?limit=2'); items.length > 0; items = items.length < 2 ? [] : await page(`?limit=2&before=${items.at(-1)?.id ?? 0}`)) all.push(...items);
    return all;
  };

  it('keeps at most the configured number of versions, newest first, the active one among them', async () => {
    const saved = [];
    for (let version = 1; version <= 8; version += 1) saved.push(await save(`Version ${version}`));
    expect((await everything()).map((item) => item.description)).toEqual(['Version 8', 'Version 7', 'Version 6', 'Version 5', 'Version 4']);

    // A rollback keeps the version it makes active; the next save makes the new one active and the cap applies again.
    const fourth = saved[4];
    if (fourth === undefined) throw new Error('no fifth version');
    expect((await apiCall(app, 'POST', buildPath(aiPrompts.activate.path, { id: fourth.id }), admin, { adminPassword: TEST_SECRETS.adminPassword })).statusCode).toBe(200);
    expect((await everything()).filter((item) => item.isActive).map((item) => item.description)).toEqual(['Version 5']);
    for (let version = 9; version <= 12; version += 1) await save(`Version ${version}`);
    const kept = await everything();
    expect(kept.map((item) => item.description)).toEqual(['Version 12', 'Version 11', 'Version 10', 'Version 9', 'Version 8']);
    expect(kept.filter((item) => item.isActive).map((item) => item.description)).toEqual(['Version 12']);
  });

  it('pages carry the start of each text and its length; one version answers its whole text', async () => {
    const [newest] = await page();
    if (newest === undefined) throw new Error('no versions');
    const whole = longText('Version 12');
    expect(newest.prompt).toBe(whole.slice(0, PROMPT_PREVIEW_LENGTH));
    expect(newest.promptLength).toBe(whole.length);
    const body = (await apiCall(app, 'GET', aiPrompts.list.path, admin)).body;
    expect(body.length).toBeLessThan(HISTORY_MAX * (PROMPT_PREVIEW_LENGTH + 400));

    const one = await apiCall(app, 'GET', buildPath(aiPrompts.get.path, { id: newest.id }), admin);
    expect(one.statusCode).toBe(200);
    expect(aiPromptSchema.parse(one.json())).toMatchObject({ id: newest.id, prompt: whole, isActive: true });
    expectApiError(await apiCall(app, 'GET', buildPath(aiPrompts.get.path, { id: 999_999 }), admin), 404, 'PROMPT_NOT_FOUND');
  });

  it('answers a page of the asked size, bounded, and refuses bad cursors', async () => {
    expect(await page('?limit=1')).toHaveLength(1);
    expect((await page()).length).toBeLessThanOrEqual(PROMPT_HISTORY_PAGE.defaultLimit);
    for (const query of [`?limit=${PROMPT_HISTORY_PAGE.maxLimit + 1}`, '?limit=0', '?before=abc', '?before=-1', '?page=2']) {
      expectApiError(await apiCall(app, 'GET', `${aiPrompts.list.path}${query}`, admin), 400, 'VALIDATION_FAILED');
    }
    // `before` is an id: past the largest one it is refused (PostgreSQL answered 500), up to it a page.
    for (const before of [2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const body = expectApiError(await apiCall(app, 'GET', `${aiPrompts.list.path}?before=${before}`, admin), 400, 'VALIDATION_FAILED');
      expect(body.message).toMatch(/querystring\.before: before must be/);
    }
    expect((await page(`?before=${2 ** 31 - 1}`)).length).toBeGreaterThan(0);
    const member = await signInAs(app, 'Morgan Member');
    expect((await apiCall(app, 'GET', aiPrompts.list.path, member)).statusCode).toBe(403);
    const [newest] = await page();
    expect((await apiCall(app, 'GET', buildPath(aiPrompts.get.path, { id: newest?.id ?? 1 }), member)).statusCode).toBe(403);
  });
});
