import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/common/routes.js';
import { seedDemo } from '../src/server/seed/demo-seed.js';
import { accessibilityViolations } from './axe.js';
import { launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';
import { openCardPanel, showDiagram } from './review-page.js';
import { smallTargets } from './targets.js';
import { closeToasts } from './toasts.js';

// Every screen and tab of the app, signed out and as the admin (who sees every screen), at a desktop
// and a phone size, with the demo review loaded so lists, charts and tables have rows: axe finds no
// violation of any impact, and no control is smaller than 24×24 px. Findings are gathered across a
// walk and reported together, so one run shows all of them.

const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
const ADMIN = { name: 'Walker Admin', pin: '2468' };
type Device = keyof typeof VIEWPORTS;

describe('accessibility of every screen', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    const db = server.openDb();
    try {
      await seedDemo(db, { seed: 20_240_521 });
    } finally {
      await db.destroy();
    }
    await seedMember(server, ADMIN.name, { pin: ADMIN.pin, role: 'admin' });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  /** Axe and the target sizes on the page as it is now, as lines naming the state. */
  async function check(page: Page, state: string, device: Device): Promise<string[]> {
    await page.mouse.move(0, 0);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `walk-${device}-${state}.png`), animations: 'disabled' });
    const [violations, small] = [await accessibilityViolations(page), await smallTargets(page)];
    return [...violations, ...small.map((line) => `target under 24 px: ${line}`)].map((line) => `${state} (${device}): ${line}`);
  }

  /** Every loading state has given way to what it waited for (the page's skeletons announce 'Loading'). */
  async function settle(page: Page): Promise<void> {
    await expect.poll(() => page.getByRole('status').filter({ hasText: /Loading/i }).count(), { timeout: 15_000 }).toBe(0);
  }

  it.each(Object.keys(VIEWPORTS) as Device[])('signed out, on a %s: the sign-in screens', async (device) => {
    const { context, page } = await newPage(browser, { viewport: VIEWPORTS[device], mobile: device === 'phone' });
    const findings: string[] = [];
    await page.goto(server.baseUrl);
    await page.getByRole('heading', { level: 1, name: 'Team Sign In' }).waitFor();
    findings.push(...(await check(page, 'team-sign-in', device)));
    await page.getByRole('button', { name: 'Forgot your PIN?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reset PIN' }).waitFor();
    findings.push(...(await check(page, 'reset-pin', device)));
    expect(findings).toEqual([]);
    await context.close();
  });

  it.each(Object.keys(VIEWPORTS) as Device[])('as the admin, on a %s: every screen, tab and the comment panel', { timeout: 180_000 }, async (device) => {
    const { context, page } = await newPage(browser, { viewport: VIEWPORTS[device], mobile: device === 'phone' });
    const findings: string[] = [];
    await signIn(page, server, ADMIN);
    for (const [screen, route] of Object.entries(ROUTES)) {
      await page.goto(`${server.baseUrl}${route}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await settle(page);
      // The main page draws its diagram as it nears the window: checked drawn.
      if (route === ROUTES.home) await showDiagram(page);
      // A page with tabs is checked on each of them, as the reader would open them.
      const tabs = await page.getByRole('tab').allInnerTexts();
      for (const tab of tabs.length === 0 ? [undefined] : tabs) {
        if (tab !== undefined) {
          await page.getByRole('tab', { name: tab }).click();
          await page.getByRole('tab', { name: tab, selected: true }).waitFor();
          await settle(page);
        }
        await closeToasts(page);
        findings.push(...(await check(page, tab === undefined ? screen : `${screen}-${tab.toLowerCase().replace(/\W+/g, '-')}`, device)));
      }
    }

    // The comment panel over the main page, and a page that does not exist.
    await page.goto(server.baseUrl);
    await openCardPanel(page, 'Authentication and SSO', device);
    await settle(page);
    findings.push(...(await check(page, 'comment-panel', device)));
    await page.goto(`${server.baseUrl}/no-such-page`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    findings.push(...(await check(page, 'not-found', device)));

    expect(findings).toEqual([]);
    await context.close();
  });
});
