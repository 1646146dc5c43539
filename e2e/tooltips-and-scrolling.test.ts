import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';

/**
 * Controls that show an icon get a real tooltip (700 ms on hover, at once on keyboard focus), and
 * the comment panel's long list scrolls in the app's scroll area: a scroll bar that shows while the
 * pointer is over it, hides 600 ms after, and whose thumb is never shorter than 18 px.
 */

const MEMBER = { name: 'Tess Tooltip', pin: '8631' };
const COMPONENT = { id: 'authentication-and-sso', title: 'Authentication and SSO' };

describe('tooltips and the scroll area', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    const member = await seedMember(server, MEMBER.name, { pin: MEMBER.pin });
    // Enough comments that the panel scrolls a long way (written straight to the database: the API
    // limits how fast one member posts).
    const db = server.openDb();
    try {
      await db
        .insertInto('comments')
        .values(
          Array.from({ length: 60 }, (_, i) => ({
            component_id: COMPONENT.id,
            kind: 'comment' as const,
            content: `Point ${i + 1}: the SSO session should be revoked when the IdP disables the account, check ${i + 1}.`,
            member_id: member.id,
            member_name: member.fullName,
            created_at: Date.now() - (60 - i) * 60_000,
          })),
        )
        .execute();
    } finally {
      await db.destroy();
    }
  });
  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  it('shows a tooltip on an icon control, and scrolls a long comment list with a thumb of 18 px or more', async () => {
    const { context, page, consoleErrors } = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    await signIn(page, server, MEMBER);
    await page.getByRole('heading', { level: 2, name: 'Welcome, Tess' }).waitFor();
    const article = page.getByRole('article').filter({ has: page.getByRole('heading', { name: COMPONENT.title }) });
    await article.hover();
    await article.getByRole('button', { name: `Comment on ${COMPONENT.title}` }).click();
    const panel = page.getByRole('dialog', { name: COMPONENT.title });
    await panel.getByRole('article').filter({ hasText: 'Point 60:' }).waitFor();

    // Hovering the close button (an icon) shows what it does.
    const close = panel.getByRole('button', { name: 'Close comments' });
    await close.hover();
    const tooltip = page.getByRole('tooltip');
    await tooltip.waitFor();
    expect(await tooltip.innerText()).toBe('Close comments (Esc)');
    // Under the button (as asked), inside the window, the button described by it.
    const closeBox = await close.boundingBox();
    const tipBox = await tooltip.boundingBox();
    expect(tipBox?.y ?? 0).toBeGreaterThanOrEqual((closeBox?.y ?? 0) + (closeBox?.height ?? 0));
    expect((tipBox?.x ?? 0) + (tipBox?.width ?? 0)).toBeLessThanOrEqual(1440 - 8);
    expect(await close.getAttribute('aria-describedby')).toBe(await tooltip.getAttribute('id'));
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'tooltip-close-comments.png'), clip: { x: 1440 - 360, y: 0, width: 360, height: 160 } });
    // Off the button (a pointer moving away, not jumping), it goes.
    const title = await panel.getByRole('heading', { name: COMPONENT.title }).boundingBox();
    await page.mouse.move((title?.x ?? 0) + 20, (title?.y ?? 0) + 10, { steps: 5 });
    await tooltip.waitFor({ state: 'detached' });

    // From the keyboard the tooltip shows on focus.
    const firstVote = panel.getByRole('button', { name: /thumbs up$/ }).first();
    await firstVote.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await tooltip.waitFor();
    expect(await tooltip.innerText()).toBe('Vote thumbs up');
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });

    // The panel's content scrolls in the scroll area; over it, the bar shows with a thumb of at least 18 px.
    const viewport = panel.locator('[data-radix-scroll-area-viewport]');
    const sizes = await page.evaluate<{ client: number; scroll: number }>(
      `(() => { const element = document.querySelector('[role="dialog"] [data-radix-scroll-area-viewport]'); return { client: element.clientHeight, scroll: element.scrollHeight }; })()`,
    );
    expect(sizes.scroll).toBeGreaterThan(sizes.client * 10);
    await viewport.hover();
    await page.mouse.wheel(0, 400);
    const bar = panel.locator('[data-orientation="vertical"][data-state]').filter({ has: page.locator('[data-scroll-thumb]') });
    await expect.poll(() => bar.getAttribute('data-state')).toBe('visible');
    const thumb = await panel.locator('[data-scroll-thumb]').boundingBox();
    expect(thumb?.height ?? 0).toBeGreaterThanOrEqual(18);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'comment-panel-scroll-area.png') });
    // Off the list, the bar goes again (after its 600 ms delay).
    await page.mouse.move(10, 450);
    await panel.locator('[data-scroll-thumb]').waitFor({ state: 'detached', timeout: 5_000 });

    // A tooltip raised by the resting pointer does not keep the panel open: Escape closes both.
    await panel.getByRole('button', { name: 'Close comments' }).hover();
    await tooltip.waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await tooltip.waitFor({ state: 'detached' });

    expect(consoleErrors.filter((line) => !/status of 401/.test(line))).toEqual([]);
    await context.close();
  });
});
