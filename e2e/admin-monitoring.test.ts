import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_VERSION } from '../src/common/product.js';
import type { ErrorReport } from '../src/common/contract/error-reports.js';
import type { QaRunSummary } from '../src/common/contract/qa.js';
import {
  PHONE,
  enterAdminPassword,
  expectNoConsoleErrors,
  hasHorizontalPageScroll,
  panel,
  scrollToTop,
  shot,
  tab,
  unlockDialog,
  useAdminPanel,
} from './admin-panel.js';
import { accessibilityViolations } from './axe.js';
import { E2E_SECRETS, signIn, type RunningServer } from './harness.js';
import { fetchFromPage } from './page-api.js';
import { closeToasts, expectToast, toasts } from './toasts.js';

// The admin panel's monitoring tabs: Error Logs, QA Testing, AI Prompts and System, on one fresh
// server (each empty state is checked before anything fills it). The expected copy is written out
// rather than imported, so the test checks the product's wording. Browser-side code is passed to
// page.evaluate as strings: this file is type-checked for Node, without the DOM library.

const MEMBER = { name: 'Riley Reporter', pin: '3691' };

/** Where the self-test's requests come from (a documentation-range address no real client has). */
const QA_ADDRESS = '192.0.2.44';

/** A full self-test run takes 5–30 s; on a loaded two-core machine, give it twice that. */
const QA_RUN_WAIT_MS = 60_000;

const HTML_MESSAGE = '<img src=x onerror=alert(1)> broke the e2e page';
const HTML_STACK = 'Error: <img src=x onerror=alert(1)> broke the e2e page\n    at render (https://example.test/app.js:1:1)';
const MEMBER_MESSAGE = 'Saving the comment failed in the e2e test';

const PROMPT_V1 = {
  description: 'First narrative prompt',
  prompt: ['You are Biggy, the incident-management assistant.', 'Summarise the team suggestions in three themes.', '{suggestionsText}', 'Answer in JSON.'].join('\n'),
};
const PROMPT_V2 = {
  description: 'Second narrative prompt, weighing votes',
  prompt: ['You are Biggy, the incident-management assistant.', 'Summarise the suggestions by theme and weigh them by their votes.', '{suggestionsText}', 'Answer in JSON.'].join('\n'),
};

/** A toast that has a title only. */
async function expectTitleToast(page: Page, title: string): Promise<void> {
  const toast = toasts(page).filter({ hasText: title }).first();
  await toast.waitFor({ timeout: 15_000 });
  expect(await toast.locator('> div').first().innerText()).toBe(title);
}

describe('admin panel: error logs, QA testing, AI prompts and system', () => {
  const fixture = useAdminPanel([MEMBER]);
  const { openPage, openAdmin } = fixture;
  let server: RunningServer;
  beforeAll(() => {
    ({ server } = fixture);
  });

  it('Error Logs: empty on a fresh server; reports arrive live, markup stays text, Mark Resolved moves them', { timeout: 90_000 }, async () => {
    const admin = await openAdmin('Error Logs');
    const { page } = admin;
    const tabPanel = panel(page, 'Error Logs');
    await tabPanel.getByText('✓ No unresolved errors. System running smoothly!', { exact: true }).waitFor();
    await tabPanel.getByText('No error logs found. System is clean!', { exact: true }).waitFor();
    await shot(page, 'error-logs-empty-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- A signed-out page reports an error whose message is markup; a member's page reports another.
    const anonymous = await openPage();
    await anonymous.page.goto(`${server.baseUrl}/`);
    await anonymous.page.getByRole('heading', { level: 1, name: 'Team Sign In' }).waitFor();
    const htmlReport: ErrorReport = { source: 'frontend', errorType: 'javascript_error', message: HTML_MESSAGE, stack: HTML_STACK, severity: 'high', url: `${server.baseUrl}/` };
    const posted = await fetchFromPage(anonymous.page, 'POST', '/api/errors/log', htmlReport);
    expect(posted.status, posted.text).toBe(201);

    const unresolved = tabPanel.getByRole('list', { name: 'Unresolved errors' });
    const htmlEntry = unresolved.getByRole('listitem').filter({ hasText: 'broke the e2e page' });
    // Live: no reload, no tab switch.
    await htmlEntry.waitFor({ timeout: 15_000 });
    expect(await htmlEntry.getByText(HTML_MESSAGE, { exact: true }).isVisible()).toBe(true);
    // The type in words, the page it happened on and how often.
    expect(await htmlEntry.getByText('JavaScript error (high)', { exact: true }).isVisible()).toBe(true);
    expect(await htmlEntry.getByText('Page / · Reported once', { exact: true }).isVisible()).toBe(true);
    expect(await htmlEntry.innerText()).toMatch(/frontend · Unknown · /);
    await htmlEntry.getByText('Stack trace', { exact: true }).click();
    expect(await htmlEntry.locator('pre').innerText()).toBe(HTML_STACK);
    expect(await page.evaluate<number>(`document.querySelectorAll('img[src="x"], img[onerror]').length`)).toBe(0);

    const member = await openPage();
    await signIn(member.page, server, MEMBER);
    const memberReport: ErrorReport = { source: 'frontend', errorType: 'api_error', message: MEMBER_MESSAGE, severity: 'medium' };
    const memberPosted = await fetchFromPage(member.page, 'POST', '/api/errors/log', memberReport);
    expect(memberPosted.status, memberPosted.text).toBe(201);
    const memberEntry = unresolved.getByRole('listitem').filter({ hasText: MEMBER_MESSAGE });
    await memberEntry.waitFor({ timeout: 15_000 });
    expect(await memberEntry.getByText('API error (medium)', { exact: true }).isVisible()).toBe(true);
    await memberEntry.getByText('Page not reported · Reported once', { exact: true }).waitFor();
    // The same report again is the same entry, counted.
    const again = await fetchFromPage(member.page, 'POST', '/api/errors/log', memberReport);
    expect(again.status, again.text).toBe(201);
    await memberEntry.getByText('Page not reported · Reported 2 times', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await memberEntry.innerText()).toMatch(new RegExp(`frontend · ${MEMBER.name} · `));
    // Most recently seen first.
    expect(await unresolved.getByRole('listitem').count()).toBe(2);
    expect(await unresolved.getByRole('listitem').first().innerText()).toContain(MEMBER_MESSAGE);

    const allLogs = tabPanel.getByRole('region', { name: 'Error log entries', exact: true });
    const allHtml = allLogs.getByRole('listitem').filter({ hasText: 'broke the e2e page' });
    await allHtml.waitFor();
    expect(await allHtml.getByText('Open', { exact: true }).isVisible()).toBe(true);
    expect(await allHtml.getByText('high', { exact: true }).isVisible()).toBe(true);
    expect(await allHtml.getByText(HTML_MESSAGE, { exact: true }).isVisible()).toBe(true);
    await shot(page, 'error-logs-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- Mark Resolved: out of the unresolved list, 'Resolved' in All Error Logs.
    await htmlEntry.getByRole('button', { name: 'Mark Resolved' }).click();
    await expectToast(page, 'Error Resolved', 'Error has been marked as resolved');
    await htmlEntry.waitFor({ state: 'detached' });
    expect(await unresolved.getByRole('listitem').count()).toBe(1);
    await allHtml.getByText('Resolved', { exact: true }).waitFor();
    expect(await allLogs.getByRole('listitem').filter({ hasText: MEMBER_MESSAGE }).getByText('Open', { exact: true }).isVisible()).toBe(true);
    await closeToasts(page);
    await memberEntry.getByRole('button', { name: 'Mark Resolved' }).click();
    await expectToast(page, 'Error Resolved', 'Error has been marked as resolved');
    await tabPanel.getByText('✓ No unresolved errors. System running smoothly!', { exact: true }).waitFor();
    // The two lists are refetched apart: wait for this one to show the second resolution too.
    await allLogs.getByRole('listitem').filter({ hasText: MEMBER_MESSAGE }).getByText('Resolved', { exact: true }).waitFor();
    expect(await allLogs.getByText('Resolved', { exact: true }).count()).toBe(2);
    await closeToasts(page);
    await shot(page, 'error-logs-resolved-desktop');

    // Nothing of the markup ran, anywhere.
    expect(await page.evaluate<number>(`document.querySelectorAll('img[src="x"], img[onerror]').length`)).toBe(0);
    for (const entry of [admin, anonymous, member]) expect(entry.dialogs).toEqual([]);
    expectNoConsoleErrors(admin);
    expectNoConsoleErrors(member);
    for (const entry of [admin, anonymous, member]) await entry.context.close();
  });

  it('QA Testing: empty at first; a full run shows its progress, then the toast, the counts and a row per check', { timeout: 180_000 }, async () => {
    const admin = await openAdmin('QA Testing');
    const { page } = admin;
    const tabPanel = panel(page, 'QA Testing');
    await tabPanel.getByText('No test results available. Run the QA test suite to see results.', { exact: true }).waitFor();
    const suitePanel = tabPanel.getByRole('region', { name: 'QA Test Suite' });
    expect(await suitePanel.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['Core Systems (6)', 'Management & Analytics (4)', 'Advanced Testing (8)']);
    // No QA user to set up first: the run creates it, and the tab says so.
    expect(await suitePanel.innerText()).toMatch(/creates it first if it does not exist/);
    expect(await tabPanel.getByRole('button', { name: /Initialize QA User/i }).count()).toBe(0);
    await shot(page, 'qa-empty-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- Run: 'Running Tests...', then a progress line naming a suite.
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/qa/run-tests', { timeout: QA_RUN_WAIT_MS });
    await tabPanel.getByRole('button', { name: 'Run Full QA Test Suite' }).click();
    const running = tabPanel.getByRole('button', { name: 'Running Tests...' });
    await running.waitFor();
    expect(await running.isDisabled()).toBe(true);
    const progress = tabPanel.getByRole('status').filter({ hasText: /^Running: [A-Z][A-Za-z ]+ \(\d+ of 18\)$/ });
    await progress.waitFor({ timeout: QA_RUN_WAIT_MS });
    const [, suite] = /^Running: (.+) \(\d+ of 18\)$/.exec((await progress.textContent({ timeout: 1_000 }).catch(() => null)) ?? '') ?? [];
    if (suite !== undefined) {
      expect(['Database', 'Authentication', 'Comments', 'Voting', 'Proposals', 'AI Summaries', 'Analytics', 'Error Logging', 'Team Management', 'AI Prompts', 'Sessions', 'PIN Resets', 'Data Integrity', 'Performance', 'API Validation', 'User Stats', 'Input Validation', 'Concurrency']).toContain(suite);
    }
    await shot(page, 'qa-running-desktop', { fullPage: false });

    // ---- Done: the toast, the counts and one row per check.
    const response = await answered;
    expect(response.status(), await response.text()).toBe(200);
    const summary = (await response.json()) as QaRunSummary;
    expect(summary.totalTests).toBe(summary.passed + summary.failed + summary.skipped);
    expect(summary.passed).toBeGreaterThan(0);
    await toasts(page).filter({ hasText: 'QA Tests Completed' }).first().waitFor({ timeout: QA_RUN_WAIT_MS });
    await expectToast(page, 'QA Tests Completed', `${summary.passed}/${summary.totalTests} tests passed`);
    await tabPanel.getByRole('button', { name: 'Run Full QA Test Suite' }).waitFor();
    await expect.poll(() => tabPanel.getByRole('status').filter({ hasText: /^Running|^Starting/ }).count()).toBe(0);

    const results = tabPanel.getByRole('region', { name: 'Latest Test Results' });
    await results.getByRole('list', { name: 'Database checks' }).waitFor();
    const counts = tabPanel.locator('dl > div');
    for (const [label, value] of [
      ['Passed', summary.passed],
      ['Failed', summary.failed],
      ['Skipped', summary.skipped],
    ] as const) {
      expect(await counts.filter({ has: page.locator('dt', { hasText: label }) }).locator('dd').innerText()).toBe(String(value));
    }
    // Who ran it and when, once for the run.
    expect(await results.innerText()).toMatch(/Run by Avery Admin on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M, took \d+ s/);
    // One group per suite, in the order they ran, each with its own list of checks.
    const suiteNames = ['Database', 'Authentication', 'Comments', 'Voting', 'Proposals', 'AI Summaries', 'Analytics', 'Error Logging', 'Team Management', 'AI Prompts', 'Sessions', 'PIN Resets', 'Data Integrity', 'Performance', 'API Validation', 'User Stats', 'Input Validation', 'Concurrency'];
    const headings = (await results.getByRole('heading', { level: 3 }).allInnerTexts()).map((text) => text.replace(/\s*\d+ of \d+ passed$/, ''));
    expect(headings.filter((heading) => heading !== 'Clean-up')).toEqual(suiteNames);
    const rows = results.getByRole('listitem');
    expect(await rows.count()).toBe(summary.totalTests);
    expect(await rows.filter({ has: page.getByText('Passed', { exact: true }) }).count()).toBe(summary.passed);
    expect(await rows.filter({ has: page.getByText('Failed', { exact: true }) }).count()).toBe(summary.failed);
    expect(await results.getByRole('list', { name: 'Database checks' }).getByRole('listitem').first().innerText()).toMatch(/\d+ ms/);
    // A check that did not pass says why, right under its name.
    const notPassed = await rows.filter({ hasNot: page.getByText('Passed', { exact: true }) }).allInnerTexts();
    const failedChecks = notPassed.filter((entry) => entry.endsWith('Failed'));
    if (failedChecks.length > 0) console.warn(`QA checks that failed:\n${failedChecks.join('\n---\n')}`);
    for (const text of notPassed) expect(text.split('\n').length).toBeGreaterThanOrEqual(3);

    await closeToasts(page);
    await shot(page, 'qa-results-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- On a phone: the results read without sideways scrolling.
    const phone = await openAdmin('QA Testing', PHONE);
    await panel(phone.page, 'QA Testing').getByRole('list', { name: 'Database checks' }).waitFor();
    expect(await hasHorizontalPageScroll(phone.page)).toBe(false);
    await shot(phone.page, 'qa-results-mobile');
    await shot(phone.page, 'qa-results-mobile-viewport', { fullPage: false });
    await scrollToTop(phone.page, phone.page.getByRole('heading', { level: 2, name: 'Latest Test Results' }));
    await shot(phone.page, 'qa-results-mobile-counts', { fullPage: false });
    // Each check's badge stays on one line beside its name.
    for (const badge of await panel(phone.page, 'QA Testing').getByRole('region', { name: 'Latest Test Results' }).getByRole('listitem').getByText(/^(Passed|Failed|Skipped)$/).all()) {
      expect((await badge.boundingBox())?.height).toBeLessThan(30);
    }
    expect(await accessibilityViolations(phone.page)).toEqual([]);

    // ---- The Audit Trail leaves out what the run's own requests wrote, unless asked; the admin's run entry stays.
    await tab(page, 'Audit Trail').click();
    const audit = panel(page, 'Audit Trail');
    const auditTable = audit.getByRole('table', { name: /^Audit trail, page \d+$/ });
    await auditTable.waitFor();
    const addresses = () => auditTable.locator('tbody tr td:nth-child(5)').allInnerTexts();
    expect(await addresses()).not.toContain(QA_ADDRESS);
    expect(await auditTable.locator('tbody tr').filter({ hasText: /QA self-test run \d+: / }).count()).toBe(1);
    await shot(page, 'audit-qa-hidden-desktop');
    await audit.getByRole('checkbox', { name: 'Show QA self-test entries' }).check();
    await expect.poll(addresses).toContain(QA_ADDRESS);
    expect(await accessibilityViolations(page)).toEqual([]);

    expectNoConsoleErrors(admin);
    expectNoConsoleErrors(phone);
    for (const entry of [admin, phone]) await entry.context.close();
  });

  it('AI Prompts: Save needs description and text with {suggestionsText}, then the password; versions compare as a line diff and roll back', { timeout: 90_000 }, async () => {
    const admin = await openAdmin('AI Prompts');
    const { page } = admin;
    const tabPanel = panel(page, 'AI Prompts');
    // A fresh database has the default prompt, written by 'System', as its only version.
    const activeCard = tabPanel.getByRole('region', { name: 'Current Active Prompt' });
    await activeCard.getByText(/^By System, /).waitFor();
    expect(await activeCard.locator('pre').innerText()).toContain('{suggestionsText}');
    const versions = tabPanel.getByRole('list', { name: 'Prompt versions' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(1);
    expect(await versions.first().getByText('Active', { exact: true }).isVisible()).toBe(true);
    const builtIn = versions.filter({ hasText: 'by System' });

    // ---- Save Prompt stays disabled until description and text (with the placeholder) are there.
    const save = tabPanel.getByRole('button', { name: /^(Save Prompt|Saving\.\.\.)$/ });
    const description = tabPanel.getByLabel('Description', { exact: true });
    const text = tabPanel.getByLabel('Prompt', { exact: true });
    expect(await save.isDisabled()).toBe(true);
    await description.fill(PROMPT_V1.description);
    expect(await save.isDisabled()).toBe(true);
    await text.fill('Summarise the suggestions.');
    const warning = tabPanel.getByRole('alert').filter({ hasText: 'The prompt must contain {suggestionsText}, where the suggestions go.' });
    await warning.waitFor();
    expect(await text.getAttribute('aria-invalid')).toBe('true');
    expect(await save.isDisabled()).toBe(true);
    await shot(page, 'prompts-warning-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    await text.fill(PROMPT_V1.prompt);
    await warning.waitFor({ state: 'detached' });
    expect(await text.getAttribute('aria-invalid')).toBe('false');
    expect(await save.isEnabled()).toBe(true);
    expect(await tabPanel.getByText(/Enter the admin password/).count()).toBe(0);
    // The draft outlives a visit to another tab.
    await tab(page, 'Team Management').click();
    await tab(page, 'AI Prompts').click();
    expect(await tabPanel.getByLabel('Prompt', { exact: true }).inputValue()).toBe(PROMPT_V1.prompt);
    expect(await tabPanel.getByLabel('Description', { exact: true }).inputValue()).toBe(PROMPT_V1.description);
    expect(await save.isEnabled()).toBe(true);

    // ---- Save, locked: the password is asked, then the new prompt is the active one; the form empties.
    await save.click();
    await unlockDialog(page).waitFor();
    await enterAdminPassword(page);
    await expectTitleToast(page, 'AI prompt updated successfully');
    await activeCard.getByText(PROMPT_V1.description, { exact: true }).waitFor();
    expect(await activeCard.locator('pre').innerText()).toBe(PROMPT_V1.prompt);
    expect(await activeCard.innerText()).toMatch(/By Avery Admin, /);
    await expect.poll(() => text.inputValue()).toBe('');
    await expect.poll(() => description.inputValue()).toBe('');
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.first().innerText()).toContain(PROMPT_V1.description);
    expect(await versions.first().getByText('Active', { exact: true }).isVisible()).toBe(true);
    expect(await builtIn.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    await closeToasts(page);

    // ---- A second version becomes active; the first can be compared with it and made active again.
    await description.fill(PROMPT_V2.description);
    await text.fill(PROMPT_V2.prompt);
    await save.click();
    await expectTitleToast(page, 'AI prompt updated successfully');
    await activeCard.getByText(PROMPT_V2.description, { exact: true }).waitFor();
    await expect.poll(() => versions.count()).toBe(3);
    const v2 = versions.filter({ hasText: PROMPT_V2.description });
    const v1 = versions.filter({ hasText: PROMPT_V1.description });
    expect(await versions.first().innerText()).toContain(PROMPT_V2.description);
    expect(await v2.getByText('Active', { exact: true }).isVisible()).toBe(true);
    expect(await v2.getByRole('button', { name: 'Compare with active' }).count()).toBe(0);
    expect(await v1.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    await closeToasts(page);

    const compare = v1.getByRole('button', { name: 'Compare with active' });
    expect(await compare.getAttribute('aria-expanded')).toBe('false');
    await compare.click();
    expect(await compare.getAttribute('aria-expanded')).toBe('true');
    const diff = v1.getByRole('region', { name: /^Changes of the version of .+ against the active prompt$/ });
    await diff.waitFor();
    const linesOf = async (kind: string) => (await diff.locator(`[data-diff="${kind}"] > span:last-child`).allInnerTexts()).map((line) => line.trim());
    // '-': only the active prompt (version 2) has it; '+': only version 1 has it.
    expect(await linesOf('removed')).toEqual(['Summarise the suggestions by theme and weigh them by their votes.']);
    expect(await linesOf('added')).toEqual(['Summarise the team suggestions in three themes.']);
    expect(await linesOf('same')).toEqual(['You are Biggy, the incident-management assistant.', '{suggestionsText}', 'Answer in JSON.']);
    await shot(page, 'prompts-diff-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    await v1.getByRole('button', { name: 'Activate' }).click();
    await expectTitleToast(page, 'Prompt activated');
    await activeCard.getByText(PROMPT_V1.description, { exact: true }).waitFor();
    expect(await activeCard.locator('pre').innerText()).toBe(PROMPT_V1.prompt);
    await v1.getByText('Active', { exact: true }).waitFor();
    expect(await v2.getByText('Inactive', { exact: true }).isVisible()).toBe(true);
    expect(await v1.getByRole('button', { name: 'Activate' }).count()).toBe(0);
    // The server agrees.
    const active = await fetchFromPage(page, 'GET', '/api/ai-prompts/active');
    expect((JSON.parse(active.text) as { prompt: string }).prompt).toBe(PROMPT_V1.prompt);
    await closeToasts(page);
    await shot(page, 'prompts-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(admin, [404]);
    await admin.context.close();
  });

  it('System: the server facts, the security model and where each secret comes from, but no secret value', async () => {
    const admin = await openAdmin('System');
    const { page } = admin;
    const tabPanel = panel(page, 'System');
    await tabPanel.getByRole('heading', { level: 2, name: 'Security Model' }).waitFor();
    const facts = tabPanel.getByRole('region', { name: 'System' }).locator('dl > div');
    const factText = await facts.allInnerTexts();
    expect(factText.map((fact) => fact.replace(/\s*\n\s*/, ': '))).toEqual([
      `VERSION: ${PRODUCT_VERSION}`,
      `DATABASE: ${server.database.databaseUrl === undefined ? 'SQLite (embedded)' : 'PostgreSQL'}`,
      'AI PROVIDER: local',
      'ADMIN: Avery Admin',
      'QA TEST USER: QA Test User',
    ]);
    const model = tabPanel.getByRole('region', { name: 'Security Model' }).getByRole('listitem');
    expect(await model.count()).toBeGreaterThanOrEqual(5);
    expect(await model.first().innerText()).toBe('Pre-approved members only: the admin adds each member by full name; nobody can sign up.');
    const secrets = tabPanel.getByRole('table', { name: 'Secrets and their source' });
    const secretRows = secrets.locator('tbody tr');
    expect(await secretRows.allInnerTexts()).toEqual(
      ['Team password', 'Admin password', 'QA user PIN', 'PIN pepper'].map((label) => `${label}\tSet in the environment`),
    );

    // No secret value: not in the text, not in the markup, not in the answer the tab was built from.
    const shown = await page.locator('body').innerText();
    const markup = await page.content();
    const answer = await fetchFromPage(page, 'GET', '/api/admin/system');
    for (const secret of Object.values(E2E_SECRETS)) {
      expect(shown).not.toContain(secret);
      expect(markup).not.toContain(secret);
      expect(answer.text).not.toContain(secret);
    }
    await shot(page, 'system-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(admin);
    await admin.context.close();
  });
});
