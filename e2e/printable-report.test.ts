import { mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './axe.js';
import { E2E_SECRETS, launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, type RunningServer } from './harness.js';
import { fetchFromPage, postComment } from './page-api.js';

// Browser-side code is passed to page.evaluate as strings: this file is type-checked for Node, without the DOM library.

const MEMBER = { name: 'Paula Printer', pin: '4680' };
const ADMIN = { name: 'Avery Admin', pin: '8024' };
const DECIDED = { id: 'recovery-verification', title: 'Recovery Verification' };
const RATIONALE = 'Accepted once the watch window is set per service tier.';
/** Markup in a comment: the report must show it as text and run nothing of it. */
const MARKUP = `Show the <script>document.title = "owned"</script> watch window & the tier's SLO`;

describe('the printable report', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await seedMember(server, MEMBER.name, { pin: MEMBER.pin });
    await seedMember(server, ADMIN.name, { pin: ADMIN.pin, role: 'admin' });
  });

  afterAll(async () => {
    await browser.close();
    await server.stop();
  });

  /** Signed in on the main page, its export links shown. */
  async function openReview(member: { name: string; pin: string }) {
    const opened = await newPage(browser);
    await signIn(opened.page, server, { ...member, path: '/' });
    await opened.page.getByRole('link', { name: /^Printable report/ }).waitFor();
    return opened;
  }

  /** An accepted suggestion with an owner (an action) and a conflict in the team narrative, as a generation and a narrative would leave them. */
  async function seedOutcomes() {
    const db = server.openDb();
    try {
      const now = Date.now();
      const generation = await db
        .insertInto('suggestion_generations')
        .values({ status: 'done', started_at: now, finished_at: now, requested_by: ADMIN.name, generated_by: null, notice: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const suggestion = { recommendation_type: 'content' as const, components: JSON.stringify([DECIDED.id]), member_initials: '[]', sources: '[]', status: 'active' as const, generation_id: generation.id, created_at: now, updated_at: now, archived_at: null };
      await db
        .insertInto('suggestions')
        .values([
          { ...suggestion, rank: 0, suggestion: 'Set the watch window per service tier in the SLO catalogue.', review_status: 'accepted', owner_name: MEMBER.name, due_date: '2026-12-15' },
          { ...suggestion, rank: 1, suggestion: 'Reopen an incident automatically on relapse.', review_status: 'open', owner_name: null, due_date: null },
        ])
        .execute();
      await db
        .insertInto('ai_outputs')
        .values({ kind: 'narrative', scope: 'team', input_hash: 'e'.repeat(64), output: JSON.stringify({ conflicts: [{ topic: 'Watch window', description: 'Fifteen minutes for every tier, or longer for tier 1.' }] }), provider: 'local', model: 'built-in', prompt_version: 'e2e', created_at: now })
        .execute();
    } finally {
      await db.destroy();
    }
  }

  const shoot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });

  it('opens from the main page in a new tab, styled under its policy, and prints to a PDF', async () => {
    const admin = await openReview(ADMIN);
    const decided = await fetchFromPage(admin.page, 'POST', `/api/decisions/${DECIDED.id}`, { outcome: 'accepted_with_changes', rationale: RATIONALE, adminPassword: E2E_SECRETS.ADMIN_PASSWORD });
    expect(decided.status, decided.text).toBe(201);
    await admin.context.close();

    await seedOutcomes();

    const { context, page } = await openReview(MEMBER);
    await postComment(page, DECIDED.id, MARKUP);
    const settled = await postComment(page, DECIDED.id, 'Which tiers get the long watch window?\nSev1 services at least.');
    const resolved = await fetchFromPage(page, 'POST', `/api/comments/${settled.id}/resolve`, { note: 'Tier 1 and 2, per the SLO catalogue.' });
    expect(resolved.status, resolved.text).toBe(200);
    // Every console line of every tab: a style the policy refused would show here.
    const consoleErrors: string[] = [];
    context.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const [report] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: /^Printable report/ }).click()]);
    report.on('pageerror', (error) => consoleErrors.push(error.message));
    expect(new URL(report.url()).pathname).toBe('/api/export/review.html');

    await report.getByRole('heading', { level: 1, name: 'Architecture review' }).waitFor();
    const section = report.getByRole('region', { name: DECIDED.title });
    await section.getByRole('heading', { level: 2, name: DECIDED.title }).waitFor();
    expect(await section.locator('.decision').innerText()).toMatch(/^Decision: Accepted with changes, by Avery Admin on \d{4}-\d{2}-\d{2}\.$/);
    expect(await section.getByText(RATIONALE).isVisible()).toBe(true);
    // The comment reads as written, and nothing of it ran.
    expect(await section.getByText(MARKUP, { exact: true }).isVisible()).toBe(true);
    await section.getByRole('heading', { level: 3, name: 'Resolved comments' }).waitFor();
    expect(await report.getByRole('region', { name: 'Actions' }).getByRole('cell', { name: MEMBER.name }).isVisible()).toBe(true);
    expect(await report.title()).toMatch(/^Architecture review \d{4}-\d{2}-\d{2}$/);
    expect(await report.evaluate<number>('document.scripts.length')).toBe(0);
    // The inline sheet applied: its column width and its print hint.
    expect(await report.evaluate<string>(`getComputedStyle(document.querySelector('main')).maxWidth`)).toBe('736px');
    const hint = report.getByText("Use your browser's Print (Ctrl+P) to save as PDF.");
    expect(await hint.isVisible()).toBe(true);
    await shoot(report, 'printable-report-screen');
    expect(await accessibilityViolations(report)).toEqual([]);

    await report.emulateMedia({ media: 'print' });
    await hint.waitFor({ state: 'hidden' });
    expect(await report.evaluate<string>(`getComputedStyle(document.querySelector('main')).maxWidth`)).toBe('none');
    expect(await report.evaluate<string>(`getComputedStyle(document.body).color`)).toBe('rgb(0, 0, 0)');
    await shoot(report, 'printable-report-print');
    const pdf = await report.pdf({ format: 'A4', printBackground: false });
    await writeFile(path.join(SCREENSHOT_DIR, 'printable-report.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(10_000);
    // Several pages: the components, then the suggestions and the actions each from a new page.
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0).toBeGreaterThan(2);

    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it('answers a signed-out visitor with a 401, not the report', async () => {
    const { context, page } = await newPage(browser);
    const response = await page.goto(`${server.baseUrl}/api/export/review.html`);
    expect(response?.status()).toBe(401);
    expect(await page.content()).not.toContain('Architecture review');
    await context.close();
  });
});
