import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './axe.js';
import { launchBrowser, newPage, seedMember, signIn, startServer, waitUntilSessionRefused, type RunningServer } from './harness.js';
import { fetchFromPage } from './page-api.js';
import { openCardPanel } from './review-page.js';

// Working keeps a member signed in, and a session that ends anyway keeps the comment being written.
// The server's idle limit is its shortest (one minute, plus the last-seen resolution of 6 s), so
// the keep-alive test takes about as long in real time: the server's clock cannot be hurried. Both
// pages run on Playwright's paused clock: the worker's minutes pass when the test says, the
// reader's never (a tab left alone, whose tracker has nothing to send).

const WORKER = { name: 'Wendy Worker', pin: '4812' };
const READER = { name: 'Rita Reader', pin: '7391' };
const WRITER = { name: 'Dora Drafter', pin: '2958' };
const IDLE_MS = 60_000;
/** The idle limit and the last-seen resolution (a tenth of it): past this, a silent session is gone. */
const IDLE_LIMIT_MS = IDLE_MS + IDLE_MS / 10;

const isPath = (pathname: string) => (response: { url(): string }) => new URL(response.url()).pathname === pathname;



describe('activity keeps the session; drafts survive its end', () => {
  let server: RunningServer;
  let browser: Browser;
  const contexts: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SESSION_IDLE_MINUTES: String(IDLE_MS / 60_000) }), launchBrowser()]);
    for (const member of [WORKER, READER, WRITER]) await seedMember(server, member.name, { pin: member.pin });
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser.close();
    await server.stop();
  });

  async function open(member: { name: string; pin: string }, options: { fakeClock?: boolean } = {}) {
    const opened = await newPage(browser);
    contexts.push(opened.context);
    if (options.fakeClock === true) await opened.page.clock.install();
    await signIn(opened.page, server, member);
    await opened.page.getByRole('heading', { level: 2, name: `Welcome, ${member.name.split(' ')[0] ?? ''}` }).waitFor();
    // From here the page's time moves only when the test moves it.
    if (options.fakeClock === true) await opened.page.clock.pauseAt(Date.now() + 1000);
    return opened;
  }

  /** When the member's newest session was last seen, from the server's database. */
  async function lastSeenOf(name: string): Promise<number> {
    const db = server.openDb();
    try {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('members', 'members.id', 'sessions.member_id')
        .select('sessions.last_seen_at')
        .where('members.full_name', '=', name)
        .orderBy('sessions.last_seen_at', 'desc')
        .executeTakeFirstOrThrow();
      return row.last_seen_at;
    } finally {
      await db.destroy();
    }
  }

  it('a member who keeps working past the idle limit stays signed in; one who leaves the tab alone is signed out', { timeout: 180_000 }, async () => {
    const worker = await open(WORKER, { fakeClock: true });
    // The reader's tab is left alone: its clock never moves again.
    const reader = await open(READER, { fakeClock: true });

    // Until the reader's session is past the idle limit, the worker keeps moving the mouse, and
    // every minute of the worker's clock the tracker syncs what it counted.
    const syncs: number[] = [];
    await expect
      .poll(
        async () => {
          await worker.page.mouse.move(200 + (syncs.length % 5) * 40, 300);
          const [sync] = await Promise.all([worker.page.waitForResponse(isPath('/api/activity/sync')), worker.page.clock.runFor(60_000)]);
          syncs.push(sync.status());
          return Date.now() - (await lastSeenOf(READER.name));
        },
        { timeout: 150_000, interval: 5_000 },
      )
      .toBeGreaterThan(IDLE_LIMIT_MS);
    expect(syncs.length).toBeGreaterThan(1);
    expect(new Set(syncs)).toEqual(new Set([200]));

    // The worker's page is still signed in; the reader's next request finds the session gone.
    expect((await fetchFromPage(worker.page, 'GET', '/api/user')).status).toBe(200);
    await worker.page.getByRole('heading', { level: 2, name: 'Welcome, Wendy' }).waitFor();
    // The reader comes back to the tab: time moves on there, and the next request finds no session.
    await reader.page.clock.resume();
    await reader.page.reload();
    await reader.page.getByRole('heading', { level: 1, name: 'Team Sign In' }).or(reader.page.getByRole('heading', { level: 1, name: 'Welcome Back' })).waitFor();

    // The server counted the worker's time: only the seconds of real time since its last counted ones.
    const analytics = await fetchFromPage(worker.page, 'GET', '/api/analytics/users');
    const users = JSON.parse(analytics.text) as { memberName: string; totalActiveTime: number }[];
    expect(users.find((user) => user.memberName === WORKER.name)?.totalActiveTime).toBeGreaterThan(0);
    expect(users.find((user) => user.memberName === READER.name)?.totalActiveTime).toBe(0);
  });

  it('a comment being written when the session ends is restored after signing in again', { timeout: 90_000 }, async () => {
    const { page } = await open(WRITER);
    const title = 'Event Management';
    const text = `Correlate alerts by service and a five-minute window — draft ${Date.now()}`;
    let dialog = await openCardPanel(page, title);
    await dialog.getByRole('textbox', { name: 'Your comment' }).fill(text);

    // The session ends behind the page's back (as an idle limit or an admin would end it).
    const db = server.openDb();
    try {
      const member = await db.selectFrom('members').select('id').where('full_name', '=', WRITER.name).executeTakeFirstOrThrow();
      await db.deleteFrom('sessions').where('member_id', '=', member.id).execute();
    } finally {
      await db.destroy();
    }
    await waitUntilSessionRefused(page, server);
    const [refused] = await Promise.all([
      page.waitForResponse((response) => isPath('/api/comments')(response) && response.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Post comment' }).click(),
    ]);
    expect(refused.status()).toBe(401);
    await page.getByRole('heading', { level: 1, name: 'Team Sign In' }).or(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).waitFor();

    await signIn(page, server, WRITER);
    await page.getByRole('heading', { level: 2, name: 'Welcome, Dora' }).waitFor();
    dialog = await openCardPanel(page, title);
    const textbox = dialog.getByRole('textbox', { name: 'Your comment' });
    await expect.poll(() => textbox.inputValue()).toBe(text);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Posting it now works, and the draft is gone: the panel opens empty next time.
    const [created] = await Promise.all([
      page.waitForResponse((response) => isPath('/api/comments')(response) && response.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Post comment' }).click(),
    ]);
    expect(created.status()).toBe(201);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    dialog = await openCardPanel(page, title);
    expect(await dialog.getByRole('textbox', { name: 'Your comment' }).inputValue()).toBe('');
  });
});
