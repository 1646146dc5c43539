import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { PROMPT_HISTORY_PAGE, PROMPT_PREVIEW_LENGTH } from '../../../common/api/ai-prompts';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { AiPrompt, AiPromptListItem } from '../../../common/contract/ai';
import { mockFetch, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, ADMIN_PASSWORD, openAdminAt, promptOf, unlockWith, preloadAdminTabs } from './test-fixtures';

beforeAll(preloadAdminTabs, 60_000);

const ACTIVE = promptOf({ id: 3, prompt: 'Summarise the team.\n{suggestionsText}\nBe brief.', description: 'Short summary' });
const OLDER = promptOf({ id: 2, isActive: false, prompt: 'Summarise the team.\n{suggestionsText}\nList every risk.', description: 'Risk list', createdAt: '2026-01-04T09:00:00.000Z' });

/** A version as the history carries it: the start of its text and the whole text's length. */
const listItemOf = (prompt: AiPrompt): AiPromptListItem => ({ ...prompt, prompt: Array.from(prompt.prompt).slice(0, PROMPT_PREVIEW_LENGTH).join(''), promptLength: Array.from(prompt.prompt).length });

function mockPromptApi({ active = ACTIVE, list = [ACTIVE, OLDER] }: { active?: AiPrompt | null; list?: AiPrompt[] } = {}): FetchMock {
  return (
    mockFetch()
      .on(routes.auth.user, { body: ADMIN })
      .on(routes.admin.members, { body: [] })
      // One version's whole text; registered before the active prompt, whose answer wins for /active.
      .on(routes.aiPrompts.get, (request) => {
        const found = list.find((prompt) => String(prompt.id) === request.params['id']);
        return found === undefined ? { status: 404, error: { code: ERROR_CODES.promptNotFound, message: 'No such prompt' } } : { body: found };
      })
      .on(routes.aiPrompts.active, active === null ? { status: 404, error: { code: ERROR_CODES.noActivePrompt, message: 'No active prompt' } } : { body: active })
      // Pages as the server cuts them: newest first, `limit` versions before the cursor.
      .on(routes.aiPrompts.list, (request) => {
        const before = Number(request.query.get('before') ?? Number.MAX_SAFE_INTEGER);
        const limit = Number(request.query.get('limit') ?? PROMPT_HISTORY_PAGE.defaultLimit);
        return { body: list.filter((prompt) => prompt.id < before).slice(0, limit).map(listItemOf) };
      })
  );
}

async function renderPrompts({ withPassword = true }: { withPassword?: boolean } = {}): Promise<Rendered> {
  openAdminAt('ai-prompts');
  const rendered = renderWithApp(<AdminPage />);
  await screen.findByRole('list', { name: 'Prompt versions' });
  if (withPassword) await unlockWith(rendered.user);
  return rendered;
}

const saveButton = () => screen.getByRole('button', { name: /Save Prompt|Saving\.\.\./ });
const promptField = () => screen.getByLabelText('Prompt');
const descriptionField = () => screen.getByLabelText('Description');
const version = (description: string) => {
  const item = within(screen.getByRole('list', { name: 'Prompt versions' })).getByText(description).closest('li');
  if (item === null) throw new Error(`No version '${description}'`);
  return item;
};

describe('active prompt', () => {
  test('shows the active prompt with its description, text, creator and time', async () => {
    mockPromptApi();
    await renderPrompts({ withPassword: false });
    const card = screen.getByRole('region', { name: 'Current Active Prompt' });
    expect(within(card).getByText('Short summary')).toBeTruthy();
    expect(card.querySelector('pre')?.textContent).toBe('Summarise the team.\n{suggestionsText}\nBe brief.');
    expect(card.textContent).toMatch(/By Avery Admin, .*2026/);
  });

  test('without an active prompt (404 NO_ACTIVE_PROMPT) the built-in default is named', async () => {
    mockPromptApi({ active: null, list: [] });
    openAdminAt('ai-prompts');
    renderWithApp(<AdminPage />);
    expect(await screen.findByText('No active prompt; the built-in default is used')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('new prompt', () => {
  test('Save Prompt needs a description and a text; the draft outlives a visit to another tab', async () => {
    mockPromptApi();
    const { user } = await renderPrompts({ withPassword: false });
    expect(screen.getByText(/where the suggestions should go/).textContent).toBe('Use {suggestionsText} where the suggestions should go');
    expect(saveButton()).toHaveProperty('disabled', true);
    await user.type(descriptionField(), 'Shorter');
    expect(saveButton()).toHaveProperty('disabled', true);
    await user.type(promptField(), 'Write it up: {{suggestionsText}');
    // Locked or not: the password is asked when saving.
    expect(saveButton()).toHaveProperty('disabled', false);
    expect(document.body.textContent).not.toMatch(/Enter the admin password/);

    await user.click(screen.getByRole('tab', { name: 'Team Management' }));
    await user.click(screen.getByRole('tab', { name: 'AI Prompts' }));
    expect(descriptionField()).toHaveProperty('value', 'Shorter');
    expect(promptField()).toHaveProperty('value', 'Write it up: {suggestionsText}');
    expect(saveButton()).toHaveProperty('disabled', false);
    await user.clear(promptField());
    expect(saveButton()).toHaveProperty('disabled', true);
    await user.type(promptField(), 'Write it up: {{suggestionsText}');
    expect(saveButton()).toHaveProperty('disabled', false);
    await user.clear(descriptionField());
    expect(saveButton()).toHaveProperty('disabled', true);
  });

  test('a text without the placeholder shows a warning and cannot be saved', async () => {
    mockPromptApi();
    const { user } = await renderPrompts();
    await user.type(descriptionField(), 'No placeholder');
    await user.type(promptField(), 'Summarise the suggestions');
    const warning = screen.getByRole('alert');
    expect(warning.textContent).toContain('The prompt must contain {suggestionsText}');
    expect(promptField().getAttribute('aria-invalid')).toBe('true');
    expect(saveButton()).toHaveProperty('disabled', true);

    await user.type(promptField(), ' {{suggestionsText}');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(saveButton()).toHaveProperty('disabled', false);
  });

  test('saves as the narrative prompt, made active, with the admin password; then clears the form', async () => {
    const api = mockPromptApi().on(routes.aiPrompts.create, { status: 201, body: promptOf({ id: 4 }) });
    const { user } = await renderPrompts();
    await user.type(descriptionField(), 'Focus on risks');
    await user.type(promptField(), 'List the risks in {{suggestionsText}');
    await user.click(saveButton());

    await expectToast('AI prompt updated successfully', '');
    expect(api.requests(routes.aiPrompts.create).map((request) => request.body)).toEqual([
      { name: 'narrative-summary', prompt: 'List the risks in {suggestionsText}', description: 'Focus on risks', adminPassword: ADMIN_PASSWORD, isActive: 1 },
    ]);
    expect(promptField()).toHaveProperty('value', '');
    expect(descriptionField()).toHaveProperty('value', '');
    // Both the active prompt and the history were asked again.
    expect(api.requests(routes.aiPrompts.active)).toHaveLength(2);
    expect(api.requests(routes.aiPrompts.list)).toHaveLength(2);
  });

  test('saving while locked asks for the admin password, then saves', async () => {
    const api = mockPromptApi().on(routes.aiPrompts.create, { status: 201, body: promptOf({ id: 4 }) });
    const { user } = await renderPrompts({ withPassword: false });
    await user.type(descriptionField(), 'Focus on risks');
    await user.type(promptField(), 'List the risks in {{suggestionsText}');
    await user.click(saveButton());
    await unlockWith(user);
    await expectToast('AI prompt updated successfully', '');
    expect(api.requests(routes.aiPrompts.create).map((request) => request.body)).toEqual([expect.objectContaining({ adminPassword: ADMIN_PASSWORD })]);
  });

  test('a refused save shows the server message and keeps the text', async () => {
    mockPromptApi().on(routes.aiPrompts.create, { status: 400, error: { code: ERROR_CODES.validationFailed, message: 'The prompt is too long' } });
    const { user } = await renderPrompts();
    await user.type(descriptionField(), 'Focus on risks');
    await user.type(promptField(), 'List the risks in {{suggestionsText}');
    await user.click(saveButton());
    await expectToast('Failed to update AI prompt', 'The prompt is too long');
    expect(promptField()).toHaveProperty('value', 'List the risks in {suggestionsText}');
  });

  test('a wrong admin password locks the actions again and keeps the text', async () => {
    mockPromptApi().on(routes.aiPrompts.create, { status: 403, error: { code: ERROR_CODES.invalidAdminPassword, message: 'Invalid admin password' } });
    const { user } = await renderPrompts();
    await user.type(descriptionField(), 'Focus on risks');
    await user.type(promptField(), 'List the risks in {{suggestionsText}');
    await user.click(saveButton());
    await expectToast('Wrong admin password', 'Admin actions are locked again.');
    expect(promptField()).toHaveProperty('value', 'List the risks in {suggestionsText}');
  });
});

describe('history', () => {
  test(`shows each version's state, date and its first ${PROMPT_PREVIEW_LENGTH} characters`, async () => {
    const long = promptOf({ id: 1, isActive: false, description: 'Long one', prompt: `${'x'.repeat(PROMPT_PREVIEW_LENGTH)}TAIL {suggestionsText}` });
    mockPromptApi({ list: [ACTIVE, OLDER, long] });
    await renderPrompts({ withPassword: false });
    const active = version('Short summary');
    expect(within(active).getByText('Active')).toBeTruthy();
    expect(within(active).queryByRole('button', { name: 'Activate' })).toBeNull();
    expect(within(active).queryByRole('button', { name: 'Compare with active' })).toBeNull();

    const older = version('Risk list');
    expect(within(older).getByText('Inactive')).toBeTruthy();
    expect(older.textContent).toMatch(/2026/);
    expect(within(older).getByRole('button', { name: 'Activate' })).toBeTruthy();

    const cut = version('Long one');
    expect(within(cut).getByText(`${'x'.repeat(PROMPT_PREVIEW_LENGTH)}…`)).toBeTruthy();
    expect(cut.textContent).not.toContain('TAIL');
  });

  test('Activate while locked asks for the admin password first', async () => {
    const api = mockPromptApi().on(routes.aiPrompts.activate, { body: { ...OLDER, isActive: true } });
    const { user } = await renderPrompts({ withPassword: false });
    await user.click(within(version('Risk list')).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByRole('dialog', { name: 'Unlock admin actions' })).toBeTruthy();
    expect(api.requests(routes.aiPrompts.activate)).toEqual([]);
    await unlockWith(user);
    await expectToast('Prompt activated', '');
    expect(api.requests(routes.aiPrompts.activate).map((request) => request.body)).toEqual([{ adminPassword: ADMIN_PASSWORD }]);
  });

  test('Activate makes an earlier version active again', async () => {
    const api = mockPromptApi().on(routes.aiPrompts.activate, { body: { ...OLDER, isActive: true } });
    const { user } = await renderPrompts();
    await user.click(within(version('Risk list')).getByRole('button', { name: 'Activate' }));
    await expectToast('Prompt activated', '');
    expect(api.requests(routes.aiPrompts.activate).map((request) => [request.params, request.body])).toEqual([[{ id: '2' }, { adminPassword: ADMIN_PASSWORD }]]);
    expect(api.requests(routes.aiPrompts.list)).toHaveLength(2);
  });

  test('Compare with active shows the line diff against the active prompt', async () => {
    mockPromptApi();
    const { user } = await renderPrompts({ withPassword: false });
    const compare = within(version('Risk list')).getByRole('button', { name: 'Compare with active' });
    expect(compare.getAttribute('aria-expanded')).toBe('false');
    await user.click(compare);
    expect(compare.getAttribute('aria-expanded')).toBe('true');

    const diff = screen.getByRole('region', { name: /against the active prompt/ });
    const lines = Array.from(diff.querySelectorAll('[data-diff]')).map((line) => [line.getAttribute('data-diff'), line.textContent]);
    expect(lines).toEqual([
      ['same', ' Summarise the team.'],
      ['same', ' {suggestionsText}'],
      ['removed', '-Removed: Be brief.'],
      ['added', '+Added: List every risk.'],
    ]);
    expect(diff.querySelector('[data-diff="added"]')?.className).toContain('emerald');
    expect(diff.querySelector('[data-diff="removed"]')?.className).toContain('red');

    await user.click(compare);
    expect(screen.queryByRole('region', { name: /against the active prompt/ })).toBeNull();
  });

  test('Compare with active fetches the whole text of a version the history holds only the start of', async () => {
    const long = promptOf({ id: 1, isActive: false, description: 'Long one', prompt: `Summarise the team.\n{suggestionsText}\n${'y'.repeat(PROMPT_PREVIEW_LENGTH)}\nLAST LINE` });
    const api = mockPromptApi({ list: [ACTIVE, OLDER, long] });
    const { user } = await renderPrompts({ withPassword: false });
    expect(api.requests(routes.aiPrompts.get)).toHaveLength(0);
    await user.click(within(version('Long one')).getByRole('button', { name: 'Compare with active' }));
    const diff = await screen.findByRole('region', { name: /against the active prompt/ });
    expect(diff.textContent).toContain('LAST LINE');
    expect(api.requests(routes.aiPrompts.get).map((request) => request.params)).toEqual([{ id: '1' }]);
    // A short version is compared from the history itself.
    await user.click(within(version('Risk list')).getByRole('button', { name: 'Compare with active' }));
    expect(api.requests(routes.aiPrompts.get)).toHaveLength(1);
  });

  test('shows a page of versions and loads older ones on request', async () => {
    const many = Array.from({ length: PROMPT_HISTORY_PAGE.defaultLimit + 3 }, (_, index) =>
      promptOf({ id: 100 - index, isActive: index === 0, description: `Version ${100 - index}`, prompt: `Version ${100 - index}\n{suggestionsText}` }),
    );
    const api = mockPromptApi({ active: many[0] ?? null, list: many });
    const { user } = await renderPrompts({ withPassword: false });
    const items = () => within(screen.getByRole('list', { name: 'Prompt versions' })).getAllByRole('listitem');
    expect(items()).toHaveLength(PROMPT_HISTORY_PAGE.defaultLimit);
    await user.click(screen.getByRole('button', { name: 'Load older versions' }));
    await screen.findByText('Version 78');
    expect(items()).toHaveLength(PROMPT_HISTORY_PAGE.defaultLimit + 3);
    expect(screen.queryByRole('button', { name: 'Load older versions' })).toBeNull();
    expect(api.requests(routes.aiPrompts.list).map((request) => request.query.get('before'))).toEqual([null, String(100 - PROMPT_HISTORY_PAGE.defaultLimit + 1)]);
  });

  test('without an active prompt there is nothing to compare with', async () => {
    mockPromptApi({ active: null, list: [OLDER] });
    await renderPrompts({ withPassword: false });
    expect(within(version('Risk list')).queryByRole('button', { name: 'Compare with active' })).toBeNull();
  });
});
