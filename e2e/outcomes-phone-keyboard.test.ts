import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateSuggestionsResponse, Suggestion } from '../src/common/contract/ai.js';
import { accessibilityViolations } from './axe.js';
import { fetchFromPage, postComment } from './page-api.js';
import { card, commentPanel, showDiagram } from './review-page.js';
import { E2E_SECRETS, launchBrowser, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';
import { MIN_TARGET } from './targets.js';
import { expectToast } from './toasts.js';

// The review's outcome features (resolving comments, decisions, suggestion statuses, owners and
// actions, the progress line and the exports) on a phone, driven with the keyboard alone: every
// action is a key press through page.keyboard. Locators only find what to assert on. Signing in
// is the harness's set-up (it fills and clicks the sign-in form), and a few comments are posted
// through the API as the other browser tests do; neither is what this file tests.
//
// Browser-side code is passed to page.evaluate as strings: this file is type-checked for Node,
// without the DOM library.

const PHONE = { width: 390, height: 844 };

const ALICE = { name: 'Alice Archer', pin: '3816' };
const BOB = { name: 'Bob Baker', pin: '5062' };
const AVERY = { name: 'Avery Admin', pin: '8024' };

/** The component the first two tests comment on and decide. */
const TITLE = 'Authentication and SSO';
const COMPONENT = 'authentication-and-sso';

interface OpenedPage {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
}

/** What went wrong across a test, reported together at its end so one run shows every finding. */
interface Findings {
  undersized: string[];
  hidden: string[];
  unringed: string[];
}

function noFindings(): Findings {
  return { undersized: [], hidden: [], unringed: [] };
}

function expectNoFindings(findings: Findings) {
  expect(findings.undersized, 'controls smaller than 24×24 px').toEqual([]);
  expect(findings.hidden, 'focused controls entirely hidden (WCAG 2.4.11)').toEqual([]);
  expect(findings.unringed, 'focused controls without a visible focus indicator').toEqual([]);
}

/** The signed-out probe answers 401 by design (before the sign-in); nothing else may be logged. */
function expectNoConsoleErrors(opened: OpenedPage) {
  expect(opened.consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'))).toEqual([]);
}

/** Finite transitions still running (the panel slides in): boxes are measured once they stop. */
const RUNNING_FINITE_ANIMATIONS = `document.getAnimations().filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity).length`;

async function settled(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate<number>(RUNNING_FINITE_ANIMATIONS), { interval: 50 }).toBe(0);
}

/** Whether `target` has the keyboard focus (a function of the element: no DOM types needed). */
async function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element: { matches: (selector: string) => boolean }) => element.matches(':focus'));
}

/** The focused element in words, for failure messages and the focus trail. */
async function describeFocus(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return 'body';
    const name = (element.getAttribute('aria-label') ?? element.labels?.[0]?.textContent ?? element.textContent ?? '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    const dialog = element.closest('[role="dialog"]');
    const where = dialog === null ? '' : ' in dialog "' + (document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent ?? '') + '"';
    return element.tagName.toLowerCase() + (element.getAttribute('role') ? '[role=' + element.getAttribute('role') + ']' : '') + ' "' + name + '"' + where;
  })()`);
}

/** The accessible name of the dialog holding the focus ('' when the focus is outside any dialog). */
async function dialogHoldingFocus(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const dialog = document.activeElement?.closest('[role="dialog"]');
    if (dialog == null) return '';
    return document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent ?? '';
  })()`);
}

/**
 * Tab (or Shift+Tab) until `target` has the focus; answers how many presses it took. Fails with
 * the focus trail when it is not reached.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 }: { backwards?: boolean; max?: number } = {}): Promise<number> {
  await target.waitFor();
  const trail: string[] = [];
  for (let presses = 0; presses <= max; presses++) {
    if (await isFocused(target)) return presses;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    trail.push(await describeFocus(page));
  }
  throw new Error(`${backwards ? 'Shift+Tab' : 'Tab'} did not reach the control in ${max} presses; the focus went ${trail.join(' → ')}`);
}

/**
 * Checks the control the keyboard is on: it is `target`, its focus shows (an outline or a ring),
 * it is not entirely hidden by something over it (a toast, say), and its pointer target (the
 * control, or the label that wraps it) is at least 24×24 px. Findings are collected, not thrown.
 */
async function checkFocusedControl(page: Page, target: Locator, what: string, findings: Findings, hitTarget: Locator = target): Promise<void> {
  if (!(await isFocused(target))) throw new Error(`${what} should have the focus; it is on ${await describeFocus(page)}`);
  await settled(page);
  const box = await hitTarget.boundingBox();
  if (box === null) throw new Error(`${what} has no box`);
  if (box.width < MIN_TARGET || box.height < MIN_TARGET) findings.undersized.push(`${what}: ${box.width.toFixed(1)}×${box.height.toFixed(1)} px`);
  const ring = await page.evaluate<{ outlineStyle: string; outlineWidth: string; boxShadow: string }>(`(() => {
    const style = getComputedStyle(document.activeElement);
    return { outlineStyle: style.outlineStyle, outlineWidth: style.outlineWidth, boxShadow: style.boxShadow };
  })()`);
  if ((ring.outlineStyle === 'none' || ring.outlineWidth === '0px') && ring.boxShadow === 'none') findings.unringed.push(`${what}: outline ${ring.outlineStyle} ${ring.outlineWidth}, box-shadow ${ring.boxShadow}`);
  // The centre and four inner corners: entirely hidden when none of them hits the control (or its label).
  const visiblePoints = await page.evaluate<number>(`(() => {
    const element = document.activeElement;
    const rect = element.getBoundingClientRect();
    const inset = Math.min(3, rect.width / 4, rect.height / 4);
    const points = [[rect.left + rect.width / 2, rect.top + rect.height / 2], [rect.left + inset, rect.top + inset], [rect.right - inset, rect.top + inset], [rect.left + inset, rect.bottom - inset], [rect.right - inset, rect.bottom - inset]];
    const owns = (hit) => hit !== null && (hit === element || element.contains(hit) || [...(element.labels ?? [])].some((label) => label.contains(hit)));
    return points.filter(([x, y]) => owns(document.elementFromPoint(x, y))).length;
  })()`);
  if (visiblePoints === 0) findings.hidden.push(`${what}: covered by ${await page.evaluate<string>(`(() => { const rect = document.activeElement.getBoundingClientRect(); const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2); return hit === null ? 'nothing (off screen)' : hit.tagName.toLowerCase() + '.' + [...hit.classList].slice(0, 4).join('.'); })()`)}`);
}

/** Checks the focused control (see checkFocusedControl), then presses `key` on it. */
async function pressOn(page: Page, target: Locator, what: string, findings: Findings, key = 'Enter', hitTarget?: Locator): Promise<void> {
  await checkFocusedControl(page, target, what, findings, hitTarget);
  await page.keyboard.press(key);
}

/** Checks the focused field (see checkFocusedControl), then types `text` into it. */
async function typeInto(page: Page, target: Locator, what: string, findings: Findings, text: string): Promise<void> {
  await checkFocusedControl(page, target, what, findings);
  await page.keyboard.type(text);
}

/**
 * Picks an option of the focused native select with the arrow keys, one press at a time until it
 * holds `value` (a closed select changes its value on ArrowDown/ArrowUp, without opening).
 */
async function arrowSelect(page: Page, select: Locator, what: string, findings: Findings, value: string): Promise<void> {
  await checkFocusedControl(page, select, what, findings);
  const values = await select.locator('option').evaluateAll((options: { value: string }[]) => options.map((option) => option.value));
  const wanted = values.indexOf(value);
  if (wanted < 0) throw new Error(`${what} has no option ${value}: ${values.join(', ')}`);
  for (let presses = 0; presses < values.length && (await select.inputValue()) !== value; presses++) {
    const current = values.indexOf(await select.inputValue());
    await page.keyboard.press(current < wanted ? 'ArrowDown' : 'ArrowUp');
  }
  expect(await select.inputValue()).toBe(value);
}

/**
 * One screen state: a screenshot into the harness's folder, no serious or critical axe violation,
 * and nothing wider than the phone. A dialog open on it must fit the screen (its own fields
 * scroll inside it).
 */
async function checkState(page: Page, name: string, dialog?: Locator): Promise<void> {
  await settled(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `outcomes-phone-${name}.png`), animations: 'disabled' });
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name}: the page scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
  expect(await page.evaluate<number>('window.innerWidth')).toBe(PHONE.width);
  if (dialog !== undefined) {
    const box = await dialog.boundingBox();
    if (box === null) throw new Error(`${name}: the dialog has no box`);
    expect(box.y, `${name}: the dialog starts above the screen`).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height, `${name}: the dialog ends below the screen`).toBeLessThanOrEqual(PHONE.height);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  }
  expect(await accessibilityViolations(page), name).toEqual([]);
}

type Box = NonNullable<Awaited<ReturnType<Locator['boundingBox']>>>;

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * What a toast hides that it must not: the page's header (the first in the document, before the
 * panel's own), the panel's title and Close button
 * (anywhere on them), and the focused control (all of it, WCAG 2.4.11).
 */
async function hiddenByToast(page: Page, toast: Locator, panel: Locator): Promise<string[]> {
  const box = await toast.boundingBox();
  if (box === null) return [];
  const hidden: string[] = [];
  const kept = { header: page.locator('header').first(), title: panel.getByRole('heading', { name: TITLE }), close: panel.getByRole('button', { name: 'Close comments' }) };
  for (const [name, locator] of Object.entries(kept)) {
    const other = await locator.boundingBox();
    if (other !== null && overlap(box, other)) hidden.push(name);
  }
  const focused = await page.locator(':focus').boundingBox();
  if (focused !== null && focused.x >= box.x && focused.y >= box.y && focused.x + focused.width <= box.x + box.width && focused.y + focused.height <= box.y + box.height) hidden.push(`the focused ${await describeFocus(page)}`);
  return hidden;
}

function commentIn(panel: Locator, text: string): Locator {
  return panel.getByRole('article').filter({ hasText: text });
}

function responseTo(page: Page, method: string, pathname: string, status: number): Promise<Response> {
  return page.waitForResponse((response) => response.request().method() === method && new URL(response.url()).pathname === pathname && response.status() === status);
}

function row(page: Page, suggestionId: number): Locator {
  return page.locator(`tr[data-suggestion-id="${suggestionId}"]`);
}

// The tests run in order on one server and build on each other, as a review does: the comment of
// the first is what the second's decision rests on, and the last reads the progress they made.
describe('the review’s outcomes on a phone, with the keyboard alone', () => {
  let server: RunningServer;
  let browser: Browser;
  const comment = `SCIM de-provisioning must revoke agent service tokens within a minute — ${Date.now()}`;
  const rationale = 'Accepted once token revocation is part of the off-boarding runbook.';

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    for (const member of [ALICE, BOB]) await seedMember(server, member.name, { pin: member.pin });
    await seedMember(server, AVERY.name, { pin: AVERY.pin, role: 'admin' });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  /**
   * A phone as the other phone tests hold it (390×844, touch, no hover), signed in on `route`.
   * The locale is fixed because a date field's segments (month, day, year) follow it.
   */
  async function openPhone(member: { name: string; pin: string }, route = '/'): Promise<OpenedPage> {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'en-US' });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await signIn(page, server, { ...member, path: route });
    // The harness signs in with the mouse and closes its toast with a click, which leaves the
    // pointer resting where it clicked, where a layout change under it could raise a tooltip. A
    // phone has no resting pointer, so it is parked on the header's empty corner.
    await page.mouse.move(0, 0);
    if (route === '/') {
      await card(page, TITLE).waitFor();
      await showDiagram(page);
      await page.locator('[data-review-progress]').waitFor();
    }
    return { context, page, consoleErrors };
  }

  it('comments, resolves with a note, unfolds and reopens in the comment panel; focus stays in the panel', async () => {
    const findings = noFindings();
    const opened = await openPhone(ALICE);
    const { page } = opened;
    await checkState(page, 'main');

    // Tab from the top of the page to the card's Comment button; Enter opens the panel.
    const opener = card(page, TITLE).getByRole('button', { name: `Comment on ${TITLE}` });
    await tabTo(page, opener);
    await pressOn(page, opener, 'the card’s Comment button', findings);
    const panel = commentPanel(page);
    await panel.getByRole('heading', { name: TITLE }).waitFor();
    // On a touch screen the panel itself takes the focus (no on-screen keyboard thrown up).
    await expect.poll(() => isFocused(panel)).toBe(true);
    await panel.getByText('No comments yet').waitFor();
    await checkState(page, 'panel-open', panel);

    // Post a comment: Tab to the field, type, Tab to the button, Enter.
    const field = panel.getByRole('textbox', { name: 'Your comment' });
    await tabTo(page, field);
    await typeInto(page, field, 'the comment field', findings, comment);
    const post = panel.getByRole('button', { name: 'Post comment' });
    await tabTo(page, post);
    const posted = responseTo(page, 'POST', '/api/comments', 201);
    await pressOn(page, post, 'Post comment', findings);
    const created = (await (await posted).json()) as { id: number };
    const added = await expectToast(page, 'Comment added', 'Your comment has been posted successfully.');
    const article = commentIn(panel, comment);
    await article.waitFor();
    // Focus is back in the (emptied) comment field.
    await expect.poll(() => isFocused(field)).toBe(true);
    await expect.poll(() => hiddenByToast(page, added, panel)).toEqual([]);
    await checkState(page, 'comment-posted', panel);

    // Resolve it with a note: Tab to its Resolve button, Enter; the dialog starts in the note.
    const resolveButton = article.getByRole('button', { name: 'Resolve' });
    await tabTo(page, resolveButton);
    await pressOn(page, resolveButton, 'the comment’s Resolve button', findings);
    const resolveDialog = page.getByRole('dialog', { name: 'Resolve this comment?' });
    await resolveDialog.waitFor();
    const note = resolveDialog.getByRole('textbox', { name: /Note/ });
    await expect.poll(() => isFocused(note)).toBe(true);
    await checkState(page, 'resolve-dialog', resolveDialog);
    await typeInto(page, note, 'the resolution note', findings, 'Covered by the off-boarding runbook v3');
    const confirmResolve = resolveDialog.getByRole('button', { name: 'Resolve', exact: true });
    await tabTo(page, confirmResolve);
    const resolved = responseTo(page, 'POST', `/api/comments/${created.id}/resolve`, 200);
    await pressOn(page, confirmResolve, 'the dialog’s Resolve button', findings);
    await resolved;
    const resolvedToast = await expectToast(page, 'Comment resolved', 'It is folded in the list, with its votes.');
    await resolveDialog.waitFor({ state: 'detached' });

    // Folded to one line; the focus stays with the comment, on its Show button.
    const fold = panel.getByText(/Resolved by Alice Archer/);
    await fold.waitFor();
    expect(await fold.textContent()).toContain('“Covered by the off-boarding runbook v3”');
    expect(await article.isVisible()).toBe(false);
    const show = panel.getByRole('button', { name: 'Show' });
    await expect.poll(() => isFocused(show), { message: `focus after resolving is on ${await describeFocus(page)}` }).toBe(true);
    expect(await dialogHoldingFocus(page)).toBe(TITLE);
    await expect.poll(() => hiddenByToast(page, resolvedToast, panel)).toEqual([]);
    await checkState(page, 'resolved-folded', panel);

    // Enter on Show unfolds it; the focus stays on the same button, now 'Hide'.
    await pressOn(page, show, 'Show', findings);
    await article.waitFor();
    const hide = panel.getByRole('button', { name: 'Hide' });
    expect(await hide.getAttribute('aria-expanded')).toBe('true');
    expect(await isFocused(hide)).toBe(true);
    await checkState(page, 'resolved-unfolded', panel);

    // Reopen it from the unfolded comment; its button goes with the change and the focus stays
    // with the comment: on its article (focusable by script only).
    const reopen = article.getByRole('button', { name: 'Reopen' });
    await tabTo(page, reopen);
    const reopened = responseTo(page, 'POST', `/api/comments/${created.id}/reopen`, 200);
    await pressOn(page, reopen, 'Reopen', findings);
    await reopened;
    const reopenedToast = await expectToast(page, 'Comment reopened', 'It counts as open again.');
    await expect.poll(() => panel.getByText(/Resolved by/).count()).toBe(0);
    await article.getByRole('button', { name: 'Resolve' }).waitFor();
    await expect.poll(() => isFocused(article), { message: `focus after reopening is on ${await describeFocus(page)}` }).toBe(true);
    expect(await dialogHoldingFocus(page)).toBe(TITLE);
    await expect.poll(() => hiddenByToast(page, reopenedToast, panel)).toEqual([]);
    await checkState(page, 'reopened', panel);

    // Escape closes the panel and gives the focus back to the card's Comment button.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(opener)).toBe(true);

    expectNoFindings(findings);
    expectNoConsoleErrors(opened);
    await opened.context.close();
  });

  it('records a decision in the panel’s dialog as the admin; focus returns to its opener and the chip shows', async () => {
    const findings = noFindings();
    const opened = await openPhone(AVERY);
    const { page } = opened;

    const opener = card(page, TITLE).getByRole('button', { name: `Comment on ${TITLE}` });
    await tabTo(page, opener);
    await pressOn(page, opener, 'the card’s Comment button', findings);
    const panel = commentPanel(page);
    await panel.getByText('No decision yet.').waitFor();
    await commentIn(panel, comment).waitFor();

    const record = panel.getByRole('button', { name: 'Record a decision' });
    await tabTo(page, record);
    await pressOn(page, record, 'Record a decision', findings);
    const dialog = page.getByRole('dialog', { name: `Decision on ${TITLE}` });
    await dialog.waitFor();
    // The dialog starts on the first outcome; the arrow keys choose one (a native radio group).
    const first = dialog.getByRole('radio', { name: 'Accepted as is' });
    await expect.poll(() => isFocused(first)).toBe(true);
    await checkState(page, 'decision-dialog', dialog);
    // A native radio or checkbox is activated through the label that wraps it: that is its target.
    const labelOf = (role: 'radio' | 'checkbox', name: string | RegExp) => dialog.locator('label').filter({ has: page.getByRole(role, { name }) });
    await pressOn(page, first, 'the first outcome', findings, 'ArrowDown', labelOf('radio', 'Accepted as is'));
    const outcome = dialog.getByRole('radio', { name: 'Accepted with changes' });
    expect(await outcome.isChecked()).toBe(true);
    expect(await first.isChecked()).toBe(false);
    await checkFocusedControl(page, outcome, 'the outcome chosen', findings, labelOf('radio', 'Accepted with changes'));

    // Tab leaves the radio group for the rationale, then the comments it rests on (Space ticks one).
    const rationaleField = dialog.getByRole('textbox', { name: 'Rationale' });
    await tabTo(page, rationaleField);
    await typeInto(page, rationaleField, 'the rationale', findings, rationale);
    const basis = dialog.getByRole('checkbox', { name: /SCIM de-provisioning/ });
    await tabTo(page, basis);
    await pressOn(page, basis, 'the comment the decision rests on', findings, 'Space', labelOf('checkbox', /SCIM de-provisioning/));
    expect(await basis.isChecked()).toBe(true);
    const password = dialog.getByLabel('Admin password');
    await tabTo(page, password);
    await typeInto(page, password, 'the admin password', findings, E2E_SECRETS.ADMIN_PASSWORD);
    await checkState(page, 'decision-dialog-filled', dialog);
    const submit = dialog.getByRole('button', { name: 'Record decision' });
    await tabTo(page, submit);
    const recorded = responseTo(page, 'POST', `/api/decisions/${COMPONENT}`, 201);
    await pressOn(page, submit, 'Record decision', findings);
    await recorded;
    await dialog.waitFor({ state: 'detached' });
    await expectToast(page, 'Decision recorded', 'It is the component’s current decision; earlier ones stay in its history.');

    // The chip and the rationale in the panel; the focus is back on the button that opened the
    // dialog, which now offers a new decision.
    await panel.locator('[data-decision="accepted_with_changes"]').waitFor();
    await panel.getByText(rationale).waitFor();
    expect(await panel.getByText(/rests on 1 comment/).count()).toBe(1);
    const again = panel.getByRole('button', { name: 'Record a new decision' });
    await expect.poll(() => isFocused(again), { message: `focus after the dialog closed is on ${await describeFocus(page)}` }).toBe(true);
    await checkState(page, 'decision-recorded', panel);

    // Escape: back on the card, which shows the chip.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(opener)).toBe(true);
    await expect.poll(() => card(page, TITLE).locator('[data-decision]').getAttribute('data-decision')).toBe('accepted_with_changes');
    await card(page, TITLE).screenshot({ path: path.join(SCREENSHOT_DIR, 'outcomes-phone-decision-card.png'), animations: 'disabled' });
    await checkState(page, 'decision-card');

    // Opened again, the panel's AI summary (closed on a phone) cites the decision when opened.
    await pressOn(page, opener, 'the card’s Comment button', findings);
    await panel.getByRole('heading', { name: TITLE }).waitFor();
    const summaryToggle = panel.getByRole('button', { name: 'AI summary' });
    await tabTo(page, summaryToggle);
    await panel.getByText(/% confidence$/).waitFor();
    await pressOn(page, summaryToggle, 'the AI summary toggle', findings);
    expect(await summaryToggle.getAttribute('aria-expanded')).toBe('true');
    const citation = panel.getByRole('region', { name: 'AI summary' }).getByText(/^Decided .* by Avery Admin:/);
    await citation.waitFor();
    expect(await citation.textContent()).toContain(`Accepted with changes ${rationale}`);
    await checkState(page, 'summary-cites-decision', panel);
    await panel.getByRole('region', { name: 'AI summary' }).screenshot({ path: path.join(SCREENSHOT_DIR, 'outcomes-phone-summary-cites-decision-section.png'), animations: 'disabled' });
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    expectNoFindings(findings);
    expectNoConsoleErrors(opened);
    await opened.context.close();
  });

  it('declines and accepts suggestions, assigns an action, and its owner marks it done from My actions', { timeout: 120_000 }, async () => {
    const findings = noFindings();
    // Comments to generate from, posted by two members through the API (set-up).
    const alice = await openPhone(ALICE, '/suggestions');
    const bob = await openPhone(BOB, '/suggestions');
    await postComment(alice.page, 'event-correlation', 'Correlation windows should be configurable per service tier; a fixed five-minute window merges unrelated incidents.');
    await postComment(bob.page, 'event-correlation', 'We must show why two alerts were correlated, with the shared topology path, or responders will not trust the merged incident.');
    await postComment(alice.page, 'agentic-triage', 'Confidence below 0.7 should route the incident to a human instead of auto-assigning a severity.');
    await postComment(bob.page, 'agentic-triage', 'Triage should show the alternative severities it considered, not only its pick.', 'proposal');
    await postComment(alice.page, 'remediation-plan', 'Keep automatic rollback for database changes but require a dry run first; removing it entirely is too risky.');
    await postComment(bob.page, 'em-console', 'Keyboard shortcuts for approve and reject in the incident inbox, please.');
    await alice.context.close();

    // The admin goes to the page through the phone menu, and generates with the keyboard.
    const admin = await openPhone(AVERY);
    const { page } = admin;
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await tabTo(page, menu);
    await pressOn(page, menu, 'the header’s Menu button', findings);
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Feedback & Recommendations' });
    await tabTo(page, link);
    await pressOn(page, link, 'the Feedback & Recommendations link', findings);
    await page.getByRole('heading', { level: 1, name: 'Feedback and Recommendations' }).waitFor();
    const generate = page.getByRole('button', { name: 'Generate suggestions' });
    await tabTo(page, generate);
    const generated = responseTo(page, 'POST', '/api/suggestions/generate', 200);
    await pressOn(page, generate, 'Generate suggestions', findings);
    const answer = (await (await generated).json()) as GenerateSuggestionsResponse;
    expect(answer.suggestions.length).toBeGreaterThanOrEqual(2);
    await expect.poll(() => page.locator('tr[data-suggestion-id]').count(), { timeout: 10_000 }).toBe(answer.suggestions.length);
    const listed = JSON.parse((await fetchFromPage(page, 'GET', '/api/suggestions/with-votes')).text) as Suggestion[];
    const [declined, accepted] = listed as [Suggestion, Suggestion];
    await checkState(page, 'suggestions');

    // The AI Summary card lists the decision recorded on the main page.
    const summary = page.getByRole('region', { name: 'AI Summary' });
    const decided = summary.getByRole('list', { name: 'Decided so far' });
    await decided.waitFor();
    expect(await decided.getByRole('listitem').filter({ hasText: TITLE }).locator('[data-decision]').getAttribute('data-decision')).toBe('accepted_with_changes');
    await summary.screenshot({ path: path.join(SCREENSHOT_DIR, 'outcomes-phone-decided-so-far.png'), animations: 'disabled' });

    // Decline the first with its reason: the dialog starts on the status select.
    const statusOfDeclined = row(page, declined.id).getByRole('button', { name: 'Status' });
    await tabTo(page, statusOfDeclined);
    await pressOn(page, statusOfDeclined, 'Status (first suggestion)', findings);
    let dialog = page.getByRole('dialog', { name: 'Change the status' });
    await dialog.waitFor();
    const status = dialog.getByLabel('Status');
    await expect.poll(() => isFocused(status)).toBe(true);
    await arrowSelect(page, status, 'the status select', findings, 'declined');
    const reason = dialog.getByLabel('Reason');
    await tabTo(page, reason);
    await typeInto(page, reason, 'the reason', findings, 'Covered by the correlation work already planned.');
    let password = dialog.getByLabel('Admin password');
    await tabTo(page, password);
    await typeInto(page, password, 'the admin password', findings, E2E_SECRETS.ADMIN_PASSWORD);
    await checkState(page, 'status-dialog', dialog);
    let save = dialog.getByRole('button', { name: 'Save status' });
    await tabTo(page, save);
    let saved = responseTo(page, 'POST', `/api/suggestions/${declined.id}/status`, 200);
    await pressOn(page, save, 'Save status', findings);
    await saved;
    await dialog.waitFor({ state: 'detached' });
    await expectToast(page, 'Status changed', 'The team sees the new status.');
    await row(page, declined.id).getByText('Why: Covered by the correlation work already planned.').waitFor();
    expect(await row(page, declined.id).locator('[data-status]').getAttribute('data-status')).toBe('declined');
    await expect.poll(() => isFocused(statusOfDeclined), { message: `focus after the status dialog is on ${await describeFocus(page)}` }).toBe(true);
    await checkState(page, 'declined');

    // Accept the second.
    const statusOfAccepted = row(page, accepted.id).getByRole('button', { name: 'Status' });
    await tabTo(page, statusOfAccepted);
    await pressOn(page, statusOfAccepted, 'Status (second suggestion)', findings);
    dialog = page.getByRole('dialog', { name: 'Change the status' });
    await dialog.waitFor();
    await expect.poll(() => isFocused(status)).toBe(true);
    await arrowSelect(page, status, 'the status select', findings, 'accepted');
    password = dialog.getByLabel('Admin password');
    await tabTo(page, password);
    await typeInto(page, password, 'the admin password', findings, E2E_SECRETS.ADMIN_PASSWORD);
    save = dialog.getByRole('button', { name: 'Save status' });
    await tabTo(page, save);
    saved = responseTo(page, 'POST', `/api/suggestions/${accepted.id}/status`, 200);
    await pressOn(page, save, 'Save status', findings);
    await saved;
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => row(page, accepted.id).locator('[data-status]').getAttribute('data-status')).toBe('accepted');
    await expect.poll(() => isFocused(statusOfAccepted), { message: `focus after the status dialog is on ${await describeFocus(page)}` }).toBe(true);

    // Assign it to Bob, due on a set day: the next Tab is the row's new Assign button.
    const assign = row(page, accepted.id).getByRole('button', { name: 'Assign' });
    await tabTo(page, assign, { max: 1 });
    await pressOn(page, assign, 'Assign', findings);
    dialog = page.getByRole('dialog', { name: 'Owner of the action' });
    await dialog.waitFor();
    const owner = dialog.getByLabel('Owner');
    await expect.poll(() => isFocused(owner)).toBe(true);
    await owner.locator('option', { hasText: BOB.name }).waitFor({ state: 'attached' });
    await arrowSelect(page, owner, 'the owner select', findings, BOB.name);
    const due = dialog.getByLabel('Due (optional)');
    await tabTo(page, due);
    // Month, day and year segments (en-US), each moving on once full.
    await typeInto(page, due, 'the due date', findings, '03152031');
    expect(await due.inputValue()).toBe('2031-03-15');
    password = dialog.getByLabel('Admin password');
    await tabTo(page, password);
    await typeInto(page, password, 'the admin password', findings, E2E_SECRETS.ADMIN_PASSWORD);
    await checkState(page, 'assign-dialog', dialog);
    const saveOwner = dialog.getByRole('button', { name: 'Save owner' });
    await tabTo(page, saveOwner);
    const assigned = responseTo(page, 'POST', `/api/suggestions/${accepted.id}/owner`, 200);
    await pressOn(page, saveOwner, 'Save owner', findings);
    await assigned;
    await dialog.waitFor({ state: 'detached' });
    await expectToast(page, 'Owner assigned', 'The action is on their list.');
    await row(page, accepted.id).getByText(`Owner: ${BOB.name} · due 2031-03-15`).waitFor();
    // The same button, now 'Reassign', has the focus back.
    const reassign = row(page, accepted.id).getByRole('button', { name: 'Reassign' });
    await expect.poll(() => isFocused(reassign), { message: `focus after the owner dialog is on ${await describeFocus(page)}` }).toBe(true);
    await checkState(page, 'assigned');

    // Bob sees it in My actions, live, and marks it done with the keyboard.
    const myActions = bob.page.getByRole('region', { name: /My actions/ });
    await myActions.waitFor();
    await expect.poll(() => myActions.getByRole('heading').textContent()).toContain('(1 open, 0 done)');
    expect(await myActions.getByText(`Owner: ${BOB.name} · due 2031-03-15`).count()).toBe(1);
    await checkState(bob.page, 'my-actions');
    const done = myActions.getByRole('button', { name: 'Mark done' });
    await tabTo(bob.page, done);
    const completed = responseTo(bob.page, 'POST', `/api/suggestions/${accepted.id}/done`, 200);
    await pressOn(bob.page, done, 'Mark done', findings);
    await completed;
    await expectToast(bob.page, 'Action done', 'It is marked done for the team.');
    await expect.poll(() => myActions.getByRole('heading').textContent()).toContain('(0 open, 1 done)');
    await expect.poll(() => row(page, accepted.id).locator('[data-status]').getAttribute('data-status')).toBe('done');
    // The button is gone with the change: the focus stays in My actions, on the action's entry.
    const entry = myActions.locator(`[data-action-id="${accepted.id}"]`);
    await expect.poll(() => isFocused(entry), { message: `focus after Mark done is on ${await describeFocus(bob.page)}` }).toBe(true);
    await checkState(bob.page, 'action-done');

    expectNoFindings(findings);
    expectNoConsoleErrors(admin);
    expectNoConsoleErrors(bob);
    await admin.context.close();
    await bob.context.close();
  });

  it('reaches the progress line and the export links by Tab on the main page, each with a visible focus', async () => {
    const findings = noFindings();
    const opened = await openPhone(BOB);
    const { page, context } = opened;
    const progress = page.locator('[data-review-progress]');
    // One decision, one action done (the tests above), Alice's reopened comment among the open ones.
    await expect.poll(() => progress.textContent()).toMatch(/^1 of \d+ components decided · \d+ open comments · 1 action, 1 done$/);

    // From the top of the page, Tab goes through the header, then the export links in order (the
    // progress line is text, not a control: the first export link, just under it, brings it into view).
    const markdown = page.getByRole('link', { name: 'Markdown' });
    const report = page.getByRole('link', { name: 'Printable report (opens in a new tab)' });
    const links: [string, Locator][] = [
      ['Markdown', markdown],
      ['comments', page.getByRole('link', { name: 'comments', exact: true })],
      ['suggestions', page.getByRole('link', { name: 'suggestions', exact: true })],
      ['actions', page.getByRole('link', { name: 'actions', exact: true })],
      ['Printable report', report],
    ];
    await tabTo(page, markdown);
    const progressBox = await progress.boundingBox();
    if (progressBox === null) throw new Error('the progress line has no box');
    expect(progressBox.y).toBeGreaterThanOrEqual(0);
    expect(progressBox.y + progressBox.height).toBeLessThanOrEqual(PHONE.height);
    for (const [name, link] of links) {
      // Each is the very next Tab stop.
      await tabTo(page, link, { max: 1 });
      await checkFocusedControl(page, link, `the export link '${name}'`, findings);
      if (link === markdown) await checkState(page, 'export-links-focus');
    }

    // Enter on a download link downloads; on the report, it opens in a new tab.
    await tabTo(page, markdown, { backwards: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/^architecture-review-\d{4}-\d{2}-\d{2}\.md$/);
    await tabTo(page, report);
    const [tab] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe('/api/export/review.html');
    await tab.close();

    expectNoFindings(findings);
    expectNoConsoleErrors(opened);
    await context.close();
  });
});
