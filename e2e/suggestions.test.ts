import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { architecture } from '../src/server/content/architecture.js';
import { seedDemo } from '../src/server/seed/demo-seed.js';
import { DEMO_MEMBERS } from '../src/server/seed/demo-members.js';
import type { GenerateSuggestionsResponse, NarrativeSummary, Suggestion } from '../src/common/contract/ai.js';
import type { Comment } from '../src/common/contract/comments.js';
import { significanceOf } from '../src/common/significance.js';
import { accessibilityViolations } from './axe.js';
import { E2E_SECRETS, launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';
import { smallTargets } from './targets.js';
import { closeToasts, expectToast } from './toasts.js';
import { fetchFromPage, holdRequests } from './page-api.js';

// Browser-side code is passed to page.evaluate as strings: this file is type-checked for Node,
// without the DOM library.

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const ALICE = { name: 'Alice Archer', pin: '3816' };
const BOB = { name: 'Bob Baker', pin: '5062' };
const CASEY = { name: 'Casey Keys', pin: '3579' };
const AVERY = { name: 'Avery Admin', pin: '8024' };

const INJECTION_MARKUP = '<img src=x onerror=alert(1)>';
const INJECTION_SCRIPT = '<script>alert(1)</script>';

/** The review the test team writes: agreement, a disagreement, a proposal, and a comment that tries to be markup. */
const COMMENTS: { author: 0 | 1 | 2; componentId: string; content: string; kind?: 'comment' | 'proposal' }[] = [
  { author: 0, componentId: 'event-correlation', content: 'Correlation windows should be configurable per service tier; a fixed five-minute window merges unrelated incidents on busy services.' },
  { author: 1, componentId: 'event-correlation', content: 'We must show why two alerts were correlated, with the shared topology path, or responders will not trust the merged incident.' },
  { author: 2, componentId: 'event-correlation', content: 'Replace the fixed correlation window with an adaptive one that learns from past incidents per service.', kind: 'proposal' },
  { author: 0, componentId: 'agentic-triage', content: 'Confidence below 0.7 should route the incident to a human instead of auto-assigning a severity.' },
  { author: 1, componentId: 'agentic-triage', content: 'Triage should show the alternative severities it considered, not only its pick.', kind: 'proposal' },
  { author: 2, componentId: 'agentic-triage', content: 'The approval gate needs a timeout with an escalation path, or Sev2s will sit unapproved at night.' },
  { author: 0, componentId: 'remediation-plan', content: 'Remove the automatic rollback step for database changes; it has caused more outages than it prevented.', kind: 'proposal' },
  { author: 1, componentId: 'remediation-plan', content: 'Keep automatic rollback for database changes but require a dry run first; removing it entirely is too risky.' },
  { author: 2, componentId: 'em-console', content: 'Keyboard shortcuts for approve and reject in the incident inbox, please.' },
  { author: 1, componentId: 'root-cause-analysis', content: 'Hypotheses need the exact queries attached so on-call can re-run them.' },
  {
    author: 2,
    componentId: 'event-management',
    // Markup, not an order to the AI: a comment addressed to the AI is never a source at all
    // (its own test is in the analyzer's), and this one must be cited to be shown as inert text.
    content: `Our alert text printed ${INJECTION_MARKUP} then ${INJECTION_SCRIPT} in the console. Also, the Event Management deduplication rules should be clarified for flapping alerts.`,
  },
];
const INJECTION_INDEX = COMMENTS.length - 1;
/** [voter, comment index, vote]: the correlation and triage comments are backed, the rollback removal opposed. */
const COMMENT_VOTES: [0 | 1 | 2, number, 'thumbs_up' | 'thumbs_down'][] = [
  [1, 0, 'thumbs_up'],
  [2, 0, 'thumbs_up'],
  [0, 1, 'thumbs_up'],
  [2, 1, 'thumbs_up'],
  [0, 3, 'thumbs_up'],
  [1, 3, 'thumbs_up'],
  [1, 6, 'thumbs_down'],
  [2, 6, 'thumbs_down'],
  [0, 7, 'thumbs_up'],
  [2, 7, 'thumbs_up'],
];

interface OpenedPage {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  /** Messages of any alert/confirm/prompt the page opened: an executed injection would show here. */
  dialogs: string[];
  /** The page's API calls as 'METHOD /path', in order. */
  apiCalls: string[];
}

async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: options.fullPage ?? false, animations: 'disabled' });
}

/** The signed-out probe answers 401 by design; the listed statuses are ones the test provokes. */
function expectNoConsoleErrors(opened: OpenedPage, provoked: number[] = []) {
  const allowed = [401, ...provoked];
  expect(opened.consoleErrors.filter((line) => !allowed.some((status) => line.includes(`status of ${status}`)))).toEqual([]);
}

/** GET an API path as the context's member (the context shares the page's session cookie). */
async function getJson<T>(context: BrowserContext, server: RunningServer, apiPath: string): Promise<T> {
  const response = await context.request.get(`${server.baseUrl}${apiPath}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

async function postJson<T>(context: BrowserContext, server: RunningServer, apiPath: string, data: unknown, status = 200): Promise<T> {
  const response = await context.request.post(`${server.baseUrl}${apiPath}`, { data, headers: { 'content-type': 'application/json' } });
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

function cut(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length <= max ? text : `${characters.slice(0, max).join('').trimEnd()}…`;
}

/** The table row of one suggestion. */
function row(page: Page, suggestionId: number): Locator {
  return page.locator(`tr[data-suggestion-id="${suggestionId}"]`);
}

function aiSummary(page: Page): Locator {
  return page.getByRole('region', { name: 'AI Summary' });
}

async function hasHorizontalPageScroll(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
}

describe('Feedback and Recommendations page', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    for (const member of [ALICE, BOB, CASEY]) await seedMember(server, member.name, { pin: member.pin });
    await seedMember(server, AVERY.name, { pin: AVERY.pin, role: 'admin' });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  async function open(member: { name: string; pin: string }, device: 'desktop' | 'phone' = 'desktop'): Promise<OpenedPage> {
    let context: BrowserContext;
    let page: Page;
    let consoleErrors: string[];
    if (device === 'phone') {
      context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
      page = await context.newPage();
      consoleErrors = [];
      const errors = consoleErrors;
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
    } else {
      ({ context, page, consoleErrors } = await newPage(browser, { viewport: DESKTOP }));
    }
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${url.pathname}`);
    });
    await signIn(page, server, { ...member, path: '/suggestions' });
    await page.getByRole('heading', { level: 1, name: 'Feedback and Recommendations' }).waitFor();
    return { context, page, consoleErrors, dialogs, apiCalls };
  }

  it('goes from no comments, through the first generation, to votes that teammates see live', { timeout: 180_000 }, async () => {
    const alice = await open(ALICE);
    const { page } = alice;

    // ---- No comments at all: nothing to analyse, and no generate action.
    await page.getByRole('heading', { level: 2, name: 'No feedback and recommendations available for analysis' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Main' }).getAttribute('href')).toBe('/');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Generate suggestions' }).count()).toBe(0);
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screenshot(page, 'suggestions-no-data-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- Three members comment (through the API, with their own sessions) and vote on comments.
    const bob = await open(BOB);
    const casey = await open(CASEY);
    const authors = [alice.context, bob.context, casey.context];
    const posted: Comment[] = [];
    for (const entry of COMMENTS) {
      const author = authors[entry.author];
      if (author === undefined) throw new Error('unknown author');
      posted.push(await postJson<Comment>(author, server, '/api/comments', { componentId: entry.componentId, content: entry.content, kind: entry.kind ?? 'comment' }, 201));
    }
    for (const [voter, index, voteType] of COMMENT_VOTES) {
      const context = authors[voter];
      const comment = posted[index];
      if (context === undefined || comment === undefined) throw new Error('bad vote fixture');
      await postJson(context, server, `/api/comments/${comment.id}/vote`, { voteType });
    }
    const commentById = new Map(posted.map((comment) => [comment.id, comment]));
    const injection = posted[INJECTION_INDEX];
    if (injection === undefined) throw new Error('no injection comment');

    // The open page learns of the comments live: now there is something to analyse.
    await page.getByRole('heading', { level: 2, name: 'No feedback and recommendations have been generated yet' }).waitFor({ timeout: 5_000 });
    await expect.poll(() => page.getByText(`${COMMENTS.length} team comments to analyse`, { exact: true }).isVisible(), { timeout: 5_000 }).toBe(true);
    const generate = page.getByRole('button', { name: 'Generate suggestions' });
    expect(await generate.isVisible()).toBe(true);
    await bob.page.getByRole('heading', { level: 2, name: 'No feedback and recommendations have been generated yet' }).waitFor({ timeout: 5_000 });
    await screenshot(page, 'suggestions-empty-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- Generate. The answer is held back so the progress can be read; a second click sends nothing.
    const release = await holdRequests(page, '**/api/suggestions/generate');
    const generated = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/suggestions/generate');
    await generate.focus();
    await page.keyboard.press('Enter');
    const progressText = `Analysing ${COMMENTS.length} team comments…`;
    const running = page.getByRole('button', { name: progressText });
    await running.waitFor();
    expect(await running.getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByRole('status').filter({ hasText: progressText }).count()).toBe(1);
    // Focus stays on the button while it runs (it is aria-disabled, not disabled).
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe(progressText);
    // Pressed again while it runs: nothing is sent.
    await page.keyboard.press('Enter');
    await screenshot(page, 'suggestions-generating-desktop');
    release();
    const answer = (await (await generated).json()) as GenerateSuggestionsResponse;
    expect(alice.apiCalls.filter((call) => call === 'POST /api/suggestions/generate')).toHaveLength(1);
    expect(answer.commentCount).toBe(COMMENTS.length);
    expect(answer.reused).toBe(false);
    expect(answer.suggestions.length).toBeGreaterThanOrEqual(2);
    await expectToast(page, 'Feedback and recommendations updated', `${answer.created} new, ${answer.kept} kept, ${answer.archived} archived from ${COMMENTS.length} team comments.`);
    await page.unroute('**/api/suggestions/generate');

    // The table: one row per suggestion, in the server's order, with its significance, components, type and authors.
    const table = page.getByRole('table', { name: /^Suggestions/ });
    await table.waitFor();
    await expect.poll(() => table.getByRole('row').count(), { timeout: 10_000 }).toBe(answer.suggestions.length + 1);
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['SUGGESTION', 'STATUS', 'SIGNIFICANCE', 'COMPONENTS', 'TYPE', 'RAISED BY', 'VOTES']);
    const rollback = answer.suggestions.find((suggestion) => /automatic rollback/i.test(suggestion.suggestion));
    for (const suggestion of answer.suggestions) {
      const line = row(page, suggestion.id);
      expect(await line.getByText(suggestion.suggestion, { exact: true }).isVisible()).toBe(true);
      expect(await line.getByText(suggestion.recommendationType === 'structural' ? 'Structural' : 'Content', { exact: true }).isVisible()).toBe(true);
      for (const initials of suggestion.memberInitials) expect(await line.getByText(initials, { exact: true }).isVisible()).toBe(true);
      expect(await line.getByRole('button', { name: '0 thumbs up' }).getAttribute('aria-pressed')).toBe('false');
    }
    // Component titles rather than ids.
    const titles = new Map([...architecture.groups.flatMap((group) => group.cards), ...architecture.diagram.components].map((component) => [component.id, component.title]));
    for (const suggestion of answer.suggestions) {
      const shownComponents = await row(page, suggestion.id).getByRole('list', { name: 'Components' }).getByRole('listitem').allInnerTexts();
      expect(shownComponents).toEqual(suggestion.components.map((id) => titles.get(id) ?? id));
      expect(shownComponents.some((title) => /^[a-z0-9-]+$/.test(title))).toBe(false);
    }
    // The significance comes from keywords in the text, by the code the server shares ('removing' the rollback is major).
    for (const suggestion of answer.suggestions) {
      expect(await row(page, suggestion.id).getByText(significanceOf(suggestion.suggestion), { exact: true }).isVisible()).toBe(true);
    }
    if (rollback === undefined) throw new Error('no suggestion on the automatic rollback');
    expect(await row(page, rollback.id).getByText('major', { exact: true }).isVisible()).toBe(true);

    // ---- A teammate generating less than 10 s later gets that result again, and is told so.
    // Bob's open page received the generation live, without a reload.
    await bob.page.getByRole('table', { name: /^Suggestions/ }).waitFor({ timeout: 5_000 });
    await bob.page.getByRole('button', { name: 'Generate suggestions' }).click();
    await expectToast(bob.page, 'Recent result reused', /^Suggestions were generated less than 10 seconds ago, so that result is shown: /);

    // ---- The AI Summary card agrees with the narrative the API serves.
    const narrative = await getJson<NarrativeSummary>(alice.context, server, '/api/suggestions/narrative-summary');
    const summary = aiSummary(page);
    const confidence = summary.getByText(/^Confidence \d+%$/);
    await confidence.waitFor();
    expect(await confidence.innerText()).toBe(`Confidence ${Math.round(narrative.confidence * 100)}%`);
    const topThemes = summary.getByRole('list', { name: 'Top themes' }).getByRole('listitem');
    expect(await topThemes.count()).toBe(Math.min(2, narrative.keyThemes.length));
    expect(narrative.keyThemes.length).toBeGreaterThanOrEqual(2);
    for (const [index, theme] of narrative.keyThemes.slice(0, 2).entries()) {
      expect(await topThemes.nth(index).getByText(theme.theme, { exact: true }).isVisible()).toBe(true);
    }
    const keyActions = summary.getByRole('list', { name: 'Key actions' }).getByRole('listitem');
    expect(narrative.actionItems.length).toBeGreaterThanOrEqual(2);
    expect(await keyActions.count()).toBe(2);
    for (const [index, item] of narrative.actionItems.slice(0, 2).entries()) {
      expect(await keyActions.nth(index).locator('p').first().innerText()).toBe(cut(item.action, 100));
    }
    // The consensus is cut at 120 characters, with a way to read all of it.
    const consensus = summary.getByText(cut(narrative.overallConsensus, 120), { exact: true });
    expect(await consensus.isVisible()).toBe(true);
    if (Array.from(narrative.overallConsensus).length > 120) {
      const more = summary.getByRole('button', { name: 'Show more of the overall consensus' });
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      await more.click();
      await summary.getByText(narrative.overallConsensus, { exact: true }).waitFor();
      expect(await summary.getByRole('button', { name: 'Show less of the overall consensus' }).getAttribute('aria-expanded')).toBe('true');
    }

    // ---- Collapsible sections, opened by keyboard and by mouse.
    const themesToggle = summary.getByRole('button', { name: `Key themes (${narrative.keyThemes.length})` });
    expect(await themesToggle.getAttribute('aria-expanded')).toBe('false');
    await themesToggle.focus();
    await page.keyboard.press('Enter');
    expect(await themesToggle.getAttribute('aria-expanded')).toBe('true');
    // Each section's own content (a conflict may carry a theme's name).
    const contentOf = async (toggle: typeof themesToggle) => page.locator(`[id="${(await toggle.getAttribute('aria-controls')) ?? ''}"]`);
    const themesContent = await contentOf(themesToggle);
    for (const theme of narrative.keyThemes) {
      expect(await themesContent.getByRole('heading', { level: 4, name: theme.theme, exact: true }).first().isVisible()).toBe(true);
    }
    const actionsToggle = summary.getByRole('button', { name: `Action items (${narrative.actionItems.length})` });
    await actionsToggle.click();
    expect(await actionsToggle.getAttribute('aria-expanded')).toBe('true');
    const conflictsToggle = summary.getByRole('button', { name: `Conflicts (${narrative.conflicts.length})` });
    await conflictsToggle.click();
    if (narrative.conflicts.length === 0) await summary.getByText(/^No conflicts/).waitFor();
    const conflictsContent = await contentOf(conflictsToggle);
    for (const conflict of narrative.conflicts) await conflictsContent.getByRole('heading', { level: 4, name: conflict.topic, exact: true }).first().waitFor();
    await closeToasts(page);
    await page.mouse.move(0, 0);
    await screenshot(page, 'suggestions-desktop', { fullPage: true });
    expect(await accessibilityViolations(page)).toEqual([]);
    // Every control at least 24 px square, 'View N sources' and 'Show less' included.
    expect(await smallTargets(page)).toEqual([]);

    // ---- A theme's sources: the suggestions it came from, and the comments behind them.
    const firstTheme = narrative.keyThemes[0];
    if (firstTheme === undefined) throw new Error('no theme');
    await topThemes.first().getByRole('button', { name: /^View \d+ sources? of the theme/ }).click();
    const themeDialog = page.getByRole('dialog', { name: 'Sources of this theme' });
    await themeDialog.waitFor();
    const suggestionById = new Map(answer.suggestions.map((suggestion) => [suggestion.id, suggestion]));
    for (const suggestionId of firstTheme.sources) {
      const suggestion = suggestionById.get(suggestionId);
      if (suggestion === undefined) throw new Error(`theme cites unknown suggestion ${suggestionId}`);
      const entry = themeDialog.locator(`[data-cited-suggestion="${suggestionId}"]`);
      expect(await entry.locator('> p').first().innerText()).toBe(suggestion.suggestion);
      for (const commentId of suggestion.sources) {
        const comment = commentById.get(commentId);
        if (comment === undefined) throw new Error(`suggestion cites unknown comment ${commentId}`);
        const article = entry.getByRole('article').filter({ hasText: comment.content });
        await article.first().waitFor();
        expect(await article.first().getByText(comment.memberName, { exact: true }).isVisible()).toBe(true);
      }
    }
    await screenshot(page, 'suggestions-theme-sources-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await themeDialog.waitFor({ state: 'detached' });
    // Focus goes back to the button that opened it.
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toMatch(/^View \d+ sources? of the theme/);

    // ---- A suggestion's sources, including the comment that tries to be markup: shown as text, inert.
    const cited = answer.suggestions.find((suggestion) => suggestion.sources.includes(injection.id));
    if (cited === undefined) throw new Error('no suggestion cites the injection comment');
    await row(page, cited.id).getByRole('button', { name: /source comments?$/ }).click();
    const rowDialog = page.getByRole('dialog', { name: 'Comments behind this suggestion' });
    await rowDialog.waitFor();
    const shown = rowDialog.getByRole('article').filter({ hasText: INJECTION_MARKUP });
    await shown.waitFor();
    expect(await shown.getByText(injection.content, { exact: true }).isVisible()).toBe(true);
    expect(await shown.getByText(CASEY.name, { exact: true }).isVisible()).toBe(true);
    expect(await page.evaluate<number>(`document.querySelectorAll('img[src="x"], img[onerror]').length`)).toBe(0);
    expect(await page.evaluate<boolean>(`[...document.scripts].some((script) => (script.textContent ?? '').includes('alert(1)'))`)).toBe(false);
    await screenshot(page, 'suggestions-comment-sources-desktop');
    await rowDialog.getByRole('button', { name: 'Close sources' }).click();
    await rowDialog.waitFor({ state: 'detached' });
    expect(alice.dialogs).toEqual([]);

    // ---- Votes: Alice's own vote is highlighted; Bob sees the count change live, and his own vote reaches Alice.
    await closeToasts(page);
    const target = answer.suggestions[0];
    if (target === undefined) throw new Error('no suggestion');
    const aliceUp = row(page, target.id).getByRole('button', { name: /thumbs up$/ });
    await aliceUp.click();
    await expectToast(page, 'Vote recorded', 'Your vote has been saved.');
    await expect.poll(() => aliceUp.getAttribute('aria-pressed')).toBe('true');
    expect(await aliceUp.textContent()).toBe('1 thumbs up');
    const bobUp = row(bob.page, target.id).getByRole('button', { name: /thumbs up$/ });
    await expect.poll(() => bobUp.textContent(), { timeout: 5_000 }).toBe('1 thumbs up');
    expect(await bobUp.getAttribute('aria-pressed')).toBe('false');

    const bobDown = row(bob.page, target.id).getByRole('button', { name: /thumbs down$/ });
    await bobDown.click();
    await expectToast(bob.page, 'Vote recorded', 'Your vote has been saved.');
    await expect.poll(() => bobDown.getAttribute('aria-pressed')).toBe('true');
    const aliceDown = row(page, target.id).getByRole('button', { name: /thumbs down$/ });
    await expect.poll(() => aliceDown.textContent(), { timeout: 5_000 }).toBe('1 thumbs down');
    expect(await aliceDown.getAttribute('aria-pressed')).toBe('false');
    expect(await aliceUp.getAttribute('aria-pressed')).toBe('true');
    await closeToasts(page);
    await page.mouse.move(0, 0);
    await table.screenshot({ path: path.join(SCREENSHOT_DIR, 'suggestions-voted-desktop.png'), animations: 'disabled' });

    // The same vote again takes it back.
    await aliceUp.click();
    await expect.poll(() => aliceUp.textContent()).toBe('0 thumbs up');
    expect(await aliceUp.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => bobUp.textContent(), { timeout: 5_000 }).toBe('0 thumbs up');

    // The narrative weighs votes, so each vote has it read again.
    expect(alice.apiCalls.filter((call) => call === 'GET /api/suggestions/narrative-summary').length).toBeGreaterThan(2);

    // ---- A refused vote says so.
    await closeToasts(page);
    await page.route('**/api/suggestions/*/vote', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ message: 'Suggestion not found', code: 'SUGGESTION_NOT_FOUND' }) }),
    );
    await aliceUp.click();
    const failed = await expectToast(page, 'Failed to vote', 'Suggestion not found');
    expect(await failed.getAttribute('class')).toContain('destructive');
    await page.unroute('**/api/suggestions/*/vote');

    // ---- A phone: no sideways page scroll; each suggestion is a card.
    const phone = await open(CASEY, 'phone');
    await phone.page.getByRole('table', { name: /^Suggestions/ }).waitFor();
    await aiSummary(phone.page).getByText(/^Confidence \d+%$/).waitFor();
    expect(await hasHorizontalPageScroll(phone.page)).toBe(false);
    await expect.poll(() => phone.page.getByRole('row').count(), { timeout: 10_000 }).toBe(answer.suggestions.length + 1);
    await screenshot(phone.page, 'suggestions-mobile');
    await screenshot(phone.page, 'suggestions-mobile-full', { fullPage: true });
    expect(await accessibilityViolations(phone.page)).toEqual([]);
    await row(phone.page, cited.id).getByRole('button', { name: /source comments?$/ }).tap();
    await phone.page.getByRole('dialog', { name: 'Comments behind this suggestion' }).getByText(injection.content, { exact: true }).waitFor();
    expect(await hasHorizontalPageScroll(phone.page)).toBe(false);
    await screenshot(phone.page, 'suggestions-sources-mobile');
    expect(await accessibilityViolations(phone.page)).toEqual([]);

    for (const opened of [alice, bob, casey, phone]) expect(opened.dialogs).toEqual([]);
    expectNoConsoleErrors(alice, [404]);
    expectNoConsoleErrors(bob);
    expectNoConsoleErrors(phone);
    for (const opened of [alice, bob, casey, phone]) await opened.context.close();
  });

  it('declines a suggestion with a reason, assigns an action and lets its owner complete it, live', { timeout: 120_000 }, async () => {
    const avery = await open(AVERY);
    const bob = await open(BOB);
    const suggestions = await getJson<Suggestion[]>(bob.context, server, '/api/suggestions/with-votes');
    expect(suggestions.length).toBeGreaterThanOrEqual(2);
    const [first, second] = suggestions as [Suggestion, Suggestion];
    await row(avery.page, first.id).waitFor();

    // Decline the first, with its reason: the dialog refuses it without one.
    await row(avery.page, first.id).getByRole('button', { name: 'Status' }).click();
    let dialog = avery.page.getByRole('dialog', { name: 'Change the status' });
    await dialog.getByLabel('Status').selectOption({ label: 'Declined' });
    await dialog.getByLabel('Admin password').fill(E2E_SECRETS.ADMIN_PASSWORD);
    await dialog.getByRole('button', { name: 'Save status' }).click();
    expect(await dialog.getByRole('alert').textContent()).toBe('Declining needs a reason.');
    await dialog.getByLabel('Reason').fill('Covered by the correlation work already planned.');
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(bob.page, first.id).getByText('Why: Covered by the correlation work already planned.').waitFor({ timeout: 5_000 });

    // Accept the second and give Bob the action, due in the past: it is overdue on his list.
    await row(avery.page, second.id).getByRole('button', { name: 'Status' }).click();
    dialog = avery.page.getByRole('dialog', { name: 'Change the status' });
    await dialog.getByLabel('Status').selectOption({ label: 'Accepted' });
    await dialog.getByLabel('Admin password').fill(E2E_SECRETS.ADMIN_PASSWORD);
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(avery.page, second.id).getByRole('button', { name: 'Assign' }).click();
    dialog = avery.page.getByRole('dialog', { name: 'Owner of the action' });
    await dialog.getByLabel('Owner').selectOption({ label: BOB.name });
    await dialog.getByLabel('Due (optional)').fill('2020-01-31');
    await dialog.getByLabel('Admin password').fill(E2E_SECRETS.ADMIN_PASSWORD);
    await dialog.getByRole('button', { name: 'Save owner' }).click();
    await dialog.waitFor({ state: 'detached' });

    const myActions = bob.page.getByRole('region', { name: /My actions/ });
    await myActions.waitFor({ timeout: 5_000 });
    expect(await myActions.getByRole('heading').textContent()).toContain('(1 open, 1 overdue, 0 done)');
    expect(await myActions.getByText(`Owner: ${BOB.name} · due 2020-01-31 · overdue`).count()).toBe(1);
    await screenshot(bob.page, 'suggestions-my-actions-desktop');
    await row(bob.page, first.id).scrollIntoViewIfNeeded();
    await screenshot(bob.page, 'suggestions-statuses-desktop');
    expect(await accessibilityViolations(bob.page)).toEqual([]);

    // Bob completes it; the admin's table shows it done, and the filter finds it by status.
    await myActions.getByRole('button', { name: 'Mark done' }).click();
    await expectToast(bob.page, 'Action done', 'It is marked done for the team.');
    await expect.poll(() => row(avery.page, second.id).locator('[data-status]').getAttribute('data-status'), { timeout: 5_000 }).toBe('done');
    await avery.page.getByLabel('Status', { exact: true }).selectOption({ label: 'Done (1)' });
    await expect.poll(() => avery.page.locator('tr[data-suggestion-id]').count()).toBe(1);
    expect(await row(avery.page, second.id).count()).toBe(1);

    expectNoConsoleErrors(avery);
    expectNoConsoleErrors(bob);
    await avery.context.close();
    await bob.context.close();
  });

  it('shows the loading state, then an error with a retry; hostile AI text and the fallback notice render as text', async () => {
    // Suggestions to show, whatever ran before.
    const setup = await open(BOB);
    if ((await getJson<Suggestion[]>(setup.context, server, '/api/suggestions/with-votes')).length === 0) {
      await postJson(setup.context, server, '/api/comments', { componentId: 'em-console', content: 'The inbox should group incidents by service.' }, 201);
      await postJson(setup.context, server, '/api/suggestions/generate', {});
    }
    await setup.context.close();

    const { context, page, consoleErrors } = await newPage(browser, { viewport: DESKTOP });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    let refused = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/suggestions/with-votes', async (route) => {
      if (refused === 0) {
        refused += 1;
        await held;
        await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The service is restarting', code: 'UNAVAILABLE' }) });
        return;
      }
      await route.continue();
    });
    // A model that answered markup, and the server saying it fell back to the local analyser.
    const notice = 'The configured AI model did not answer in time; the local analyser made this summary.';
    let hostile: NarrativeSummary | undefined;
    await page.route('**/api/suggestions/narrative-summary', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as NarrativeSummary;
      hostile = {
        ...body,
        fallback: true,
        notice,
        overallConsensus: `${INJECTION_MARKUP} ${INJECTION_SCRIPT} ${body.overallConsensus}`,
        keyThemes: body.keyThemes.map((theme, index) => (index === 0 ? { ...theme, theme: `<b onmouseover=alert(1)>${theme.theme}</b>` } : theme)),
      };
      await route.fulfill({ response, json: hostile });
    });

    await signIn(page, server, { ...ALICE, path: '/suggestions' });
    await page.getByRole('status').filter({ hasText: 'Loading feedback and recommendations…' }).waitFor();
    await screenshot(page, 'suggestions-loading-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    release();
    const alert = page.getByRole('alert').filter({ hasText: 'Feedback and recommendations could not be loaded' });
    await alert.waitFor();
    expect(await alert.getByText('The service is restarting').isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('table', { name: /^Suggestions/ }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    const summary = aiSummary(page);
    await summary.getByRole('note').filter({ hasText: notice }).waitFor();
    if (hostile === undefined) throw new Error('the narrative was not asked for');
    expect(await summary.getByText(cut(hostile.overallConsensus, 120), { exact: true }).isVisible()).toBe(true);
    const firstTheme = hostile.keyThemes[0];
    if (firstTheme !== undefined) expect(await summary.getByRole('list', { name: 'Top themes' }).getByText(firstTheme.theme, { exact: true }).isVisible()).toBe(true);
    expect(await page.evaluate<number>(`document.querySelectorAll('img[src="x"], img[onerror], b[onmouseover]').length`)).toBe(0);
    await summary.getByRole('list', { name: 'Top themes' }).getByRole('listitem').first().hover();
    await screenshot(page, 'suggestions-fallback-notice-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(consoleErrors.filter((line) => !/status of (401|503)/.test(line))).toEqual([]);
    await context.close();
  });
});

describe('Feedback and Recommendations page on the demo review', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const db = server.openDb();
    try {
      await seedDemo(db, { seed: 20_240_521 });
    } finally {
      await db.destroy();
    }
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  it('generates from a few hundred comments and reads well on desktop and phone', { timeout: 120_000 }, async () => {
    const member = { name: DEMO_MEMBERS.priya.name, pin: '4682' };
    const { context, page, consoleErrors } = await newPage(browser, { viewport: DESKTOP });
    await signIn(page, server, { ...member, path: '/suggestions' });
    await page.getByRole('heading', { level: 2, name: 'No feedback and recommendations have been generated yet' }).waitFor();
    const counts = await getJson<{ components: Record<string, { open: number; resolved: number }> }>(context, server, '/api/comments/counts');
    const total = Object.values(counts.components).reduce((sum, count) => sum + count.open + count.resolved, 0);
    expect(total).toBeGreaterThan(100);

    const generated = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/suggestions/generate');
    await page.getByRole('button', { name: 'Generate suggestions' }).click();
    const answer = (await (await generated).json()) as GenerateSuggestionsResponse;
    expect(answer.commentCount).toBe(total);
    await page.getByRole('table', { name: /^Suggestions/ }).waitFor();
    await aiSummary(page).getByText(/^Confidence \d+%$/).waitFor();
    const suggestions = await getJson<Suggestion[]>(context, server, '/api/suggestions/with-votes');
    // The table renders its first rows at once and the rest at idle moments.
    await expect.poll(() => page.locator('tr[data-suggestion-id]').count(), { timeout: 10_000 }).toBe(suggestions.length);
    await closeToasts(page);
    for (const name of [/^Key themes/, /^Action items/, /^Conflicts/]) await aiSummary(page).getByRole('button', { name }).click();
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    await screenshot(page, 'suggestions-demo-desktop', { fullPage: true });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(consoleErrors.filter((line) => !line.includes('status of 401'))).toEqual([]);
    await context.close();

    const phoneContext = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const phone = await phoneContext.newPage();
    await signIn(phone, server, { ...member, path: '/suggestions' });
    await phone.getByRole('table', { name: /^Suggestions/ }).waitFor();
    await aiSummary(phone).getByText(/^Confidence \d+%$/).waitFor();
    expect(await hasHorizontalPageScroll(phone)).toBe(false);
    await screenshot(phone, 'suggestions-demo-mobile', { fullPage: true });
    expect(await accessibilityViolations(phone)).toEqual([]);
    await phoneContext.close();
  });

  it('keeps the table in place while the summary card loads, on desktop and phone', async () => {
    const member = { name: DEMO_MEMBERS.priya.name, pin: '4682' };
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await newPage(browser, { viewport });
      await signIn(page, server, member);
      // Suggestions to show, whether or not the test before generated them.
      const suggestions = await getJson<Suggestion[]>(context, server, '/api/suggestions/with-votes');
      if (suggestions.length === 0) expect((await fetchFromPage(page, 'POST', '/api/suggestions/generate', {})).status).toBe(200);
      const release = await holdRequests(page, '**/api/suggestions/narrative-summary');
      await page.goto(`${server.baseUrl}/suggestions`);
      const heading = page.getByRole('heading', { level: 2, name: /^Suggestions \(\d+\)$/ });
      await heading.waitFor();
      await aiSummary(page).getByRole('status').filter({ hasText: 'Summarising the suggestions…' }).waitFor();
      // Its place on the page (a screenshot of the card scrolls the window).
      const top = async () => ((await heading.boundingBox())?.y ?? Number.NaN) + (await page.evaluate<number>('window.scrollY'));
      const before = await top();
      await aiSummary(page).screenshot({ path: path.join(SCREENSHOT_DIR, `suggestions-summary-loading-${viewport.width}.png`) });
      release();
      await aiSummary(page).getByText(/^Confidence \d+%$/).waitFor();
      const after = await top();
      // The placeholder has the card's usual layout: the table moves by a line at most.
      expect(Math.abs(after - before)).toBeLessThanOrEqual(32);
      await context.close();
    }
  });
});
