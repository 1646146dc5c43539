import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QA_TEST_COMPONENT_ID } from '../src/common/api/architecture.js';
import { addActiveSeconds, dayOf } from '../src/server/modules/activity/repo.js';
import { insertDecision } from '../src/server/modules/decisions/repo.js';
import { ensureQaMember } from '../src/server/modules/members/service.js';
import { commentableComponentIds, componentTitle, loadArchitecture } from '../src/server/content/validate.js';
import { accessibilityViolations } from './axe.js';
import { card, openCardPanel } from './review-page.js';
import { E2E_SECRETS, SCREENSHOT_DIR, launchBrowser, newPage, seedMember, signIn, startServer, type RunningServer, type SeededMember } from './harness.js';
import { holdRequests, postComment } from './page-api.js';

// The Team Analytics page as a member reads it, after teammates commented and voted through the
// UI and the page API. The product's copy is written out here rather than imported, so the test
// checks its wording. Browser-side code is passed to page.evaluate as strings: this file is
// type-checked for Node, without the DOM library.
//
// The activity trackers' syncs are answered by the test and never reach the server: the members'
// active time is exactly what the test seeded (e2e/activity.test.ts covers the syncs themselves),
// so figures in hours and minutes can be checked to the minute however long a run takes.

/** The harness's screenshot folder (ignored by git): the screenshots are for looking at, not for keeping. */
const SHOTS = path.join(SCREENSHOT_DIR, 'analytics');
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The reader: signed in on the analytics page, with no comments or votes of their own. */
const ALICE = { name: 'Alice Archer', pin: '3816' };
/** Votes on Dana's comment through the comment panel. */
const BOB = { name: 'Bob Baker', pin: '5062' };
/** One comment, on another component. */
const CASEY = { name: 'Casey Keys', pin: '3579' };
/** Two comments, the first through the comment panel: the top contributor. */
const DANA = { name: 'Dana Demo', pin: '4680' };
/** The self-test's member (the server's default QA_USER_NAME): signs in and comments, and is never counted. */
const QA = { name: 'QA Test User', pin: E2E_SECRETS.QA_PIN };
/** The admin the server creates from ADMIN_NAME: a member who never signs in during this test. */
const AVERY = { name: 'Avery Admin' };
/** The members who sign in and take part. */
const MEMBERS = [ALICE, BOB, CASEY, DANA];
/** Every member the analytics count, alphabetical, as the Users table first sorts them and the coverage matrix orders its columns. */
const TEAM = [ALICE.name, AVERY.name, BOB.name, CASEY.name, DANA.name];

/** Seeded active time: 2h 5m and 0h 12m, 2h 17m for the team. */
const DANA_ACTIVE_SECONDS = 2 * 3600 + 5 * 60;
const CASEY_ACTIVE_SECONDS = 12 * 60;

const COMMENTED = { id: 'event-management', title: 'Event Management' };
const CASEY_COMPONENT = { id: 'unified-analytics', title: 'Unified Analytics' };
const UNCOMMENTED = { id: 'ai-incident-prevention', title: 'AI Incident Prevention' };
/** The decisions on record (written in the database, see beforeAll): one on a commented component, one on a component without comments. */
const DECIDED = [
  { component: COMMENTED, outcome: 'accepted_with_changes', words: 'Accepted with changes' },
  { component: UNCOMMENTED, outcome: 'deferred', words: 'Deferred' },
] as const;

const TABS = [
  { label: 'Overview', id: 'overview', heading: 'Team totals' },
  { label: 'Users', id: 'users', heading: 'Members' },
  { label: 'Activity', id: 'activity', heading: 'Active now' },
  { label: 'Coverage', id: 'coverage', heading: 'Not reviewed yet' },
] as const;
type TabLabel = (typeof TABS)[number]['label'];

/** The components the coverage matrix lists, in page order: every commentable one but the self-test's. */
const architecture = loadArchitecture();
const REVIEWED_TITLES = [...commentableComponentIds(architecture)].filter((id) => id !== QA_TEST_COMPONENT_ID).map((id) => componentTitle(architecture, id) ?? id);

interface OpenedPage {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
}

const isPath = (pathname: string) => (response: { url(): string }) => new URL(response.url()).pathname === pathname;

/** The page opens signed out: the shell's current-user probe answers 401 by design, and Chromium logs it. Nothing else may be logged. */
function expectNoConsoleErrors(opened: OpenedPage) {
  expect(opened.consoleErrors.filter((line) => !line.includes('status of 401 (Unauthorized)'))).toEqual([]);
}

async function shot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
}

async function hasHorizontalPageScroll(page: Page): Promise<boolean> {
  return page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth');
}

function tab(page: Page, label: TabLabel): Locator {
  return page.getByRole('tablist', { name: 'Analytics sections' }).getByRole('tab', { name: label, exact: true });
}

function panel(page: Page, label: TabLabel): Locator {
  return page.getByRole('tabpanel', { name: label });
}

async function selectedTab(page: Page): Promise<string> {
  return page.getByRole('tablist', { name: 'Analytics sections' }).getByRole('tab', { selected: true }).innerText();
}

/** The tab's own first heading: proof that its content (and its lazily loaded code) is shown. */
async function tabShown(page: Page, label: TabLabel) {
  const heading = TABS.find((entry) => entry.label === label)?.heading ?? '';
  await panel(page, label).getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
}


/** The accessible names of a table row's cells, as a screen reader reads them (the marks are hidden, the words are not). */
async function cellNames(row: Locator): Promise<string[]> {
  const snapshot = await row.ariaSnapshot();
  return [...snapshot.matchAll(/^\s*- cell "([^"]*)"/gm)].map((match) => match[1] ?? '');
}

/** A description list's terms and values as 'term: value'. */
async function definitions(scope: Locator): Promise<string[]> {
  const [terms, values] = await Promise.all([scope.locator('dl dt').allInnerTexts(), scope.locator('dl dd').allInnerTexts()]);
  return terms.map((term, index) => `${term}: ${values[index] ?? ''}`);
}

/** Whole hours and minutes, the product's 'Xh Ym'. */
function hoursMinutes(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

describe('Team Analytics page', () => {
  let server: RunningServer;
  let browser: Browser;
  const opened: OpenedPage[] = [];
  const seeded = new Map<string, SeededMember>();

  /** A member signed in on `route`, with the trackers' syncs answered by the test (see the top of the file). */
  async function open(member: { name: string; pin: string }, route: string, viewport = DESKTOP): Promise<OpenedPage> {
    const entry = await newPage(browser, { viewport, mobile: viewport.width < 640 });
    opened.push(entry);
    await entry.page.route('**/api/activity/sync', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ countedSeconds: 0, totalActiveTime: 0 }) }),
    );
    await signIn(entry.page, server, { ...member, path: route });
    return entry;
  }

  /** Alice on /analytics?tab=…, with the tab's content shown. */
  async function openAnalytics(label: TabLabel, viewport = DESKTOP): Promise<OpenedPage> {
    const id = TABS.find((entry) => entry.label === label)?.id ?? 'overview';
    const entry = await open(ALICE, `/analytics?tab=${id}`, viewport);
    await entry.page.getByRole('heading', { level: 1, name: 'Team Analytics' }).waitFor();
    await tabShown(entry.page, label);
    return entry;
  }


  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    for (const member of MEMBERS) seeded.set(member.name, await seedMember(server, member.name, { pin: member.pin }));
    const db = server.openDb();
    try {
      const qa = await ensureQaMember(db, QA.name, QA.pin, E2E_SECRETS.PIN_PEPPER, { reactivate: true });
      // The QA member cannot sign in through the pages (only the self-test acts as it): its comment
      // and vote, which analytics must never count, are written as a self-test run writes them.
      const qaComment = await db
        .insertInto('comments')
        .values({ component_id: COMMENTED.id, content: 'QA self-test comment on a real component.', member_id: qa.id, member_name: qa.full_name, created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('comment_votes').values({ comment_id: qaComment.id, member_id: qa.id, member_name: qa.full_name, vote_type: 'thumbs_up', created_at: Date.now() }).execute();
      // Decisions as the decision service writes them, by the admin: recording one through the API
      // would sign Avery in, and this file counts Avery as a member who never does.
      for (const { component, outcome } of DECIDED) {
        await insertDecision(db, { componentId: component.id, outcome, rationale: 'Decided for the coverage matrix.', commentIds: [], suggestionIds: [], decidedBy: AVERY.name, at: Date.now() });
      }
      // Before any analytics call: the server keeps its answers until something they count changes.
      const today = dayOf(Date.now());
      await addActiveSeconds(db, seeded.get(DANA.name)?.id ?? 0, today, DANA_ACTIVE_SECONDS);
      await addActiveSeconds(db, seeded.get(CASEY.name)?.id ?? 0, today, CASEY_ACTIVE_SECONDS);
    } finally {
      await db.destroy();
    }

    // Dana comments through the comment panel (the server logs 'comment_added'), then once more through the API.
    const dana = await open(DANA, '/');
    let dialog = await openCardPanel(dana.page, COMMENTED.title);
    await dialog.getByRole('textbox', { name: 'Your comment' }).fill('Correlation windows should be configurable per service tier.');
    const [created] = await Promise.all([
      dana.page.waitForResponse((response) => isPath('/api/comments')(response) && response.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Post comment' }).click(),
    ]);
    expect(created.status()).toBe(201);
    await postComment(dana.page, COMMENTED.id, 'And the correlation rules need a dry-run mode.');

    // Casey comments on another component (the QA member's comment and vote were written above).
    const casey = await open(CASEY, '/');
    await postComment(casey.page, CASEY_COMPONENT.id, 'MTTR should be split into time-to-mitigate and time-to-resolve.');

    // Bob votes on Dana's first comment in the panel (the server logs 'vote_cast').
    const bob = await open(BOB, '/');
    dialog = await openCardPanel(bob.page, COMMENTED.title);
    const danas = dialog.getByRole('article').filter({ hasText: 'Correlation windows should be configurable' });
    const [voted] = await Promise.all([
      bob.page.waitForResponse((response) => /^\/api\/comments\/\d+\/vote$/.test(new URL(response.url()).pathname)),
      danas.getByRole('button', { name: /thumbs up$/ }).click(),
    ]);
    expect(voted.status()).toBe(200);

    for (const entry of [dana, casey, bob]) expectNoConsoleErrors(entry);
    // Their sessions stay: they still count as active for the next five minutes.
    await Promise.all([dana, casey, bob].map((entry) => entry.context.close()));
  });

  afterAll(async () => {
    await Promise.all(opened.map((entry) => entry.context.close()));
    await browser.close();
    await server.stop();
  });

  it('has its title and Back to Main, and four tabs reachable by click and by arrow keys; ?tab= survives a reload', async () => {
    const alice = await openAnalytics('Overview');
    const { page } = alice;
    expect(await page.getByText('How the team takes part in the review', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('tablist', { name: 'Analytics sections' }).getByRole('tab').allInnerTexts()).toEqual(TABS.map((entry) => entry.label));
    expect(await selectedTab(page)).toBe('Overview');

    // By click: each tab shows its own content and writes itself into the URL.
    for (const { label, id } of [...TABS].reverse()) {
      await tab(page, label).click();
      await tabShown(page, label);
      expect(await selectedTab(page)).toBe(label);
      expect(new URL(page.url()).searchParams.get('tab')).toBe(id);
      expect(await page.getByRole('tabpanel').count()).toBe(1);
    }

    // By keyboard: arrow keys move along the list and wrap; Home and End jump. (Radix moves focus
    // in a timer after each key, so each key waits for the one before to land.)
    await tab(page, 'Overview').focus();
    for (const [key, label] of [
      ['ArrowRight', 'Users'],
      ['ArrowRight', 'Activity'],
      ['ArrowRight', 'Coverage'],
      ['ArrowRight', 'Overview'],
      ['ArrowLeft', 'Coverage'],
      ['Home', 'Overview'],
      ['End', 'Coverage'],
      ['ArrowLeft', 'Activity'],
    ] as const) {
      await page.keyboard.press(key);
      await expect.poll(() => selectedTab(page)).toBe(label);
      await expect.poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe(label);
      await tabShown(page, label);
      expect(new URL(page.url()).searchParams.get('tab')).toBe(TABS.find((entry) => entry.label === label)?.id);
    }

    // A reload opens the tab the URL names.
    await page.reload();
    await tabShown(page, 'Activity');
    expect(await selectedTab(page)).toBe('Activity');
    expect(new URL(page.url()).search).toBe('?tab=activity');
    // An unknown tab opens the overview.
    await page.goto(`${server.baseUrl}/analytics?tab=nonsense`);
    await tabShown(page, 'Overview');
    expect(await selectedTab(page)).toBe('Overview');

    // Back to Main goes to the review page.
    await page.getByRole('link', { name: 'Back to Main', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Welcome, Alice' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expectNoConsoleErrors(alice);
    await alice.context.close();
  });

  it('Overview: team totals, the top contributors by comments with their active time, the chart and its table', async () => {
    const alice = await openAnalytics('Overview');
    const { page } = alice;
    const overview = panel(page, 'Overview');

    const totals = overview.getByRole('region', { name: 'Team totals' });
    await totals.locator('dl').waitFor();
    const figures = await definitions(totals);
    // Five members (not the QA member), their three comments and one vote (not the QA member's), the seeded time.
    expect(figures).toEqual(['Members: 5', 'Comments: 3', 'Votes: 1', `Active time: ${hoursMinutes(DANA_ACTIVE_SECONDS + CASEY_ACTIVE_SECONDS)}`]);
    expect(figures[3]).toBe('Active time: 2h 17m');

    const top = overview.getByRole('region', { name: 'Top contributors' });
    expect(await top.getByText('The 5 members with the most comments, and their active time.', { exact: true }).isVisible()).toBe(true);
    const leaders = top.getByRole('list', { name: 'Top contributors' }).getByRole('listitem');
    // Most comments first; members without a comment are not listed. Read as a screen reader reads
    // them: the rank is hidden, the time is introduced as active time.
    const leaderLines = (await top.getByRole('list', { name: 'Top contributors' }).ariaSnapshot()).split('\n').slice(1).map((line) => line.trim());
    expect(leaderLines).toEqual([`- listitem: ${DANA.name} 2 comments , active time 2h 5m`, `- listitem: ${CASEY.name} 1 comment , active time 0h 12m`]);
    // On the page: the rank, the name, the comments and the time as 'Xh Ym' (with its words for screen readers).
    expect(await leaders.nth(0).innerText()).toMatch(/^1\s+Dana Demo\s+2 comments\s+, active time\s+2h 5m$/);
    expect(await leaders.nth(1).innerText()).toMatch(/^2\s+Casey Keys\s+1 comment\s+, active time\s+0h 12m$/);

    // The chart, drawn once the daily figures are there: a bar per day and series, the line, the legend.
    const daily = overview.getByRole('region', { name: 'The last 30 days' });
    const chart = daily.getByRole('figure', { name: 'Comments, votes and active time per day' });
    await chart.locator('svg').waitFor();
    expect((await chart.getByRole('list', { name: 'Legend' }).getByRole('listitem').allInnerTexts()).sort()).toEqual(['Active time', 'Comments', 'Votes']);
    expect(await chart.locator('[data-series="comments"]').count()).toBe(30);
    expect(await chart.locator('[data-series="votes"]').count()).toBe(30);
    expect(await chart.locator('[data-series="active-time"]').count()).toBe(1);
    // Today (the last day) has the 3 comments: the tallest comment bar, at the top of the count axis.
    expect(await chart.locator('[data-axis="count"]').allTextContents()).toEqual(['0', '1', '2', '3']);
    // Day labels never crowd each other: each at least 16 px from the next.
    const dayLabels = await page.evaluate<{ left: number; right: number }[]>(
      `[...document.querySelectorAll('[data-daily-chart] [data-axis="day"]')].map((label) => { const box = label.getBoundingClientRect(); return { left: box.left, right: box.right }; })`,
    );
    expect(dayLabels.length).toBeGreaterThan(1);
    for (const [index, box] of dayLabels.slice(1).entries()) expect(box.left - (dayLabels[index]?.right ?? 0)).toBeGreaterThanOrEqual(16);
    // Pointing at a day shows its figures.
    const lastBar = chart.locator('[data-series="comments"]').last();
    const barBox = await lastBar.boundingBox();
    await page.mouse.move((barBox?.x ?? 0) + (barBox?.width ?? 0), (barBox?.y ?? 0) + 2);
    await expect.poll(() => chart.getByText('Comments: 3', { exact: true }).isVisible()).toBe(true);
    expect(await chart.getByText('Active time: 2h 17m', { exact: true }).isVisible()).toBe(true);
    await page.mouse.move(0, 0);
    // The active-time axis (the right one) in hours and minutes: today's 2h 17m is its largest value.
    const timeTicks = () => chart.locator('[data-axis="time"]').allTextContents();
    // On one line each: a no-break space keeps "1h 30m" together.
    await expect.poll(timeTicks).toEqual(['0m', '30m', '1h', '1h\u00a030m', '2h', '2h\u00a030m']);
    expect(await daily.getByText(/^Comments, votes and active time per day, \w{3} \d{1,2} to \w{3} \d{1,2} \(UTC\)\.$/).isVisible()).toBe(true);

    expect(await accessibilityViolations(page)).toEqual([]);
    await shot(page, 'overview-desktop');

    // The same figures as a table, behind a disclosure: today (the last row) holds everything.
    const table = daily.getByRole('table', { name: 'Comments, votes and active time per day' });
    expect(await table.isVisible()).toBe(false);
    await daily.getByText('Show the figures as a table', { exact: true }).click();
    await table.waitFor();
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['DAY', 'COMMENTS', 'VOTES', 'ACTIVE TIME']);
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(30);
    expect(await cellNames(rows.last())).toEqual(['3', '1', '2h 17m']);
    expect(await cellNames(rows.first())).toEqual(['0', '0', '0h 0m']);
    await shot(page, 'overview-table-desktop');
    expectNoConsoleErrors(alice);
    await alice.context.close();
  });

  it('Overview: the figures table, once shown, has no accessibility violations (its scrolling box is reachable from the keyboard)', async () => {
    const alice = await openAnalytics('Overview');
    const { page } = alice;
    const daily = panel(page, 'Overview').getByRole('region', { name: 'The last 30 days' });
    await daily.getByText('Show the figures as a table', { exact: true }).click();
    await daily.getByRole('table', { name: 'Comments, votes and active time per day' }).waitFor();
    // Thirty days do not fit the box's 20rem: it scrolls, and a keyboard user must be able to scroll it.
    expect(await page.evaluate<boolean>(`(() => { const box = document.querySelector('details table').parentElement; return box.scrollHeight > box.clientHeight; })()`)).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(alice);
    await alice.context.close();
  });

  it('Users: sorts by comments, and a name opens the member’s detail with their timeline from the keyboard', async () => {
    const alice = await openAnalytics('Users');
    const { page } = alice;
    const users = panel(page, 'Users');
    const table = users.getByRole('table', { name: /^Members, sorted by/ });
    await table.waitFor();
    const names = () => table.locator('tbody th').allInnerTexts();
    const header = (label: string) => table.getByRole('columnheader', { name: label, exact: true });

    // By name first, A to Z; the QA member is not there.
    expect(await names()).toEqual(TEAM);
    expect(await header('Member').getAttribute('aria-sort')).toBe('ascending');
    expect(await header('Comments').getAttribute('aria-sort')).toBeNull();
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['MEMBER', 'LOGINS', 'COMMENTS', 'VOTES', 'ACTIVE TIME', 'LAST LOGIN']);
    const danaRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: DANA.name }) });
    expect((await cellNames(danaRow)).slice(1, 4)).toEqual(['2', '0', '2h 5m']);

    // Comments: most first, then (a second click) fewest first; ties keep name order.
    await header('Comments').getByRole('button').click();
    await expect.poll(() => header('Comments').getAttribute('aria-sort')).toBe('descending');
    expect(await header('Member').getAttribute('aria-sort')).toBeNull();
    expect(await names()).toEqual([DANA.name, CASEY.name, ALICE.name, AVERY.name, BOB.name]);
    expect(await table.locator('caption').textContent()).toBe('Members, sorted by comments, descending');
    await header('Comments').getByRole('button').click();
    await expect.poll(() => header('Comments').getAttribute('aria-sort')).toBe('ascending');
    expect(await names()).toEqual(TEAM);
    await header('Comments').getByRole('button').click();
    await expect.poll(() => names()).toEqual([DANA.name, CASEY.name, ALICE.name, AVERY.name, BOB.name]);
    await shot(page, 'users-desktop');

    // Dana's detail, opened with Enter: her figures and the entries her client logged.
    const opener = table.getByRole('button', { name: DANA.name, exact: true });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: DANA.name });
    await dialog.waitFor();
    expect(await dialog.getByText('Figures and recent activity', { exact: true }).isVisible()).toBe(true);
    const timeline = dialog.getByRole('list', { name: `Recent activity of ${DANA.name}` });
    await timeline.waitFor();
    const figures = await definitions(dialog);
    expect(figures).toEqual(['Logins: 1', 'Comments: 2', 'Votes: 0', 'Active time: 2h 5m']);
    const entries = timeline.getByRole('listitem');
    // Both of Dana's comments, the panel's and the API's: the server logs each one it stores.
    // As sentences, with the component's title (it arrives with its own query).
    await expect.poll(() => entries.filter({ hasText: `Commented on ${COMMENTED.title}` }).count()).toBe(2);
    expect(await entries.filter({ hasText: /^Viewed (the review|\d+ pages (between|at) )/ }).count()).toBeGreaterThanOrEqual(1);
    expect(await entries.filter({ hasText: 'Signed in' }).count()).toBe(1);
    // Newest first: the comment came after the sign-in and the page view.
    expect(await entries.first().innerText()).toMatch(/^Commented on /);
    // Only her own entries: no other member's vote; no raw keys or JSON.
    expect(await entries.filter({ hasText: /voted/i }).count()).toBe(0);
    expect(await timeline.innerText()).not.toMatch(/component id|comment_added|[{}]/);
    expect(await dialog.getByText('No activity yet.').count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await shot(page, 'users-detail-desktop');

    // Escape closes it, and focus goes back to her name.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe(DANA.name);

    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(alice);
    await alice.context.close();
  });

  it('Activity: the signed-in members are active now, and the recent log names who did what', async () => {
    const alice = await openAnalytics('Activity');
    const { page } = alice;
    const activity = panel(page, 'Activity');
    expect(await activity.getByText('Members seen in the last 5 minutes; updated every 30 seconds.', { exact: true }).isVisible()).toBe(true);

    const activeNow = activity.getByRole('list', { name: 'Active now' });
    await activeNow.waitFor();
    const sessions = activeNow.getByRole('listitem');
    // Every member signed in during this run (Alice once per page), never the QA member.
    const activeNames = await Promise.all((await sessions.all()).map((item) => item.locator('span').first().innerText()));
    expect(new Set(activeNames)).toEqual(new Set(MEMBERS.map((member) => member.name)));
    expect(await sessions.filter({ hasText: DANA.name }).first().innerText()).toMatch(/signed in .+, seen .+/);

    const log = activity.getByRole('list', { name: "The team's recent activity" });
    await log.waitFor();
    expect(await activity.getByText("The team's last 50 logged actions, newest first.", { exact: true }).isVisible()).toBe(true);
    const entries = log.getByRole('listitem');
    // Sentences with the component's title, once the titles' query has answered.
    await expect.poll(() => entries.filter({ hasText: `${DANA.name} commented on ${COMMENTED.title}` }).count()).toBe(2);
    expect(await entries.filter({ hasText: `${BOB.name} voted for a comment on ${COMMENTED.title}` }).count()).toBe(1);
    for (const member of MEMBERS) expect(await entries.filter({ hasText: `${member.name} signed in` }).count()).toBeGreaterThanOrEqual(1);
    expect(await entries.filter({ hasText: new RegExp(`^${ALICE.name} viewed (team analytics|\\d+ pages (between|at) )`) }).count()).toBeGreaterThanOrEqual(1);
    expect(await log.innerText()).not.toMatch(/component id|comment_added|vote_cast|thumbs_up|my vote|[{}]/);
    expect(await log.getByText(QA.name).count()).toBe(0);
    expect(await activeNow.getByText(QA.name).count()).toBe(0);

    expect(await accessibilityViolations(page)).toEqual([]);
    await shot(page, 'activity-desktop');
    expectNoConsoleErrors(alice);
    await alice.context.close();
  });

  it('Coverage: a row per component with its decision and a column per member, cells in words, the components not reviewed yet; the main page’s badges agree', async () => {
    const alice = await openAnalytics('Coverage');
    const { page } = alice;
    const coverage = panel(page, 'Coverage');

    const notReviewed = coverage.getByRole('region', { name: 'Not reviewed yet' });
    const open = notReviewed.getByRole('list', { name: 'Components nobody has commented on' });
    await open.waitFor();
    const total = REVIEWED_TITLES.length;
    expect(await notReviewed.getByText(`2 of ${total} components have comments.`, { exact: true }).isVisible()).toBe(true);
    expect(await open.getByRole('listitem').allInnerTexts()).toEqual(REVIEWED_TITLES.filter((title) => title !== COMMENTED.title && title !== CASEY_COMPONENT.title));
    expect(await open.getByText(UNCOMMENTED.title, { exact: true }).count()).toBe(1);
    expect(await open.getByText(COMMENTED.title, { exact: true }).count()).toBe(0);
    expect(await open.getByText(CASEY_COMPONENT.title, { exact: true }).count()).toBe(0);

    const whoReviewed = coverage.getByRole('region', { name: 'Who reviewed what' });
    const matrix = whoReviewed.getByRole('table', { name: /^Review coverage: each component \(rows\) with its decision, and the comments and votes of each member/ });
    await matrix.waitFor();
    // A column per member (not the QA member), a row per component in page order, its header the title and the decision.
    expect(await matrix.getByRole('columnheader').allInnerTexts()).toEqual(['COMPONENT', ...TEAM]);
    const titleOf = 'div > span:first-child';
    expect(await matrix.getByRole('rowheader').locator(titleOf).allInnerTexts()).toEqual(REVIEWED_TITLES);
    expect(await matrix.getByText(QA.name).count()).toBe(0);

    // Each cell says what that member did there, in words (the marks are hidden from screen readers).
    const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const row = (title: string) => matrix.getByRole('row').filter({ has: page.getByRole('rowheader').locator(titleOf, { hasText: exactly(title) }) });
    // The decision in the row header, as a screen reader reads it.
    const decisionOf = (title: string) => row(title).getByRole('rowheader').locator('[data-decision]').textContent();
    // Columns: Alice, Avery, Bob, Casey, Dana. The QA member's comment and vote on Event Management are not counted.
    const none = 'No comments or votes';
    await whoReviewed.getByText(`${DECIDED.length} of ${total} components decided`, { exact: true }).waitFor();
    expect(await cellNames(row(COMMENTED.title))).toEqual([none, none, '1 vote', none, '2 comments']);
    expect(await cellNames(row(CASEY_COMPONENT.title))).toEqual([none, none, none, '1 comment', none]);
    expect(await cellNames(row(UNCOMMENTED.title))).toEqual([none, none, none, none, none]);
    // The words are also the cells' tooltip.
    expect(await row(COMMENTED.title).locator('td').nth(4).locator('[title]').getAttribute('title')).toBe('2 comments');
    // Each row header says its decision in words: the two on record, every other one 'Not decided'.
    expect(await decisionOf(COMMENTED.title)).toBe('Decision: Accepted with changes');
    expect(await decisionOf(UNCOMMENTED.title)).toBe('Decision: Deferred');
    expect(await decisionOf(CASEY_COMPONENT.title)).toBe('Decision: Not decided');
    const decisions = await matrix.getByRole('rowheader').locator('[data-decision]').allTextContents();
    expect(decisions).toHaveLength(total);
    expect(decisions.filter((words) => words !== 'Decision: Not decided').sort()).toEqual(DECIDED.map((entry) => `Decision: ${entry.words}`).sort());

    expect(await accessibilityViolations(page)).toEqual([]);
    await shot(page, 'coverage-desktop');

    // While the decisions are on their way (a reload, with their request held), no component reads 'Not decided'.
    const release = await holdRequests(page, '**/api/comments/counts');
    await page.reload();
    await matrix.waitFor();
    await whoReviewed.getByText('Loading the decisions…', { exact: true }).waitFor({ state: 'attached' });
    expect(await matrix.locator('[data-decision]').count()).toBe(0);
    expect(await whoReviewed.getByText(/components decided$/).count()).toBe(0);
    release();
    await whoReviewed.getByText(`${DECIDED.length} of ${total} components decided`, { exact: true }).waitFor();
    expect(await decisionOf(COMMENTED.title)).toBe('Decision: Accepted with changes');

    // The main page marks the card nobody has commented on, and not the commented ones.
    await page.getByRole('link', { name: 'Back to Main', exact: true }).click();
    await card(page, UNCOMMENTED.title).waitFor();
    await expect.poll(() => card(page, UNCOMMENTED.title).getByText('Not reviewed yet', { exact: true }).count()).toBe(1);
    expect(await card(page, UNCOMMENTED.title).getByText('Not reviewed yet', { exact: true }).isVisible()).toBe(true);
    await card(page, COMMENTED.title).getByText('3 comments').waitFor();
    expect(await card(page, COMMENTED.title).getByText('Not reviewed yet', { exact: true }).count()).toBe(0);
    // The cards carry the same decisions as the matrix.
    for (const { component, outcome, words } of DECIDED) expect(await card(page, component.title).locator(`[data-decision="${outcome}"]`).innerText()).toContain(words);
    expect(await card(page, CASEY_COMPONENT.title).locator('[data-decision]').count()).toBe(0);
    expect(await card(page, CASEY_COMPONENT.title).getByText('Not reviewed yet', { exact: true }).count()).toBe(0);
    expectNoConsoleErrors(alice);
    await alice.context.close();
  });

  it('on a phone: Overview, Users and Activity fit the width; Overview has no accessibility violations', async () => {
    for (const label of ['Overview', 'Users', 'Activity'] as const) {
      const alice = await openAnalytics(label, PHONE);
      const { page } = alice;
      if (label === 'Overview') await panel(page, 'Overview').getByRole('figure', { name: 'Comments, votes and active time per day' }).locator('svg').waitFor();
      if (label === 'Users') {
        const table = panel(page, 'Users').getByRole('table');
        await table.waitFor();
        // A phone keeps the name, active time and last login; the other figures are in the member's detail.
        expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['MEMBER', 'ACTIVE TIME', 'LAST LOGIN']);
        const danaRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: DANA.name }) });
        expect(await danaRow.innerText()).toMatch(/Dana Demo\s+2h 5m\s+\S/);
      }
      if (label === 'Activity') await panel(page, 'Activity').getByRole('list', { name: "The team's recent activity" }).waitFor();
      await shot(page, `${label.toLowerCase()}-phone`);
      expect(await hasHorizontalPageScroll(page), `${label} scrolls sideways`).toBe(false);
      if (label === 'Overview') expect(await accessibilityViolations(page)).toEqual([]);
      expectNoConsoleErrors(alice);
      await alice.context.close();
    }
  });

  it('on a phone: Coverage fits the width, its matrix scrolls in its own region, and it has no accessibility violations', async () => {
    const alice = await openAnalytics('Coverage', PHONE);
    const { page } = alice;
    const matrix = panel(page, 'Coverage').getByRole('table', { name: /^Review coverage/ });
    await matrix.waitFor();
    // The shot shows the decisions, not their placeholders.
    await panel(page, 'Coverage').getByText(`${DECIDED.length} of ${REVIEWED_TITLES.length} components decided`, { exact: true }).waitFor();
    await shot(page, 'coverage-phone');
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    // Five member columns do not fit 390 px: the matrix scrolls sideways inside its panel...
    expect(await page.evaluate<boolean>(`(() => { const table = document.querySelector('table'); return table.parentElement.scrollWidth > table.parentElement.clientWidth; })()`)).toBe(true);
    // ...and a region that scrolls must be reachable from the keyboard (axe: scrollable-region-focusable).
    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(alice);
    await alice.context.close();
  });
});
