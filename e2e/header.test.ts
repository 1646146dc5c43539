import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './axe.js';
import { launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';

/**
 * One header on every signed-in page: the same destinations, labelled in text from 1024 px, the
 * current page marked, and on a phone a single row with a Menu button that lists them.
 */

const ADMIN = { name: 'Harper Header', pin: '3816' };
const LABELS = ['Home', 'Biggy Capabilities', 'Design Principles', 'Feedback & Recommendations', 'Analytics', 'Admin'];
/** Each route, the label of its own link (none for an unknown address), and something its page shows once loaded. */
const ROUTES: Array<{ path: string; current: string | null }> = [
  { path: '/', current: 'Home' },
  { path: '/biggy-capabilities', current: 'Biggy Capabilities' },
  { path: '/development-principles', current: 'Design Principles' },
  { path: '/suggestions', current: 'Feedback & Recommendations' },
  { path: '/analytics', current: 'Analytics' },
  { path: '/admin', current: 'Admin' },
  { path: '/no/such/page', current: null },
];

async function open(page: Page, server: RunningServer, route: string) {
  await page.goto(`${server.baseUrl}${route}`);
  await page.getByRole('banner').waitFor();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

/** The header's links as the page shows them: visible text, and which one is marked current. */
async function linksOf(page: Page): Promise<Array<{ text: string; current: string | null; visible: boolean }>> {
  const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
  const count = await links.count();
  const found: Array<{ text: string; current: string | null; visible: boolean }> = [];
  for (let i = 0; i < count; i += 1) {
    const link = links.nth(i);
    found.push({ text: (await link.innerText()).trim(), current: await link.getAttribute('aria-current'), visible: await link.isVisible() });
  }
  return found;
}

describe('the header of the signed-in pages', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await seedMember(server, ADMIN.name, { pin: ADMIN.pin, role: 'admin' });
  });
  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 1024, height: 768 },
  ]) {
    it(`at ${viewport.width} px is on every route, with every destination labelled in text and the current page marked`, async () => {
      const { context, page, consoleErrors } = await newPage(browser, { viewport });
      await signIn(page, server, ADMIN);
      for (const route of ROUTES) {
        await open(page, server, route.path);
        const links = await linksOf(page);
        expect(links.map((link) => link.text), route.path).toEqual(LABELS);
        expect(links.every((link) => link.visible), route.path).toBe(true);
        expect(links.filter((link) => link.current === 'page').map((link) => link.text), route.path).toEqual(route.current === null ? [] : [route.current]);
        // The tabs are one row, and the header's controls are on the title's row.
        const tops = await page.evaluate<number[]>(
          `[...document.querySelectorAll('nav[aria-label="Main"] a')].map((link) => Math.round(link.getBoundingClientRect().top))`,
        );
        expect(tops).toHaveLength(LABELS.length);
        expect(new Set(tops).size, route.path).toBe(1);
        expect(await page.getByRole('button', { name: 'Logout' }).isVisible(), route.path).toBe(true);
        expect(await page.getByRole('button', { name: 'Menu', exact: true }).isVisible(), route.path).toBe(false);
      }
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `header-${viewport.width}.png`) });
      expect(await accessibilityViolations(page)).toEqual([]);
      // Before sign-in the session probe answers 401; the unknown address is a 404 document.
      expect(consoleErrors.filter((line) => !/status of (?:401|404)/.test(line))).toEqual([]);
      await context.close();
    });
  }

  it('on a phone is one row, and its Menu lists every destination with the current one marked', async () => {
    const { context, page, consoleErrors } = await newPage(browser, { viewport: { width: 390, height: 844 }, mobile: true });
    await signIn(page, server, ADMIN);
    for (const route of ROUTES) {
      await open(page, server, route.path);
      const header = await page.getByRole('banner').boundingBox();
      expect(header?.height, route.path).toBeLessThanOrEqual(72);
      // Logo, title, avatar and Menu share one row.
      const rows = await page.evaluate<number[]>(
        `[...document.querySelectorAll('header img, header h1, header p, header button')]
          .map((element) => element.getBoundingClientRect())
          .filter((box) => box.height > 0)
          .map((box) => Math.round(box.top + box.height / 2))`,
      );
      expect(rows.length, route.path).toBeGreaterThanOrEqual(4);
      expect(Math.max(...rows) - Math.min(...rows), route.path).toBeLessThanOrEqual(8);
      expect(await page.getByRole('navigation', { name: 'Main' }).count(), route.path).toBe(0);

      const menu = page.getByRole('button', { name: 'Menu', exact: true });
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      const links = await linksOf(page);
      expect(links.map((link) => link.text), route.path).toEqual(LABELS);
      expect(links.filter((link) => link.current === 'page').map((link) => link.text), route.path).toEqual(route.current === null ? [] : [route.current]);
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
      if (route.path === '/') await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-phone-menu.png') });
      // Escape closes it and gives the focus back to the button.
      await page.keyboard.press('Escape');
      await page.getByRole('navigation', { name: 'Main' }).waitFor({ state: 'detached' });
      expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe('Menu');
    }

    // Following a link closes the menu on the new page.
    await open(page, server, '/');
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await page.waitForURL(`${server.baseUrl}/analytics`);
    await page.getByRole('heading', { level: 1, name: 'Team Analytics' }).waitFor();
    expect(await page.getByRole('button', { name: 'Menu', exact: true }).getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-phone.png') });
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(consoleErrors.filter((line) => !/status of (?:401|404)/.test(line))).toEqual([]);
    await context.close();
  });
});
