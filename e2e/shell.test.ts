import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/server/db/schema.js';
import { accessibilityViolations } from './axe.js';
import { launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';
import { toasts } from './toasts.js';
import { holdRequests } from './page-api.js';

/** Every screen below is behind sign-in: the tests sign in as this member first. */
const MEMBER = { name: 'Casey Shell', pin: '5062' };

/** A stand-in for the lazily loaded capabilities chunk that throws while the test wants it to. */
const BROKEN_PAGE_MODULE = `
export default function BrokenCapabilitiesPage() {
  if (window.__e2eBreak !== false) throw new Error('Render failure injected by the e2e test');
  return null;
}`;

async function waitForErrorLog(db: Kysely<Database>, errorType: string, messagePart: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const rows = await db.selectFrom('error_logs').selectAll().where('error_type', '=', errorType).execute();
    const match = rows.find((row) => row.message.includes(messagePart));
    if (match !== undefined) return match;
    if (Date.now() > deadline) throw new Error(`no ${errorType} report containing "${messagePart}"; have ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('client shell in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let db: Kysely<Database>;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    db = server.openDb();
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await seedMember(server, MEMBER.name, { pin: MEMBER.pin });
  });
  afterAll(async () => {
    await db.destroy();
    await browser.close();
    await server.stop();
  });

  it('shows Page Not Found with a 404 status for an unknown path, after sign-in', async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const response = await page.goto(`${server.baseUrl}/no/such/page`);
    expect(response?.status()).toBe(404);
    // Signed out, even an unknown path shows the sign-in screen; signing in stays on the path.
    await page.getByRole('heading', { level: 1, name: 'Team Sign In' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Page Not Found' }).count()).toBe(0);
    await signIn(page, server, MEMBER);
    await expect.poll(() => page.getByRole('heading', { name: 'Page Not Found' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/no/such/page');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to the overview' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    // The 404 of the document itself and the signed-out probe of /api/user (401) are the only
    // console errors the browser may log.
    expect(consoleErrors.filter((text) => !text.includes('404') && !text.includes('401'))).toEqual([]);
    await context.close();
  });

  it('shows Loading... while a screen is on its way', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, server, MEMBER);
    const release = await holdRequests(page, '**/assets/capabilities-page-*.js');
    await page.goto(`${server.baseUrl}/biggy-capabilities`);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Loading...');
    // In the page's main landmark, under a heading, as every screen is.
    await page.getByRole('main').getByRole('heading', { level: 1, name: 'Loading...' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    release();
    await expect.poll(() => page.getByText('Loading...').count()).toBe(0);
    await context.close();
  });

  it('asks who is signed in once, with the document, and a returning member’s page is fetched beside that check', async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    // A visitor who never signed in downloads no page: only the sign-in screen.
    const firstVisit: string[] = [];
    page.on('request', (request) => firstVisit.push(new URL(request.url()).pathname));
    await page.goto(`${server.baseUrl}/suggestions`);
    await page.getByRole('heading', { level: 1, name: 'Team Sign In' }).waitFor();
    expect(firstVisit.filter((url) => url.includes('suggestions-page'))).toEqual([]);
    await signIn(page, server, MEMBER);
    await page.getByRole('heading', { level: 1, name: 'Feedback and Recommendations' }).waitFor();
    page.removeAllListeners('request');

    // Coming back: while the sign-in check is still unanswered, the page's chunk is already asked for.
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    const release = await holdRequests(page, '**/api/user');
    const chunkRequested = page.waitForRequest(/\/assets\/suggestions-page-[^/]*\.js$/);
    await page.goto(`${server.baseUrl}/suggestions`, { waitUntil: 'commit' });
    await chunkRequested;
    expect(requests.filter((url) => url === '/api/user')).toHaveLength(1);
    release();
    await page.getByRole('heading', { level: 1, name: 'Feedback and Recommendations' }).waitFor();
    // The preload answered the app's own question: /api/user was asked once.
    expect(requests.filter((url) => url === '/api/user')).toHaveLength(1);
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
    await context.close();
  });

  it('catches a render failure on the error screen, logs it with the member, and Try Again recovers', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, server, MEMBER);
    await page.route('**/assets/capabilities-page-*.js', (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', body: BROKEN_PAGE_MODULE }),
    );
    await page.goto(`${server.baseUrl}/biggy-capabilities`);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.getByRole('heading', { name: 'Something went wrong' }).isVisible()).toBe(true);
    expect(await alert.textContent()).toContain('An unexpected error occurred. This has been logged for investigation.');
    expect(await alert.textContent()).toContain('Render failure injected by the e2e test');
    expect(await page.getByRole('button', { name: 'Reload Page' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'error-boundary.png') });

    const report = await waitForErrorLog(db, 'component_error', 'Render failure injected by the e2e test');
    expect(report.severity).toBe('high');
    expect(report.source).toBe('frontend');
    expect(report.url).toBe(`${server.baseUrl}/biggy-capabilities`);
    // Sent with the session cookie, so the server attaches who was signed in.
    expect(report.member_name).toBe(MEMBER.name);

    await page.evaluate(() => {
      Object.assign(globalThis, { __e2eBreak: false });
    });
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('Try Again asks the server again instead of rendering the answer that broke the page', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, server, { ...MEMBER, path: '/development-principles' });
    await page.getByRole('heading', { level: 1, name: 'AI-Driven Operations Management' }).waitFor();
    // One answer the page cannot render (a 200 without the architecture's groups), then the real one.
    let brokenAnswers = 0;
    await page.route('**/api/architecture', async (route) => {
      if (brokenAnswers > 0) return route.continue();
      brokenAnswers += 1;
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
    });
    await page.getByRole('link', { name: 'Home' }).first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Something went wrong' }).isVisible()).toBe(true);
    const refetched = page.waitForResponse((response) => response.url().endsWith('/api/architecture') && response.status() === 200);
    await page.getByRole('button', { name: 'Try Again' }).click();
    await refetched;
    await page.getByRole('heading', { name: /^Welcome,/ }).waitFor();
    expect(await page.getByRole('heading', { name: 'Something went wrong' }).count()).toBe(0);
    expect(brokenAnswers).toBe(1);
    await context.close();
  });

  it('posts uncaught errors and unhandled rejections silently with severity high', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, server, { ...MEMBER, path: '/development-principles' });
    await page.getByRole('heading', { level: 1, name: 'AI-Driven Operations Management' }).waitFor();
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('Uncaught failure from the e2e test');
      }, 0);
      void Promise.reject(new Error('Unhandled rejection from the e2e test'));
    });
    const uncaught = await waitForErrorLog(db, 'javascript_error', 'Uncaught failure from the e2e test');
    const rejection = await waitForErrorLog(db, 'unhandled_promise_rejection', 'Unhandled rejection from the e2e test');
    expect([uncaught.severity, rejection.severity]).toEqual(['high', 'high']);
    // Silently: no toast, no error screen.
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await toasts(page).count()).toBe(0);
    await context.close();
  });

  it('falls back to an emoji when the logo fails to load', async () => {
    const { page, context } = await newPage(browser);
    await signIn(page, server, MEMBER);
    await page.route('**/biggy-logo.svg', (route) => route.fulfill({ status: 404, body: '' }));
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const fallback = page.locator('[data-fallback="emoji"]').first();
    await expect.poll(() => fallback.isVisible()).toBe(true);
    expect(await fallback.textContent()).toContain('🤖');
    expect(await fallback.getAttribute('aria-label')).toBe('Biggy logo');
    await context.close();
  });

  it('runs under the strict Content-Security-Policy without violations', async () => {
    const { page, context, consoleErrors } = await newPage(browser);
    const response = await page.goto(`${server.baseUrl}/`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The sign-in screen and the signed-in home page both run under it.
    await signIn(page, server, MEMBER);
    await expect.poll(() => page.getByText('Welcome, Casey', { exact: true }).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'home.png') });
    expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/.test(text))).toEqual([]);
    // The signed-out probe of /api/user is the only failed request a fresh visitor makes.
    expect(consoleErrors.filter((text) => !text.includes('401'))).toEqual([]);
    await context.close();
  });
});
