import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { E2E_SECRETS, launchBrowser, newPage, seedMember, signIn, startServer, type RunningServer } from './harness.js';

// What the admin panel's browser tests share: its tabs, how a page is opened and watched, and how
// the admin actions are unlocked with the admin password. Browser-side code is passed to
// page.evaluate as strings: this file is type-checked for Node, without the DOM library.

/** Outside the repository: the screenshots are for looking at, not for keeping. */
export const SHOTS = path.join(tmpdir(), 'admin-shots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export const ADMIN = { name: 'Avery Admin', pin: '8024' };

export const TAB_LABELS = ['Team Management', 'PIN Resets', 'QA Testing', 'Error Logs', 'AI Prompts', 'System', 'Audit Trail'] as const;
export type TabLabel = (typeof TAB_LABELS)[number];
export const TAB_IDS: Record<TabLabel, string> = {
  'Team Management': 'team',
  'PIN Resets': 'pin-resets',
  'QA Testing': 'qa-testing',
  'Error Logs': 'error-logs',
  'AI Prompts': 'ai-prompts',
  System: 'system',
  'Audit Trail': 'audit-trail',
};
/** The first section heading of each tab: proof that the tab's own content is the one shown. */
export const TAB_HEADINGS: Record<TabLabel, string> = {
  'Team Management': 'Add Team Member',
  'PIN Resets': 'PIN Reset Requests',
  'QA Testing': 'QA Test Suite',
  'Error Logs': 'Unresolved Errors',
  'AI Prompts': 'Current Active Prompt',
  System: 'System',
  'Audit Trail': 'Audit Trail',
};

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  /** Messages of any alert/confirm/prompt the page opened: an executed injection would show here. */
  dialogs: string[];
  /** The page's API calls as 'METHOD /path', in order. */
  apiCalls: string[];
}

/** Opens pages (phones below 640 px) that record dialogs and API calls, and keeps them for closing. */
function pageOpener(browser: () => Browser, opened: OpenedPage[]) {
  return async function openPage(viewport: { width: number; height: number } = DESKTOP): Promise<OpenedPage> {
    const entry: OpenedPage = { ...(await newPage(browser(), { viewport, mobile: viewport.width < 640 })), dialogs: [], apiCalls: [] };
    const { page, dialogs, apiCalls } = entry;
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${url.pathname}`);
    });
    opened.push(entry);
    return entry;
  };
}

export interface AdminPanelFixture {
  /** The server of the describe block (set in its beforeAll). */
  readonly server: RunningServer;
  readonly openPage: (viewport?: { width: number; height: number }) => Promise<OpenedPage>;
  /** The admin signed in on /admin?tab=…, with the tab's first heading shown. */
  readonly openAdmin: (label: TabLabel, viewport?: { width: number; height: number }) => Promise<OpenedPage>;
}

/** One server and browser for the describe block it is called in, with these members seeded; every page it opened is closed after. */
export function useAdminPanel(members: readonly { name: string; pin?: string }[]): AdminPanelFixture {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const opened: OpenedPage[] = [];
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    for (const member of members) await seedMember(server, member.name, member.pin === undefined ? {} : { pin: member.pin });
  });
  afterAll(async () => {
    await Promise.all(opened.map((entry) => entry.context.close()));
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the admin panel fixture is used before its beforeAll ran');
    return value;
  };
  const openPage = pageOpener(() => started(browser), opened);
  return {
    get server() {
      return started(server);
    },
    openPage,
    openAdmin: async (label, viewport = DESKTOP) => openAdminTab(await openPage(viewport), started(server), label),
  };
}

/** The admin signed in on /admin?tab=…, with the tab's first heading shown. */
async function openAdminTab(entry: OpenedPage, server: RunningServer, label: TabLabel): Promise<OpenedPage> {
  await signIn(entry.page, server, { ...ADMIN, path: `/admin?tab=${TAB_IDS[label]}` });
  await panel(entry.page, label).getByRole('heading', { level: 2, name: TAB_HEADINGS[label], exact: true }).waitFor();
  return entry;
}

export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: options.fullPage ?? true, animations: 'disabled' });
}

/** Chromium logs every refused fetch; the signed-out probe answers 401 by design, the listed statuses are ones the test provokes. */
export function expectNoConsoleErrors(opened: OpenedPage, provoked: number[] = []) {
  const allowed = [401, ...provoked];
  expect(opened.consoleErrors.filter((line) => !allowed.some((status) => line.includes(`status of ${status}`)))).toEqual([]);
}

/** Scrolls the page so that the element is at the top of the viewport (for a screenshot of what follows it). */
export async function scrollToTop(page: Page, element: Locator) {
  const box = await element.boundingBox();
  if (box === null) throw new Error('nothing to scroll to');
  await page.evaluate(`window.scrollBy(0, ${Math.round(box.y) - 8})`);
}

export async function hasHorizontalPageScroll(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
}

export function tab(page: Page, label: TabLabel): Locator {
  return page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { name: label, exact: true });
}

export function panel(page: Page, label: TabLabel): Locator {
  return page.getByRole('tabpanel', { name: label });
}

export async function selectedTab(page: Page): Promise<string> {
  return page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab', { selected: true }).innerText();
}

/** The panel's one control for the admin password, above every tab. */
export function adminActionsBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Admin actions' });
}

export function unlockDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Unlock admin actions' });
}

/** Answers the unlock dialog (opened by the control or by an action) and waits for it to close. */
export async function enterAdminPassword(page: Page, password: string = E2E_SECRETS.ADMIN_PASSWORD) {
  const dialog = unlockDialog(page);
  await dialog.getByLabel('Admin password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Waits until `element` has the keyboard focus. */
export async function focused(page: Page, element: Locator) {
  await element.and(page.locator(':focus')).waitFor();
}

/** Unlocks the admin actions with the panel's control, on whatever tab is shown. */
export async function unlockAdminActions(page: Page, password: string = E2E_SECRETS.ADMIN_PASSWORD) {
  await adminActionsBar(page).getByRole('button', { name: 'Unlock admin actions' }).click();
  await enterAdminPassword(page, password);
}
