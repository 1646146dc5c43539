import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECISION_LABELS, type DecisionOutcome } from '../src/common/api/decisions.js';
import { architecture } from '../src/server/content/architecture.js';
import { accessibilityViolations } from './axe.js';
import { postComment, voteOn } from './page-api.js';
import { card, commentPanel, openCardPanel, showDiagram } from './review-page.js';
import { E2E_SECRETS, launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';
import { closeToasts, expectToast, toasts } from './toasts.js';

// Browser-side code is passed to page.evaluate / waitForFunction as strings: this file is
// type-checked for Node, without the DOM library.

const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 390, height: 844 };


const ALICE = { name: 'Alice Archer', pin: '3816' };
const BOB = { name: 'Bob Baker', pin: '5062' };
const CASEY = { name: 'Casey Keys', pin: '3579' };
const DANA = { name: 'Dana Demo', pin: '4680' };
const AVERY = { name: 'Avery Admin', pin: '8024' };

interface OpenedPage {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  /** Paths of the API calls the page made, in order. */
  apiCalls: string[];
}

/**
 * The page opens signed out, so the shell's current-user probe answers 401 by design and Chromium
 * logs it; that line is the only console error a page may show.
 */
function expectNoConsoleErrors(opened: OpenedPage) {
  expect(opened.consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'))).toEqual([]);
}

async function screenshot(page: Page, name: string, options: { fullPage?: boolean; clip?: Locator } = {}) {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // Finished transitions (the panel slides in): the picture shows the settled screen.
  if (options.clip !== undefined) await options.clip.screenshot({ path: file, animations: 'disabled' });
  else await page.screenshot({ path: file, fullPage: options.fullPage ?? false, animations: 'disabled' });
}


/** The comment panel's CSS width (24rem at the default 16 px root size). */
async function panelWidth(page: Page): Promise<string> {
  return page.evaluate<string>(`getComputedStyle(document.querySelector('[role="dialog"]')).width`);
}


/**
 * The comment count a card or diagram box shows. Read straight from the page, so it also works
 * while the modal panel hides the rest of the page from the accessibility tree.
 */
async function countOf(page: Page, componentId: string): Promise<number | null> {
  const value = await page.evaluate<string | null>(
    `document.querySelector('article[aria-labelledby="card-${componentId}"] [data-comment-count], .react-flow__node[data-id="${componentId}"] [data-comment-count]')?.getAttribute('data-comment-count') ?? null`,
  );
  return value === null || value === '' ? null : Number(value);
}

/** The ids of the diagram boxes on screen, in the order React Flow renders them. */
async function visibleBoxIds(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`[...document.querySelectorAll('.react-flow__node')].map((node) => node.getAttribute('data-id') ?? '')`);
}

/** The opacity of a component's Comment button (hidden until hover or focus). */
async function triggerOpacity(page: Page, componentId: string): Promise<string> {
  return page.evaluate<string>(`getComputedStyle(document.querySelector('[data-comment-trigger="${componentId}"]')).opacity`);
}

/** The accessible name (aria-label, else text) of the focused element. */
async function focusedName(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(`(() => { const element = document.activeElement; return element === null ? null : element.getAttribute('aria-label') ?? element.textContent; })()`);
}


/** A comment's article in the open panel, by its text. */
function commentIn(dialog: Locator, text: string): Locator {
  return dialog.getByRole('article').filter({ hasText: text });
}

describe('main review page', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    for (const member of [ALICE, BOB, CASEY, DANA]) await seedMember(server, member.name, { pin: member.pin });
    await seedMember(server, AVERY.name, { pin: AVERY.pin, role: 'admin' });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  /** A phone: small viewport, touch and no hover, as a member would hold it. */
  async function newPhonePage(): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
    const context = await browser.newContext({ viewport: MOBILE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    return { context, page, consoleErrors };
  }

  async function open(member: { name: string; pin: string }, device: 'desktop' | 'phone' = 'desktop'): Promise<OpenedPage> {
    const { context, page, consoleErrors } = device === 'phone' ? await newPhonePage() : await newPage(browser, { viewport: DESKTOP });
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${url.pathname}`);
    });
    await signIn(page, server, { ...member, path: '/' });
    await page.getByRole('heading', { level: 2, name: `Welcome, ${member.name.split(' ')[0] ?? ''}` }).waitFor();
    await showDiagram(page);
    // The arrows follow the boxes once routed (at once on a repeat visit).
    await page.locator('.react-flow__edge').first().waitFor();
    return { context, page, consoleErrors, apiCalls };
  }

  it('shows the header, the three card groups with their counts from one request, and the diagram', async () => {
    const opened = await open(ALICE);
    const { page, context, apiCalls } = opened;

    expect(await page.getByRole('heading', { level: 1, name: 'AI-Driven Operations Management' }).isVisible()).toBe(true);
    expect(await page.getByText('Architecture Review', { exact: true }).isVisible()).toBe(true);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Biggy Capabilities', 'Design Principles', 'Analytics', 'Feedback & Recommendations']) {
      expect(await nav.getByRole('link', { name: label, exact: true }).isVisible()).toBe(true);
    }
    expect(await nav.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(await page.getByText('v0.66', { exact: true }).isVisible()).toBe(true);

    // The page order: platform-wide, workflows, the diagram, user-experience models.
    const sections = await page.locator('main h2').allInnerTexts();
    expect(sections).toEqual([
      'Welcome, Alice',
      ...architecture.groups.slice(0, 2).map((group) => group.title),
      'Incident Management Flow',
      ...architecture.groups.slice(2).map((group) => group.title),
    ]);
    for (const group of architecture.groups) {
      const section = page.getByRole('region', { name: group.title });
      expect(await section.getByRole('article').count()).toBe(group.cards.length);
      for (const entry of group.cards) {
        const article = card(page, entry.title);
        expect(await article.getByText(entry.description).isVisible()).toBe(true);
        expect(await article.getByRole('listitem').count()).toBe(entry.highlights.length);
        expect(await countOf(page, entry.id)).toBe(0);
        expect(await article.getByText('0 comments', { exact: true }).count()).toBe(1);
      }
    }
    expect((await visibleBoxIds(page)).sort()).toEqual(architecture.diagram.components.map((component) => component.id).sort());
    const flagged = architecture.diagram.components.filter((component) => component.connectsToKnowledgeGraph === true).length;
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(architecture.diagram.edges.length + flagged);
    // No React Flow attribution link: the MIT licence allows hiding it.
    expect(await page.locator('.react-flow__attribution').count()).toBe(0);

    // How far the review is, from the same counts.
    const components = new Set([...architecture.groups.flatMap((group) => group.cards.map((entry) => entry.id)), ...architecture.diagram.components.map((component) => component.id)]).size;
    expect(await page.locator('[data-review-progress]').textContent()).toBe(`0 of ${components} components decided · 0 open comments · 0 actions, 0 done`);

    // One counts request for the whole page, and no comment list until a panel opens.
    expect(apiCalls.filter((call) => call === 'GET /api/comments/counts')).toHaveLength(1);
    expect(apiCalls.filter((call) => call.endsWith('/with-votes'))).toEqual([]);

    // The Comment button shows on hover only (and on focus, see the keyboard test).
    const first = card(page, 'Authentication and SSO');
    await page.mouse.move(0, 0);
    await expect.poll(() => triggerOpacity(page, 'authentication-and-sso')).toBe('0');
    await first.hover();
    await expect.poll(() => triggerOpacity(page, 'authentication-and-sso')).toBe('1');
    // It sits on the title's row: no card keeps an empty band for it under its last line (cards of a
    // grid row share its height, so the tallest of each group ends at its own content).
    const spare = await page.evaluate<number[]>(
      `[...document.querySelectorAll('main section')]
        .map((section) => [...section.querySelectorAll(':scope article')].filter((article) => article.querySelector('li') !== null))
        .filter((articles) => articles.length > 0)
        .map((articles) => Math.min(...articles.map((article) => {
          const items = article.querySelectorAll('li');
          return article.getBoundingClientRect().bottom - items.item(items.length - 1).getBoundingClientRect().bottom - Number.parseFloat(getComputedStyle(article).paddingBottom);
        })))`,
    );
    expect(spare).toHaveLength(architecture.groups.length);
    for (const gap of spare) expect(gap).toBeLessThanOrEqual(1);

    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(opened);
    await context.close();
  });

  it('shows a teammate’s comment and vote live: two members, two browsers, no reload', async () => {
    const alice = await open(ALICE);
    const bob = await open(BOB);
    const title = 'Event Management';
    const text = `Correlation windows should be configurable per service tier — ${Date.now()}`;

    // Bob watches the panel; Alice's page shows the card.
    const bobPanel = await openCardPanel(bob.page, title);
    await bobPanel.getByText('No comments yet').waitFor();
    const alicePanel = await openCardPanel(alice.page, title);
    await alicePanel.getByRole('textbox', { name: 'Your comment' }).fill(text);
    const [created] = await Promise.all([
      alice.page.waitForResponse((response) => new URL(response.url()).pathname === '/api/comments' && response.request().method() === 'POST'),
      alicePanel.getByRole('button', { name: 'Post comment' }).click(),
    ]);
    const postedAt = Date.now();
    expect(created.status()).toBe(201);
    await expectToast(alice.page, 'Comment added', 'Your comment has been posted successfully.');

    // Bob sees it arrive in the open panel, and the card's count change behind it.
    await commentIn(bobPanel, text).waitFor({ timeout: 5_000 });
    const arrivedAfter = Date.now() - postedAt;
    await expect.poll(() => countOf(bob.page, 'event-management')).toBe(1);
    console.log(`[live] Alice's comment appeared in Bob's open panel ${arrivedAfter} ms after the POST answered`);
    const bobsView = commentIn(bobPanel, text);
    expect(await bobsView.getByText(ALICE.name).isVisible()).toBe(true);
    expect(await bobsView.getByText('just now').isVisible()).toBe(true);
    // Only the author may delete: Bob has no delete button on Alice's comment, Alice has one.
    expect(await bobsView.getByRole('button', { name: 'Delete comment' }).count()).toBe(0);
    expect(await commentIn(alicePanel, text).getByRole('button', { name: 'Delete comment' }).count()).toBe(1);

    // Bob votes; his vote is highlighted for him, and Alice's panel shows the count without reloading.
    const bobUp = bobsView.getByRole('button', { name: /thumbs up$/ });
    expect(await bobUp.getAttribute('aria-pressed')).toBe('false');
    await bobUp.click();
    await expectToast(bob.page, 'Vote recorded', 'Your vote has been saved.');
    await expect.poll(() => bobUp.getAttribute('aria-pressed')).toBe('true');
    expect(await bobUp.textContent()).toBe('1 thumbs up');
    const aliceUp = commentIn(alicePanel, text).getByRole('button', { name: /thumbs up$/ });
    await expect.poll(() => aliceUp.textContent(), { timeout: 5_000 }).toBe('1 thumbs up');
    expect(await aliceUp.getAttribute('aria-pressed')).toBe('false');

    // The other vote replaces it; the same vote again removes it.
    const bobDown = bobsView.getByRole('button', { name: /thumbs down$/ });
    // The toast sits over the panel's lower edge, where the comment now is.
    await closeToasts(bob.page);
    await bobDown.click();
    await expect.poll(() => bobDown.getAttribute('aria-pressed')).toBe('true');
    expect(await bobUp.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => commentIn(alicePanel, text).getByRole('button', { name: /thumbs down$/ }).textContent()).toBe('1 thumbs down');
    expect(await aliceUp.textContent()).toBe('0 thumbs up');
    await bobDown.click();
    await expect.poll(() => bobDown.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => commentIn(alicePanel, text).getByRole('button', { name: /thumbs down$/ }).textContent()).toBe('0 thumbs down');

    // A second comment from Bob reaches Alice's card count too.
    await bob.page.keyboard.press('Escape');
    await bobPanel.waitFor({ state: 'detached' });
    await postComment(bob.page, 'event-management', 'Agree, and the window should be visible in the EM console.');
    await expect.poll(() => countOf(alice.page, 'event-management'), { timeout: 5_000 }).toBe(2);
    await commentIn(alicePanel, 'Agree, and the window').waitFor();

    expectNoConsoleErrors(alice);
    expectNoConsoleErrors(bob);
    await alice.context.close();
    await bob.context.close();
  });

  it('reveals the diagram one box per click in step order, and a mode switch resets the reveal', async () => {
    const opened = await open(CASEY);
    const { page, context } = opened;
    const section = page.getByRole('region', { name: 'Incident Management Flow' });
    const modes = section.getByRole('group', { name: 'Diagram display' });
    const displayAll = modes.getByRole('button', { name: 'Display All' });
    const stepByStep = modes.getByRole('button', { name: 'Reveal Step-by-Step' });
    const { stepOrder } = architecture.diagram;
    const total = stepOrder.length;

    expect(await displayAll.getAttribute('aria-pressed')).toBe('true');
    expect(await stepByStep.getAttribute('aria-pressed')).toBe('false');
    expect(await visibleBoxIds(page)).toHaveLength(total);

    await stepByStep.click();
    expect(await stepByStep.getAttribute('aria-pressed')).toBe('true');
    expect(await displayAll.getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => visibleBoxIds(page)).toEqual([]);
    expect(await page.locator('.react-flow__edge').count()).toBe(0);
    expect(await section.getByText(`0 / ${total}`).isVisible()).toBe(true);

    const next = section.getByRole('button', { name: 'Reveal next step' });
    for (let step = 1; step <= total; step++) {
      await next.click();
      const expected = stepOrder.slice(0, step);
      await expect.poll(async () => (await visibleBoxIds(page)).sort()).toEqual([...expected].sort());
      expect(await section.getByText(`${step} / ${total}`).isVisible()).toBe(true);
      const latest = architecture.diagram.components.find((component) => component.id === stepOrder[step - 1]);
      expect(await section.getByRole('status').filter({ hasText: latest?.title ?? '?' }).count()).toBe(1);
      // An arrow shows only once both of its boxes are on screen.
      const shown = new Set(expected);
      const arrows = architecture.diagram.edges.filter((edge) => shown.has(edge.from) && shown.has(edge.to)).length;
      // Edges are drawn a frame after their boxes (once React Flow has measured them).
      await expect.poll(() => page.locator('.react-flow__edge[data-id^="flow:"]').count()).toBe(arrows);
      const links = await page.evaluate<string[]>(`[...document.querySelectorAll('.react-flow__edge[data-id^="knowledge:"]')].map((edge) => edge.getAttribute('data-id') ?? '')`);
      const graphShown = architecture.diagram.components.some((component) => shown.has(component.id) && component.phase === 'IT Knowledge Graph');
      if (!graphShown) expect(links).toEqual([]);
      for (const link of links) expect(shown.has(link.slice('knowledge:'.length))).toBe(true);
      if (step === 9) await screenshot(page, 'review-diagram-step-mode', { clip: section });
    }
    expect(await next.getAttribute('aria-disabled')).toBe('true');
    await next.click({ force: true });
    expect(await visibleBoxIds(page)).toHaveLength(total);

    const flagged = architecture.diagram.components.filter((component) => component.connectsToKnowledgeGraph === true).length;
    await expect.poll(() => page.locator('.react-flow__edge[data-id^="knowledge:"]').count()).toBe(flagged);

    await displayAll.click();
    await expect.poll(async () => (await visibleBoxIds(page)).length).toBe(total);
    expect(await section.getByRole('button', { name: 'Reveal next step' }).count()).toBe(0);

    await stepByStep.click();
    await expect.poll(() => visibleBoxIds(page)).toEqual([]);
    expect(await section.getByText(`0 / ${total}`).isVisible()).toBe(true);
    await next.click();
    await expect.poll(() => visibleBoxIds(page)).toEqual(stepOrder.slice(0, 1));

    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(opened);
    await context.close();
  });

  it('comments with the keyboard alone: Tab to a card, Enter opens the panel, post, Escape returns focus', async () => {
    const opened = await open(CASEY);
    const { page, context } = opened;
    const title = 'Authentication and SSO';
    const buttonName = `Comment on ${title}`;

    await page.mouse.move(0, 0);
    let reached = false;
    for (let presses = 0; presses < 60 && !reached; presses++) {
      await page.keyboard.press('Tab');
      reached = (await focusedName(page)) === buttonName;
    }
    expect(reached).toBe(true);
    // Focus reveals the button that hover would.
    await expect.poll(() => triggerOpacity(page, 'authentication-and-sso')).toBe('1');

    await page.keyboard.press('Enter');
    const dialog = commentPanel(page);
    await dialog.getByRole('heading', { name: title }).waitFor();
    expect(await panelWidth(page)).toBe('384px');
    const textbox = dialog.getByRole('textbox', { name: 'Your comment' });
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.tagName')).toBe('TEXTAREA');

    // The submit button stays disabled until there is text other than spaces.
    const submit = dialog.getByRole('button', { name: 'Post comment' });
    await page.keyboard.type('   ');
    expect(await submit.isDisabled()).toBe(true);
    const text = 'SCIM de-provisioning must revoke agent service tokens in the same minute.';
    await page.keyboard.type(text);
    expect(await submit.isDisabled()).toBe(false);
    expect(await dialog.getByText(`${text.length + 3} / 5,000`).isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Post comment');
    await page.keyboard.press('Enter');

    await expectToast(page, 'Comment added', 'Your comment has been posted successfully.');
    const posted = commentIn(dialog, text);
    await posted.waitFor();
    // Trimmed on the way in.
    expect(await posted.getByText(text, { exact: true }).count()).toBe(1);
    expect(await textbox.inputValue()).toBe('');
    // Focus comes back to the text field (the submit button was disabled while posting).
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.tagName')).toBe('TEXTAREA');
    await expect.poll(() => countOf(page, 'authentication-and-sso')).toBe(1);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => focusedName(page)).toBe(buttonName);

    // The diagram boxes work the same way: the box's Comment button takes focus, Enter opens its panel.
    const box = architecture.diagram.components[0];
    const boxButton = page.locator(`.react-flow__node[data-id="${box?.id ?? ''}"]`).getByRole('button', { name: `Comment on ${box?.title ?? ''}` });
    await boxButton.focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('heading', { name: box?.title ?? '' }).waitFor();
    expect(await dialog.getByText(box?.phase ?? '', { exact: true }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate<string | null>(`document.activeElement?.closest('.react-flow__node')?.getAttribute('data-id') ?? null`)).toBe(box?.id ?? '');
    expect(await focusedName(page)).toBe(`Comment on ${box?.title ?? ''}`);

    expectNoConsoleErrors(opened);
    await context.close();
  });

  it('deletes the member’s own comment after a confirmation; a teammate never gets a delete button for it', async () => {
    const dana = await open(DANA);
    const bob = await open(BOB);
    const title = 'AI Chat Interface';
    const text = `Chat answers must link the runbook version they quote — ${Date.now()}`;
    await postComment(dana.page, 'ai-chat-interface', text);
    await expect.poll(() => countOf(bob.page, 'ai-chat-interface'), { timeout: 5_000 }).toBe(1);

    const bobPanel = await openCardPanel(bob.page, title);
    await commentIn(bobPanel, text).waitFor();
    expect(await commentIn(bobPanel, text).getByRole('button', { name: 'Delete comment' }).count()).toBe(0);

    const danaPanel = await openCardPanel(dana.page, title);
    await commentIn(danaPanel, text).getByRole('button', { name: 'Delete comment' }).click();
    const confirm = dana.page.getByRole('alertdialog', { name: 'Delete this comment?' });
    await confirm.waitFor();
    // Cancel keeps it.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await commentIn(danaPanel, text).count()).toBe(1);

    await commentIn(danaPanel, text).getByRole('button', { name: 'Delete comment' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(dana.page, 'Comment deleted', 'Your comment has been removed.');
    await expect.poll(() => commentIn(danaPanel, text).count()).toBe(0);
    await danaPanel.getByText('No comments yet').waitFor();
    // Gone for the teammate too, live, with the count.
    await expect.poll(() => commentIn(bobPanel, text).count(), { timeout: 5_000 }).toBe(0);
    await expect.poll(() => countOf(bob.page, 'ai-chat-interface')).toBe(0);

    // The server refuses a delete by someone else, and the client says so with the product's toast.
    const bobs = await postComment(bob.page, 'ai-chat-interface', 'Bob keeps this one.');
    await bob.page.keyboard.press('Escape');
    await closeToasts(dana.page);
    const refused = await dana.page.evaluate<number>(`fetch('/api/comments/${bobs.id}', { method: 'DELETE', credentials: 'include', headers: { 'Content-Type': 'application/json' } }).then((response) => response.status)`);
    expect(refused).toBe(403);

    expectNoConsoleErrors(bob);
    await dana.context.close();
    await bob.context.close();
  });

  it('resolves a comment with a note: it folds for everyone live, unfolds in one click, and a teammate reopens it', async () => {
    const dana = await open(DANA);
    const bob = await open(BOB);
    const title = 'AI Operations Collaboration';
    const id = 'ai-operations-collaboration';
    const text = `War rooms should pin the last deploy of every affected service — ${Date.now()}`;
    const posted = await postComment(dana.page, id, text);
    await voteOn(bob.page, posted.id, 'thumbs_up');
    await expect.poll(() => countOf(bob.page, id), { timeout: 5_000 }).toBe(1);

    // Only the author (or an admin) is offered Resolve.
    const bobPanel = await openCardPanel(bob.page, title);
    await commentIn(bobPanel, text).waitFor();
    expect(await commentIn(bobPanel, text).getByRole('button', { name: 'Resolve' }).count()).toBe(0);

    // Dana resolves with the keyboard: the dialog takes a note, Enter on the button sends it.
    const danaPanel = await openCardPanel(dana.page, title);
    await commentIn(danaPanel, text).getByRole('button', { name: 'Resolve' }).focus();
    await dana.page.keyboard.press('Enter');
    const dialog = dana.page.getByRole('dialog', { name: 'Resolve this comment?' });
    await dialog.getByRole('textbox', { name: /Note/ }).fill('Pinned by the war-room template since v2');
    await dialog.getByRole('button', { name: 'Resolve', exact: true }).focus();
    await Promise.all([
      dana.page.waitForResponse((response) => new URL(response.url()).pathname === `/api/comments/${posted.id}/resolve` && response.status() === 200),
      dana.page.keyboard.press('Enter'),
    ]);
    await expectToast(dana.page, 'Comment resolved', 'It is folded in the list, with its votes.');
    const danaFold = danaPanel.getByText(/Resolved by Dana Demo/);
    await danaFold.waitFor();
    expect(await danaFold.textContent()).toContain('“Pinned by the war-room template since v2”');
    // Focus stays with the comment: on its Show button, the dialog's opener being gone.
    await expect.poll(() => focusedName(dana.page)).toBe('Show');

    // Bob's open panel folds it too, live, and the card counts it apart.
    await bobPanel.getByText(/Resolved by Dana Demo/).waitFor({ timeout: 5_000 });
    expect(await commentIn(bobPanel, text).isVisible()).toBe(false);
    await expect.poll(() => countOf(bob.page, id)).toBe(0);
    expect(await bob.page.evaluate<string | null>(`document.querySelector('article[aria-labelledby="card-${id}"] [data-resolved-count]')?.getAttribute('data-resolved-count') ?? null`)).toBe('1');
    await bobPanel.getByRole('heading', { name: 'Comments' }).filter({ hasText: '0 open · 1 resolved' }).waitFor();
    await screenshot(bob.page, 'review-resolved-comment-desktop');
    expect(await accessibilityViolations(bob.page)).toEqual([]);

    // One click unfolds it, votes and all; then Bob reopens it and it is open for both.
    await bobPanel.getByRole('button', { name: 'Show' }).click();
    await commentIn(bobPanel, text).waitFor();
    expect(await commentIn(bobPanel, text).getByRole('button', { name: /thumbs up$/ }).textContent()).toBe('1 thumbs up');
    await commentIn(bobPanel, text).getByRole('button', { name: 'Reopen' }).click();
    await expectToast(bob.page, 'Comment reopened', 'It counts as open again.');
    await expect.poll(() => danaPanel.getByText(/Resolved by/).count(), { timeout: 5_000 }).toBe(0);
    await commentIn(danaPanel, text).getByRole('button', { name: 'Resolve' }).waitFor();
    await expect.poll(() => countOf(dana.page, id)).toBe(1);

    expectNoConsoleErrors(dana);
    expectNoConsoleErrors(bob);
    await dana.context.close();
    await bob.context.close();
  });

  it('records a decision on a component, then a new one that supersedes it; members see both, live', async () => {
    const avery = await open(AVERY);
    const casey = await open(CASEY);
    const title = 'AI Incident Prevention';
    const id = 'ai-incident-prevention';
    const basis = await postComment(casey.page, id, `Prevention tickets need an owner before they are filed — ${Date.now()}`);
    const caseyPanel = await openCardPanel(casey.page, title);
    await caseyPanel.getByText('No decision yet.').waitFor();
    expect(await caseyPanel.getByRole('button', { name: /Record a/ }).count()).toBe(0);

    const averyPanel = await openCardPanel(avery.page, title);
    const decide = async (outcome: string, rationale: string, withBasis: boolean) => {
      await averyPanel.getByRole('button', { name: /Record a (new )?decision/ }).click();
      const dialog = avery.page.getByRole('dialog', { name: `Decision on ${title}` });
      await dialog.getByRole('radio', { name: outcome }).check();
      await dialog.getByRole('textbox', { name: 'Rationale' }).fill(rationale);
      if (withBasis) await dialog.getByRole('checkbox', { name: /Prevention tickets need an owner/ }).check();
      await dialog.getByLabel('Admin password').fill(E2E_SECRETS.ADMIN_PASSWORD);
      await Promise.all([
        avery.page.waitForResponse((response) => new URL(response.url()).pathname === `/api/decisions/${id}` && response.request().method() === 'POST' && response.status() === 201),
        dialog.getByRole('button', { name: 'Record decision' }).click(),
      ]);
      await dialog.waitFor({ state: 'detached' });
      await closeToasts(avery.page);
    };
    await decide('Accepted with changes', 'Accepted once every prevention ticket has an owner.', true);
    await averyPanel.getByText('Accepted once every prevention ticket has an owner.').waitFor();
    expect(await averyPanel.getByText(/rests on 1 comment/).count()).toBe(1);

    // Casey's open panel and card show it without a reload.
    await caseyPanel.getByText('Accepted once every prevention ticket has an owner.').waitFor({ timeout: 5_000 });
    await caseyPanel.getByText(new RegExp(basis.content.slice(0, 40))).first().waitFor();

    await decide('Needs rework', 'The owner field is missing from the ticket template.', false);
    await caseyPanel.getByText('The owner field is missing from the ticket template.').waitFor({ timeout: 5_000 });
    const history = caseyPanel.getByText('Earlier decisions (1)');
    await history.click();
    await caseyPanel.getByText('Accepted once every prevention ticket has an owner.').waitFor();
    await casey.page.keyboard.press('Escape');
    await caseyPanel.waitFor({ state: 'detached' });
    expect(await card(casey.page, title).locator('[data-decision]').getAttribute('data-decision')).toBe('needs_rework');
    await screenshot(avery.page, 'review-decision-desktop');
    expect(await accessibilityViolations(avery.page)).toEqual([]);

    expectNoConsoleErrors(avery);
    expectNoConsoleErrors(casey);
    await avery.context.close();
    await casey.context.close();
  });

  it('downloads the review as Markdown and as CSV from the main page', async () => {
    const dana = await open(DANA);
    const text = `Export check: every war room records its decisions — ${Date.now()}`;
    await postComment(dana.page, 'ai-operations-collaboration', text);
    const [markdown] = await Promise.all([dana.page.waitForEvent('download'), dana.page.getByRole('link', { name: 'Markdown' }).click()]);
    expect(markdown.suggestedFilename()).toMatch(/^architecture-review-\d{4}-\d{2}-\d{2}\.md$/);
    const document = await readFile(await markdown.path(), 'utf8');
    // Every component is named, with its decision (or none yet), and the comment is there.
    for (const group of architecture.groups) for (const entry of group.cards) expect(document).toContain(`## ${entry.title}`);
    expect(document).toContain(text);
    const [csv] = await Promise.all([dana.page.waitForEvent('download'), dana.page.getByRole('link', { name: 'comments', exact: true }).click()]);
    const rows = (await readFile(await csv.path(), 'utf8')).split('\r\n').filter((line) => /^\d+,/.test(line));
    const counts = await dana.page.evaluate<number>(
      `fetch('/api/comments/counts', { credentials: 'include' }).then((response) => response.json()).then((body) => Object.values(body.components).reduce((sum, count) => sum + count.open + count.resolved, 0))`,
    );
    // One row per comment of the review.
    expect(rows.length).toBe(counts);
    // Every decided component (earlier tests record decisions) has its decision under its heading.
    const decided = await dana.page.evaluate<[string, DecisionOutcome][]>(
      `fetch('/api/comments/counts', { credentials: 'include' }).then((response) => response.json()).then((body) => Object.entries(body.components).filter(([, count]) => count.decision !== null).map(([id, count]) => [id, count.decision]))`,
    );
    expect(decided.length).toBeGreaterThan(0);
    const titleOf = new Map(architecture.groups.flatMap((group) => group.cards.map((entry) => [entry.id, entry.title] as const)));
    for (const [componentId, outcome] of decided) {
      const section = document.split(`## ${titleOf.get(componentId) ?? componentId}\n`)[1]?.split('\n## ')[0] ?? '';
      expect(section, componentId).toContain(`**Decision:** ${DECISION_LABELS[outcome]}`);
    }
    expectNoConsoleErrors(dana);
    await dana.context.close();
  });

  it('is accessible with the panel open, and looks right on desktop and on a phone (screenshots)', async () => {
    const alice = await open(ALICE);
    const bob = await open(BOB);
    // A lived-in review: comments, a proposal, votes.
    const first = await postComment(bob.page, 'agentic-triage', 'Confidence below 0.7 should always wait for a human, whatever the severity.');
    await postComment(alice.page, 'agentic-triage', 'Show the alternative assignment groups the agent considered, not only its pick.', 'proposal');
    const third = await postComment(bob.page, 'agentic-triage', 'The approval gate needs a timeout with an escalation path, or Sev2s will sit unapproved at night.');
    await voteOn(alice.page, first.id, 'thumbs_up');
    await voteOn(alice.page, third.id, 'thumbs_down');
    await postComment(bob.page, 'root-cause-analysis', 'Hypotheses need the exact queries attached so on-call can re-run them.');
    await postComment(alice.page, 'em-console', 'Keyboard shortcuts for approve and reject in the inbox, please.');
    await expect.poll(() => countOf(alice.page, 'em-console'), { timeout: 5_000 }).toBe(1);

    await alice.page.mouse.move(0, 0);
    await screenshot(alice.page, 'review-main-desktop', { fullPage: true });
    await screenshot(alice.page, 'review-diagram-desktop', { clip: alice.page.getByRole('region', { name: 'Incident Management Flow' }) });
    await card(alice.page, 'EM Console').hover();
    await screenshot(alice.page, 'review-card-hover', { clip: alice.page.getByRole('region', { name: 'User Experience Models' }) });

    const box = alice.page.locator('.react-flow__node[data-id="agentic-triage"]');
    await expect.poll(() => countOf(alice.page, 'agentic-triage'), { timeout: 5_000 }).toBe(3);
    await box.click({ position: { x: 20, y: 20 } });
    const dialog = commentPanel(alice.page);
    await dialog.getByRole('heading', { name: 'Agentic Triage' }).waitFor();
    await commentIn(dialog, 'Confidence below 0.7').waitFor();
    // Newest first, the proposal marked, Alice's own votes highlighted, delete only on her own comment.
    const contents = await alice.page.evaluate<string[]>(`[...document.querySelectorAll('[role="dialog"] article')].map((article) => article.querySelector('header + p')?.textContent ?? '')`);
    expect(contents.map((content) => content.slice(0, 20))).toEqual(['The approval gate ne', 'Show the alternative', 'Confidence below 0.7']);
    expect(await commentIn(dialog, 'Show the alternative').getByText('Change proposal', { exact: true }).isVisible()).toBe(true);
    expect(await commentIn(dialog, 'Confidence below 0.7').getByRole('button', { name: '1 thumbs up' }).getAttribute('aria-pressed')).toBe('true');
    expect(await commentIn(dialog, 'The approval gate').getByRole('button', { name: '1 thumbs down' }).getAttribute('aria-pressed')).toBe('true');
    expect(await dialog.getByRole('button', { name: 'Delete comment' }).count()).toBe(1);
    await screenshot(alice.page, 'review-panel-open');
    expect(await accessibilityViolations(alice.page)).toEqual([]);

    // Closing and reopening shows fresh data: a comment posted while it was closed is there at once.
    await alice.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await postComment(bob.page, 'agentic-triage', 'Posted while the panel was closed.');
    await box.click({ position: { x: 20, y: 20 } });
    await commentIn(dialog, 'Posted while the panel was closed.').waitFor({ timeout: 5_000 });
    await alice.page.keyboard.press('Escape');

    // A phone: no sideways scrolling of the page; the diagram scrolls inside its own region.
    const phone = await open(ALICE, 'phone');
    expect(await phone.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
    const scroller = phone.page.getByRole('region', { name: 'Incident flow diagram, scrolls sideways' });
    expect(await scroller.isVisible()).toBe(true);
    expect(await phone.page.evaluate<boolean>(`(() => { const element = document.querySelector('[aria-label="Incident flow diagram, scrolls sideways"]'); return element.scrollWidth > element.clientWidth; })()`)).toBe(true);
    // Touch screens cannot hover: the cards' Comment buttons are always shown there.
    expect(await triggerOpacity(phone.page, 'em-console')).toBe('1');
    await screenshot(phone.page, 'review-main-mobile');
    await screenshot(phone.page, 'review-main-mobile-full', { fullPage: true });
    await screenshot(phone.page, 'review-diagram-mobile', { clip: phone.page.getByRole('region', { name: 'Incident Management Flow' }) });
    expect(await accessibilityViolations(phone.page)).toEqual([]);
    await card(phone.page, 'EM Console').getByRole('button', { name: 'Comment on EM Console' }).tap();
    const phoneDialog = commentPanel(phone.page);
    await commentIn(phoneDialog, 'Keyboard shortcuts').waitFor();
    expect(await panelWidth(phone.page)).toBe('384px');
    // No on-screen keyboard thrown up on opening: focus goes to the panel, not the text field.
    expect(await phone.page.evaluate<string | undefined>('document.activeElement?.getAttribute("role")')).toBe('dialog');
    await screenshot(phone.page, 'review-panel-mobile');
    expect(await accessibilityViolations(phone.page)).toEqual([]);

    expectNoConsoleErrors(alice);
    expectNoConsoleErrors(phone);
    await alice.context.close();
    await bob.context.close();
    await phone.context.close();
  });

  it('catches up after the live stream drops: what was missed meanwhile is refetched on reconnection', async () => {
    const alice = await open(ALICE);
    const { context, page, consoleErrors } = await newPage(browser, { viewport: DESKTOP });
    // Bob's first stream opens and ends at once (a proxy or server restart cutting it); the browser
    // reconnects, and that second attempt is held until Alice has posted.
    let attempts = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/events', async (route) => {
      attempts += 1;
      if (attempts === 1) {
        await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }, body: 'retry: 200\n: connected\n\n' });
        return;
      }
      if (attempts === 2) await held;
      await route.continue();
    });
    await signIn(page, server, { ...BOB, path: '/' });
    await showDiagram(page);
    await expect.poll(() => attempts, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    const before = (await countOf(page, 'unified-analytics')) ?? 0;

    await postComment(alice.page, 'unified-analytics', 'MTTR should be split into time-to-mitigate and time-to-resolve.');
    await page.waitForTimeout(300);
    // Missed while the stream was down.
    expect(await countOf(page, 'unified-analytics')).toBe(before);
    release();
    await expect.poll(() => countOf(page, 'unified-analytics'), { timeout: 5_000 }).toBe(before + 1);

    // And the reconnected stream is live again.
    await postComment(alice.page, 'unified-analytics', 'And report both per severity.');
    await expect.poll(() => countOf(page, 'unified-analytics'), { timeout: 5_000 }).toBe(before + 2);
    expect(consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'))).toEqual([]);
    await context.close();
    await alice.context.close();
  });

  it('shows the product’s failure toasts with the server’s message', async () => {
    const opened = await open(CASEY);
    const { page, context } = opened;
    const dialog = await openCardPanel(page, 'AI Incident Prevention');
    await page.route('**/api/comments', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Comment cannot be longer than 5000 characters', code: 'VALIDATION_FAILED' }) })
        : route.continue(),
    );
    const textbox = dialog.getByRole('textbox', { name: 'Your comment' });
    await textbox.fill('A comment the server refuses.');
    await dialog.getByRole('button', { name: 'Post comment' }).click();
    await expectToast(page, 'Failed to add comment', 'Comment cannot be longer than 5000 characters');
    expect(await toasts(page).first().getAttribute('class')).toContain('destructive');
    // Nothing typed is lost.
    expect(await textbox.inputValue()).toBe('A comment the server refuses.');
    await page.unroute('**/api/comments');

    // A change proposal this time, for real.
    await dialog.getByText('Change proposal', { exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Your change proposal' }).fill('Show the change-risk score on the change calendar too.');
    await dialog.getByRole('button', { name: 'Post proposal' }).click();
    await expectToast(page, 'Comment added', 'Your comment has been posted successfully.');
    const proposal = commentIn(dialog, 'change-risk score on the change calendar');
    expect(await proposal.getByText('Change proposal', { exact: true }).isVisible()).toBe(true);

    await page.route('**/api/comments/*/vote', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ message: 'Comment not found', code: 'COMMENT_NOT_FOUND' }) }),
    );
    await proposal.getByRole('button', { name: /thumbs up$/ }).click();
    await expectToast(page, 'Failed to vote', 'Comment not found');
    await page.unroute('**/api/comments/*/vote');

    await page.route('**/api/comments/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: 'Only the author can delete this comment', code: 'NOT_AUTHOR' }) })
        : route.continue(),
    );
    await proposal.getByRole('button', { name: 'Delete comment' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Failed to delete comment', 'Only the author can delete this comment');
    expect(await proposal.count()).toBe(1);
    // The browser logs the refused calls; nothing else may be logged.
    expect(opened.consoleErrors.filter((line) => !/status of (401|400|403|404)/.test(line))).toEqual([]);
    await context.close();
  });

  it('shows an error with a retry when the architecture cannot be loaded', async () => {
    const opened = await open(CASEY);
    const { page, context } = opened;
    let refused = 0;
    await page.route('**/api/architecture', async (route) => {
      if (refused === 0) {
        refused += 1;
        await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The service is restarting', code: 'UNAVAILABLE' }) });
        return;
      }
      await route.continue();
    });
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'The architecture could not be loaded' });
    await alert.waitFor();
    expect(await alert.getByText('The service is restarting').isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await card(page, 'Authentication and SSO').waitFor();
    await showDiagram(page);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(opened.consoleErrors.filter((line) => !/status of (401|503)/.test(line))).toEqual([]);
    await context.close();
  });

  it('becomes interactive quickly on the production build (measured, reported)', async () => {
    const signedIn = await open(DANA);
    const state = await signedIn.context.storageState();
    await signedIn.context.close();

    // Checked on every animation frame from the first one, by a script the page's CSP does not
    // apply to (an init script), so the figure is the page's own clock, not the test's polling.
    // The diagram is drawn as it nears the window: once the first card can be clicked, the probe
    // goes to the diagram, as a reader following the link at the top would.
    const probe = `(() => {
      // A reload would otherwise come back scrolled to the diagram, the first card off screen.
      history.scrollRestoration = 'manual';
      let cardReady = false;
      const check = () => {
        if (!cardReady) {
          const card = document.querySelector('main article h3');
          const button = document.querySelector('main article [data-comment-trigger]');
          if (card !== null && button !== null && !button.disabled) {
            const box = button.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            if (hit !== null && button.contains(hit)) {
              cardReady = true;
              document.getElementById('incident-flow')?.scrollIntoView();
            }
          }
        } else if (document.querySelectorAll('.react-flow__node [data-comment-trigger]').length >= ${architecture.diagram.components.length}) {
          window.__reviewInteractiveAt = performance.now();
          return;
        }
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })()`;
    const measure = async (page: Page) => {
      const read = () => page.evaluate<number | null>('window.__reviewInteractiveAt ?? null');
      await expect.poll(read, { timeout: 15_000, interval: 50 }).not.toBeNull();
      const interactive = (await read()) ?? Number.NaN;
      const domContentLoaded = await page.evaluate<number>(`performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`);
      return { interactive, domContentLoaded };
    };
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    const report = (label: string, runs: { interactive: number; domContentLoaded: number }[]) => {
      console.log(
        `[tti] ${label}, ${runs.length} runs: the first card's Comment button hit-testable, then (scrolled to) all ${architecture.diagram.components.length} diagram boxes ` +
          `with their Comment buttons after median ${median(runs.map((run) => run.interactive)).toFixed(0)} ms ` +
          `(runs ${runs.map((run) => run.interactive.toFixed(0)).join(', ')} ms; DOMContentLoaded median ${median(runs.map((run) => run.domContentLoaded)).toFixed(0)} ms); target < 1500 ms`,
      );
      return median(runs.map((run) => run.interactive));
    };

    // Cold: a fresh context each time (empty HTTP cache and storage), session cookie only.
    const cold: { interactive: number; domContentLoaded: number }[] = [];
    for (let run = 0; run < 3; run++) {
      const context = await browser.newContext({ viewport: DESKTOP, storageState: state });
      const page = await context.newPage();
      await page.addInitScript(probe);
      await page.goto(`${server.baseUrl}/`);
      cold.push(await measure(page));
      await context.close();
    }
    // Warm: the same tab reloaded (HTTP cache and the stored diagram layout in place).
    const warm: { interactive: number; domContentLoaded: number }[] = [];
    const context = await browser.newContext({ viewport: DESKTOP, storageState: state });
    const page = await context.newPage();
    await page.addInitScript(probe);
    await page.goto(`${server.baseUrl}/`);
    await measure(page);
    for (let run = 0; run < 3; run++) {
      await page.reload();
      warm.push(await measure(page));
    }
    await context.close();

    // Reported, not asserted tightly: a shared machine varies; only a gross regression fails.
    expect(report('cold cache', cold)).toBeLessThan(10_000);
    expect(report('warm cache', warm)).toBeLessThan(10_000);
  });
});
