import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './axe.js';
import { launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';

// The expected copy is written out here rather than imported from the pages, so the test checks the product's wording.
// Browser-side code is passed to page.evaluate as strings: this file is type-checked for Node, without the DOM library.
const PRINCIPLE_TITLES = [
  'Capture Knowledge Everywhere',
  'Flexible, Modular Capabilities',
  'Collaborate to Win',
  'Adapt in Real Time',
  'Ship to Learn',
  'Augment, Then Automate',
];
const HIGHLIGHTS = ['40K+ knowledge documents', 'Real-time stream processing', 'Multi-agent analysis', 'Historical analysis in seconds'];
const IT_ORGANIZATION = [
  'Centralized Operations Center',
  'Site Reliability',
  'Network',
  'Infrastructure',
  'Cloud',
  'Data Engineering',
  'Application Development',
  'Platform Engineering',
];
const SME_ACTIONS = ['Incident Response', 'Knowledge Queries', 'Change Planning', 'Service Operations', 'Performance Analysis', 'Collaboration'];
const PLATFORM_BLOCKS = ['Awareness', 'Understanding', 'Intelligent Action', 'Learning', 'Intelligent Processing', 'Enterprise Systems'];

const DESKTOP = { width: 1280, height: 900 };
/** The pages are behind sign-in; a member without the admin role reads them. */
const MEMBER = { name: 'Robin Reader', pin: '3816' };
const MOBILE = { width: 390, height: 844 };

interface OpenedPage {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  /** Paths that answered 401. */
  unauthorized: string[];
}

/**
 * Each page opens signed out, so the shell's current-user probe (GET /api/user) answers 401 by
 * design before the test signs in, and Chromium logs every non-2xx fetch as a console error. That
 * line is expected when, and only when, the 401 came from the probe; any other console error fails
 * the test.
 */
function expectNoConsoleErrors({ consoleErrors, unauthorized }: OpenedPage) {
  expect(unauthorized.filter((pathname) => pathname !== '/api/user')).toEqual([]);
  expect(consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'))).toEqual([]);
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

describe('static pages', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    server = await startServer();
    browser = await launchBrowser();
    await seedMember(server, MEMBER.name, { pin: MEMBER.pin });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  async function open(route: string, viewport: { width: number; height: number }, prepare?: (context: BrowserContext) => Promise<unknown>): Promise<OpenedPage> {
    const { context, page, consoleErrors } = await newPage(browser, { viewport });
    const unauthorized: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 401) unauthorized.push(new URL(response.url()).pathname);
    });
    await prepare?.(context);
    await signIn(page, server, { ...MEMBER, path: route });
    return { context, page, consoleErrors, unauthorized };
  }

  describe('design principles page', () => {
    it('shows the header, the mission banner and six principles with three bullets each', async () => {
      const opened = await open('/development-principles', DESKTOP);
      const { context, page } = opened;

      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'AI-Driven Operations Management' }).isVisible()).toBe(true);
      expect(await page.getByRole('banner').locator('p').getByText('Design Principles', { exact: true }).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { level: 2, name: /Build fast, ship prototypes, iterate/ }).isVisible()).toBe(true);

      const principles = page.getByRole('article');
      expect(await principles.count()).toBe(6);
      for (const [index, title] of PRINCIPLE_TITLES.entries()) {
        const card = principles.nth(index);
        expect(await card.getByRole('heading', { level: 3 }).innerText()).toBe(title);
        expect(await card.getByRole('listitem').count()).toBe(3);
      }

      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const label of ['Home', 'Analytics', 'Feedback & Recommendations']) {
        expect(await nav.getByRole('link', { name: label, exact: true }).isVisible()).toBe(true);
      }
      // A member without the admin role: the Admin button must not be there at all.
      expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
      expect(await page.getByText('v0.66', { exact: true }).isVisible()).toBe(true);

      await screenshot(page, 'principles-desktop');
      expect(await accessibilityViolations(page)).toEqual([]);
      expectNoConsoleErrors(opened);
      await context.close();
    });

    it('opens the avatar menu with Profile and Settings, and stays accessible while it is open', async () => {
      const opened = await open('/development-principles', DESKTOP);
      const { context, page } = opened;

      await page.getByRole('button', { name: /^Account menu for/ }).click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      expect(await menu.getByRole('menuitem', { name: 'Profile' }).isVisible()).toBe(true);
      expect(await menu.getByRole('menuitem', { name: 'Settings' }).isVisible()).toBe(true);

      expect(await accessibilityViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expectNoConsoleErrors(opened);
      await context.close();
    });

    it('lays out on a phone without horizontal scrolling', async () => {
      const opened = await open('/development-principles', MOBILE);
      const { context, page } = opened;
      await page.getByRole('heading', { name: PRINCIPLE_TITLES[5] }).waitFor();

      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
      await screenshot(page, 'principles-mobile');
      expect(await accessibilityViolations(page)).toEqual([]);
      expectNoConsoleErrors(opened);
      await context.close();
    });
  });

  describe('capabilities overview page', () => {
    it('shows the hero, the highlights and the three-part diagram', async () => {
      const opened = await open('/biggy-capabilities', DESKTOP);
      const { context, page } = opened;

      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toMatch(/Biggy/);
      for (const highlight of HIGHLIGHTS) {
        expect(await page.getByText(highlight, { exact: true }).isVisible()).toBe(true);
      }

      const itOrganization = page.getByRole('list', { name: 'IT Organization' });
      expect(await page.getByRole('heading', { level: 3, name: 'IT Organization' }).isVisible()).toBe(true);
      expect(await itOrganization.getByRole('listitem').count()).toBe(IT_ORGANIZATION.length);
      for (const item of IT_ORGANIZATION) {
        expect(await itOrganization.getByText(item, { exact: true }).isVisible()).toBe(true);
      }

      const smeActions = page.getByRole('list', { name: 'SME Actions' });
      expect(await page.getByRole('heading', { level: 3, name: 'SME Actions' }).isVisible()).toBe(true);
      expect(await smeActions.getByRole('listitem').count()).toBe(SME_ACTIONS.length);
      for (const item of SME_ACTIONS) {
        expect(await smeActions.getByText(item, { exact: true }).isVisible()).toBe(true);
      }

      expect(await page.getByText('Intelligent Connector and Collaborator', { exact: true }).isVisible()).toBe(true);
      for (const block of PLATFORM_BLOCKS) {
        expect(await page.getByRole('heading', { level: 4, name: block, exact: true }).isVisible()).toBe(true);
      }
      for (const focus of ['Context retrieval via agentic RAG', 'Knowledge indexing and graph building', 'Multi-modal data stores', 'ITSM']) {
        expect(await page.getByText(focus, { exact: true }).isVisible()).toBe(true);
      }

      // On a wide screen the three parts of the diagram sit side by side, left to right.
      const [left, centre, right] = await Promise.all(
        ['IT Organization', 'Biggy AI Platform', 'SME Actions'].map((name) => page.getByRole('heading', { level: 3, name }).boundingBox()),
      );
      expect(left != null && centre != null && right != null).toBe(true);
      if (left != null && centre != null && right != null) {
        expect(left.x + left.width).toBeLessThan(centre.x);
        expect(centre.x + centre.width).toBeLessThan(right.x);
      }

      await screenshot(page, 'capabilities-desktop');
      expect(await accessibilityViolations(page)).toEqual([]);
      expectNoConsoleErrors(opened);
      await context.close();
    });

    it('goes back to the home page from the Back link', async () => {
      const opened = await open('/biggy-capabilities', DESKTOP);
      const { context, page } = opened;

      await page.getByRole('link', { name: 'Back', exact: true }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      await page.getByText(/^Welcome, /).waitFor();
      expectNoConsoleErrors(opened);
      await context.close();
    });

    it('copies the page link and confirms with a toast', async () => {
      const opened = await open('/biggy-capabilities', DESKTOP, (context) =>
        context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl }),
      );
      const { context, page } = opened;

      await page.getByRole('button', { name: 'Copy link' }).click();
      await page.getByText('Link copied', { exact: true }).waitFor();
      expect(await page.getByText('The capabilities overview link is on your clipboard.', { exact: true }).isVisible()).toBe(true);
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(`${server.baseUrl}/biggy-capabilities`);
      expectNoConsoleErrors(opened);
      await context.close();
    });

    it('shows a destructive toast when the clipboard refuses', async () => {
      // As a browser does when the user has blocked clipboard access for the site.
      const opened = await open('/biggy-capabilities', DESKTOP, (context) =>
        context.addInitScript({
          content: "navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));",
        }),
      );
      const { context, page } = opened;

      // Keyboard this time: the button is reachable and works with Enter.
      await page.getByRole('button', { name: 'Copy link' }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Could not copy link', { exact: true }).waitFor();
      expect(await page.getByText('Copy the address from the browser bar instead.', { exact: true }).isVisible()).toBe(true);
      expectNoConsoleErrors(opened);
      await context.close();
    });

    it('stacks the diagram on a phone without horizontal scrolling', async () => {
      const opened = await open('/biggy-capabilities', MOBILE);
      const { context, page } = opened;
      await page.getByRole('heading', { level: 3, name: 'SME Actions' }).waitFor();

      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
      const left = await page.getByRole('heading', { level: 3, name: 'IT Organization' }).boundingBox();
      const centre = await page.getByRole('heading', { level: 3, name: 'Biggy AI Platform' }).boundingBox();
      const right = await page.getByRole('heading', { level: 3, name: 'SME Actions' }).boundingBox();
      expect(left !== null && centre !== null && right !== null).toBe(true);
      if (left !== null && centre !== null && right !== null) {
        expect(left.y).toBeLessThan(centre.y);
        expect(centre.y).toBeLessThan(right.y);
      }

      await screenshot(page, 'capabilities-mobile');
      expect(await accessibilityViolations(page)).toEqual([]);
      expectNoConsoleErrors(opened);
      await context.close();
    });
  });
});
