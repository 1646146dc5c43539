import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  PHONE,
  TAB_HEADINGS,
  TAB_IDS,
  TAB_LABELS,
  adminActionsBar,
  enterAdminPassword,
  expectNoConsoleErrors,
  focused,
  hasHorizontalPageScroll,
  panel,
  scrollToTop,
  selectedTab,
  shot,
  tab,
  unlockAdminActions,
  unlockDialog,
  useAdminPanel,
} from './admin-panel.js';
import { accessibilityViolations } from './axe.js';
import { E2E_SECRETS, enrollWithLink, signIn, type RunningServer } from './harness.js';
import { fetchFromPage, holdRequests } from './page-api.js';
import { closeToasts, expectToast, toasts } from './toasts.js';

// The admin panel as the admin and as a member: access, tabs, team management, PIN resets and the
// audit trail, on one server whose history the tests build up in order (the audit trail, last,
// lists what the tests before it did). The expected copy is written out rather than imported, so
// the test checks the product's wording. Browser-side code is passed to page.evaluate as strings:
// this file is type-checked for Node, without the DOM library.

const MEMBER = { name: 'Morgan Member', pin: '3691' };
/** Added through the panel; enrolls through the link the panel shows. */
const NEWCOMER = { name: 'Jordan Newcomer', pin: '5820' };
/** Forgets the PIN; the admin's reset hands over a link for this new one. */
const FORGETFUL = { name: 'Frankie Forgets', pin: '4826', newPin: '7093' };
/** Signs in many times, so that the audit trail has more than one page. */
const FREQUENT = { name: 'Pat Paging', pin: '6139' };
const PAGING_SIGN_INS = 30;
/** Has no PIN: the audit test issues this member a new enrollment link. */
const UNENROLLED = { name: 'Nina Nolink' };

function memberRow(page: Page, name: string): Locator {
  return page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ has: page.getByRole('rowheader').filter({ hasText: name }) });
}

function pinResetRow(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'PIN reset requests' }).getByRole('listitem').filter({ hasText: name });
}

/** Signs in through the API alone (an audit entry, no browser): the cheap way to fill the trail. */
async function apiSignIn(server: RunningServer, member: { name: string; pin: string }) {
  const response = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: E2E_SECRETS.TEAM_PASSWORD, name: member.name, pin: member.pin }),
  });
  expect(response.status, await response.text()).toBe(200);
}

describe('admin panel: access, tabs, team, PIN resets and audit trail', () => {
  const fixture = useAdminPanel([MEMBER, FORGETFUL, FREQUENT, UNENROLLED]);
  const { openPage, openAdmin } = fixture;
  let server: RunningServer;
  beforeAll(() => {
    ({ server } = fixture);
  });
  /** The admin actions the tests performed, oldest first, as the audit trail's detail states them. */
  const adminActions: string[] = [];

  it('refuses a member: Access Denied naming the admin, no Admin link, and the API answers 403', async () => {
    const member = await openPage();
    const { page } = member;
    await signIn(page, server, MEMBER);
    const mainNav = page.getByRole('navigation', { name: 'Main' });
    await mainNav.getByRole('link', { name: 'Home', exact: true }).or(mainNav.getByRole('link', { name: 'Design Principles' })).first().waitFor();
    expect(await mainNav.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);

    await page.goto(`${server.baseUrl}/admin`);
    await page.getByRole('heading', { level: 2, name: 'Access Denied' }).waitFor();
    await page.getByText('Admin access is restricted to Avery Admin only.', { exact: true }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Admin Panel');
    expect(await page.getByRole('tablist').count()).toBe(0);
    expect(await adminActionsBar(page).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    // The page itself asked for nothing an admin would.
    expect(member.apiCalls.filter((call) => call.includes('/api/admin/'))).toEqual([]);

    // The server decides: the member's own session is refused the admin call.
    const refused = await fetchFromPage(page, 'GET', '/api/admin/members');
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain(ADMIN.name);

    await shot(page, 'access-denied-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoConsoleErrors(member, [403]);

    // The admin, by contrast, has the link.
    const admin = await openPage();
    await signIn(admin.page, server, ADMIN);
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).waitFor();
    await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).click();
    await tab(admin.page, 'Team Management').waitFor();
    expect(new URL(admin.page.url()).pathname).toBe('/admin');
    await admin.context.close();
  });

  it('shows the seven tabs to the admin, reachable by click and by arrow keys, and ?tab= survives a reload', async () => {
    const admin = await openAdmin('Team Management');
    const { page } = admin;
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Admin Panel');
    await page.getByText('Manage team members, QA testing, and system monitoring', { exact: true }).waitFor();
    expect(await page.getByRole('tablist', { name: 'Admin sections' }).getByRole('tab').allInnerTexts()).toEqual([...TAB_LABELS]);
    expect(await selectedTab(page)).toBe('Team Management');

    // By click: each tab shows its own content and writes itself into the URL.
    for (const label of [...TAB_LABELS].reverse()) {
      await tab(page, label).click();
      await panel(page, label).getByRole('heading', { level: 2, name: TAB_HEADINGS[label], exact: true }).waitFor();
      expect(await selectedTab(page)).toBe(label);
      expect(new URL(page.url()).searchParams.get('tab')).toBe(TAB_IDS[label]);
      expect(await page.getByRole('tabpanel').count()).toBe(1);
    }

    // By keyboard: arrow keys move along the tab list (and wrap), Home and End jump.
    await tab(page, 'Team Management').focus();
    for (const label of TAB_LABELS.slice(1)) {
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => selectedTab(page)).toBe(label);
      await expect.poll(() => page.evaluate<string | null>(`document.activeElement?.textContent ?? null`)).toBe(label);
      await panel(page, label).getByRole('heading', { level: 2, name: TAB_HEADINGS[label], exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('tab')).toBe(TAB_IDS[label]);
    }
    // (Radix moves focus in a timer after each key, so each key waits for the one before to land.)
    for (const [key, expected] of [
      ['ArrowRight', 'Team Management'],
      ['ArrowLeft', 'Audit Trail'],
      ['Home', 'Team Management'],
      ['End', 'Audit Trail'],
      ['ArrowLeft', 'System'],
      ['ArrowLeft', 'AI Prompts'],
    ] as const) {
      await page.keyboard.press(key);
      await expect.poll(() => selectedTab(page)).toBe(expected);
      await expect.poll(() => page.evaluate<string | null>(`document.activeElement?.textContent ?? null`)).toBe(expected);
    }

    // A reload opens the tab the URL names.
    await page.reload();
    await panel(page, 'AI Prompts').getByRole('heading', { level: 2, name: 'Current Active Prompt' }).waitFor();
    expect(await selectedTab(page)).toBe('AI Prompts');
    expect(new URL(page.url()).search).toBe('?tab=ai-prompts');
    // Switching replaces the history entry: Back leaves the panel rather than stepping through tabs.
    await page.goto(`${server.baseUrl}/admin?tab=system`);
    await panel(page, 'System').getByRole('heading', { level: 2, name: 'Security Model' }).waitFor();
    await tab(page, 'PIN Resets').click();
    await panel(page, 'PIN Resets').waitFor();
    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('?tab=ai-prompts');
    // An unknown tab opens Team Management.
    await page.goto(`${server.baseUrl}/admin?tab=nonsense`);
    await panel(page, 'Team Management').getByRole('heading', { level: 2, name: 'Add Team Member' }).waitFor();
    expect(await selectedTab(page)).toBe('Team Management');
    expectNoConsoleErrors(admin);
    expect(admin.dialogs).toEqual([]);
    await admin.context.close();
  });

  it('Team Management: one unlock for every action; adds a member whose link enrolls them, refuses a taken name, deactivates, reactivates and resets a PIN', { timeout: 120_000 }, async () => {
    const admin = await openAdmin('Team Management');
    const { page, context } = admin;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await page.getByRole('table', { name: 'Team members' }).waitFor();
    // No QA test user card: a self-test run creates that member itself (the QA tab says so).
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(['Add Team Member', 'Team Members']);
    expect(await page.getByRole('button', { name: /Initialize QA User/i }).count()).toBe(0);

    // ---- Locked at first: one control says so; no card has a password field of its own.
    const bar = adminActionsBar(page);
    const barStatus = bar.getByRole('status');
    expect(await barStatus.innerText()).toBe('Admin actions are locked. Unlock them once with the admin password; this tab keeps it in memory for 15 minutes.');
    expect(await page.getByLabel(/admin password/i).count()).toBe(0);

    // ---- Add Member needs a name; pressed while locked, it asks for the password first.
    const name = page.getByLabel('Member full name', { exact: true });
    const add = page.getByRole('button', { name: /^(Add Member|Adding\.\.\.)$/ });
    expect(await add.isDisabled()).toBe(true);
    await name.fill('   ');
    expect(await add.isDisabled()).toBe(true);
    await name.fill(NEWCOMER.name);
    expect(await add.isEnabled()).toBe(true);
    await shot(page, 'team-add-ready-desktop');

    // ---- Adding: the unlock dialog, then 'Adding...' while the call is held, then 'Success', the name cleared and the link shown once.
    const release = await holdRequests(page, '**/api/admin/add-member');
    const addAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/admin/add-member');
    await add.click();
    const dialog = unlockDialog(page);
    await dialog.waitFor();
    const field = dialog.getByLabel('Admin password', { exact: true });
    expect(await field.getAttribute('type')).toBe('password');
    await focused(page, field);
    expect(admin.apiCalls.filter((call) => call.endsWith('/add-member'))).toEqual([]);
    await shot(page, 'team-unlock-dialog-desktop', { fullPage: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    await enterAdminPassword(page);
    await page.getByRole('button', { name: 'Adding...' }).waitFor();
    expect(await add.isDisabled()).toBe(true);
    expect(await barStatus.innerText()).toMatch(/^Admin actions are unlocked until \d{1,2}:\d{2}\s?[AP]M, in this tab only\.$/);
    expect(await bar.getByRole('button', { name: 'Lock admin actions' }).isVisible()).toBe(true);
    release();
    expect((await addAnswer).status()).toBe(201);
    await page.unroute('**/api/admin/add-member');
    adminActions.push(`add member ${NEWCOMER.name}`);
    await expectToast(page, 'Success', `${NEWCOMER.name} has been added to the team. Send them the enrollment link below; it works once.`);
    // The form clears (and the link shows) once the member list is read again, a moment after the toast.
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toBe('');
    await page.getByRole('button', { name: 'Add Member' }).waitFor();
    // Kept in memory only: not on the page, not in web storage.
    expect(await page.locator('body').innerText()).not.toContain(E2E_SECRETS.ADMIN_PASSWORD);
    expect(await page.evaluate<string>('JSON.stringify([Object.values(localStorage), Object.values(sessionStorage)])')).not.toContain(E2E_SECRETS.ADMIN_PASSWORD);
    const linkPanel = page.getByRole('region', { name: `Enrollment link for ${NEWCOMER.name}` });
    await linkPanel.waitFor();
    expect(await page.getByRole('region', { name: /^Enrollment link for / }).count()).toBe(1);
    const link = await linkPanel.getByLabel('Enrollment link', { exact: true }).inputValue();
    // Built on PUBLIC_URL, which the e2e server leaves at its default, http://localhost:<PORT>.
    expect(link).toMatch(new RegExp(`^http://localhost:${new URL(server.baseUrl).port}/enroll/[A-Za-z0-9_-]{43}$`));
    expect(await linkPanel.innerText()).toMatch(/works once/);
    await closeToasts(page);
    await linkPanel.getByRole('button', { name: 'Copy' }).click();
    await expectToast(page, 'Copied', 'The enrollment link is on the clipboard.');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(link);
    // The member list follows: a new row, no PIN yet, enrollment pending.
    const newcomerRow = memberRow(page, NEWCOMER.name);
    await newcomerRow.waitFor();
    expect(await newcomerRow.getByText('No PIN', { exact: true }).isVisible()).toBe(true);
    expect(await newcomerRow.getByText(/^Enrollment pending/).isVisible()).toBe(true);
    expect(await newcomerRow.getByText('Never', { exact: true }).isVisible()).toBe(true);
    await closeToasts(page);
    await shot(page, 'team-link-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    // Closed, it is gone for good: not on the page, not after a reload.
    await linkPanel.getByRole('button', { name: 'Done, close the link' }).click();
    await linkPanel.waitFor({ state: 'detached' });
    await page.reload();
    await memberRow(page, NEWCOMER.name).waitFor();
    expect(await page.getByRole('region', { name: /^Enrollment link for / }).count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(link);
    // The password went with the page it was typed in: memory only.
    await barStatus.getByText(/^Admin actions are locked\./).waitFor();
    await unlockAdminActions(page);

    // ---- The link, opened in a fresh browser, leads to PIN creation for that member, who is then signed in.
    const newcomer = await openPage();
    const enrolled = await enrollWithLink(newcomer.page, link, NEWCOMER.pin);
    expect(enrolled).toEqual({ name: NEWCOMER.name, toastTitle: 'PIN Setup Complete!', toastText: `Welcome, ${NEWCOMER.name}! Your PIN has been set up successfully.` });
    await newcomer.page.getByRole('heading', { name: 'Welcome, Jordan' }).waitFor();
    // Used up: a second browser opening it cannot create a PIN with it.
    const second = await openPage();
    await second.page.goto(link);
    await second.page.getByText(/^This enrollment link no longer works: it was used already/).waitFor();
    await second.page.getByRole('heading', { level: 1, name: 'Team Sign In' }).waitFor();
    expect(await second.page.getByRole('button', { name: 'Create PIN and Sign In' }).count()).toBe(0);
    await second.context.close();
    // The admin's list shows the PIN once the tab is shown again; the unlock outlives the visit.
    await tab(page, 'System').click();
    await tab(page, 'Team Management').click();
    await memberRow(page, NEWCOMER.name).getByText('PIN set', { exact: true }).waitFor();
    expect(await memberRow(page, NEWCOMER.name).getByText('Never', { exact: true }).count()).toBe(0);

    // ---- A taken name: 'Error' with the server's reason; the name stays for correcting.
    await closeToasts(page);
    await page.getByLabel('Member full name', { exact: true }).fill(NEWCOMER.name.toUpperCase());
    await page.getByRole('button', { name: 'Add Member' }).click();
    const refusedToast = await expectToast(page, 'Error', `${NEWCOMER.name} is already a team member`);
    expect(await refusedToast.getAttribute('class')).toContain('destructive');
    expect(await page.getByLabel('Member full name', { exact: true }).inputValue()).toBe(NEWCOMER.name.toUpperCase());
    expect(await page.getByRole('region', { name: /^Enrollment link for / }).count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: NEWCOMER.name }).count()).toBe(1);
    await page.getByLabel('Member full name', { exact: true }).fill('');
    await closeToasts(page);

    // ---- Deactivate (after a confirmation): the member's open page turns to the sign-in screen by itself.
    await newcomer.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Design Principles' }).waitFor();
    const row = memberRow(page, NEWCOMER.name);
    await row.getByRole('button', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Deactivate ${NEWCOMER.name}?` });
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('signed out on every device');
    // Focus starts on Cancel: Enter alone never confirms.
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe('Cancel');
    await shot(page, 'team-deactivate-confirm-desktop', { fullPage: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await focused(page, row.getByRole('button', { name: 'Deactivate' }));
    expect(admin.apiCalls.filter((call) => call.endsWith('/active'))).toEqual([]);
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    adminActions.push(`deactivate ${NEWCOMER.name}`);
    await expectToast(page, 'Success', `${NEWCOMER.name} has been deactivated and signed out everywhere.`);
    await row.getByText('Deactivated', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Reactivate' }).waitFor();
    // Focus came back to the row's button (the same one, now Reactivate).
    await focused(page, row.getByRole('button', { name: 'Reactivate' }));
    // Deactivated: no enrollment link or PIN reset to hand out, only Reactivate.
    expect(await row.getByRole('button', { name: /^(New enrollment link|Reset PIN)$/ }).count()).toBe(0);

    // The member's open review page learns without a click: its live stream ends, the reconnect is
    // refused, and the page asks who is signed in (nobody).
    const signInScreen = newcomer.page.getByRole('heading', { level: 1, name: 'Team Sign In' }).or(newcomer.page.getByRole('heading', { level: 1, name: 'Welcome Back' }));
    await signInScreen.waitFor({ timeout: 30_000 });
    // Signing in is refused while deactivated.
    await expect(signIn(newcomer.page, server, NEWCOMER)).rejects.toThrow(/failed: 401/);
    await closeToasts(newcomer.page);

    // ---- Reactivate restores sign-in.
    await closeToasts(page);
    await row.getByRole('button', { name: 'Reactivate' }).click();
    adminActions.push(`reactivate ${NEWCOMER.name}`);
    await expectToast(page, 'Success', `${NEWCOMER.name} can sign in again.`);
    await row.getByText('Active', { exact: true }).waitFor();
    await signIn(newcomer.page, server, NEWCOMER);
    await newcomer.page.getByRole('heading', { name: /^Welcome, Jordan/ }).waitFor();
    // Active again with a PIN: Reset PIN is offered, a new enrollment link is not.
    await row.getByRole('button', { name: 'Reset PIN' }).waitFor();
    expect(await row.getByRole('button', { name: 'New enrollment link' }).count()).toBe(0);

    // ---- Reset PIN from the list, without any request of the member's: asked first; Cancel gives focus back.
    await closeToasts(page);
    const morganRow = memberRow(page, MEMBER.name);
    const resetPin = morganRow.getByRole('button', { name: 'Reset PIN' });
    await resetPin.click();
    const confirmReset = page.getByRole('alertdialog', { name: `Reset the PIN of ${MEMBER.name}?` });
    await confirmReset.waitFor();
    expect(await confirmReset.innerText()).toContain('signed out on every device');
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe('Cancel');
    await shot(page, 'team-reset-pin-confirm-desktop', { fullPage: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await confirmReset.waitFor({ state: 'detached' });
    await focused(page, resetPin);
    expect(admin.apiCalls.filter((call) => call.endsWith('/reset-pin'))).toEqual([]);
    await resetPin.click();
    await confirmReset.getByRole('button', { name: 'Reset PIN' }).click();
    adminActions.push(`reset the PIN of ${MEMBER.name}`);
    await expectToast(
      page,
      'PIN Reset Successful',
      `The PIN of ${MEMBER.name} has been cleared and they are signed out everywhere. Send them the enrollment link below to create a new PIN.`,
    );
    const resetLink = page.getByRole('region', { name: `Enrollment link for ${MEMBER.name}` });
    await resetLink.waitFor();
    expect(await resetLink.getByLabel('Enrollment link', { exact: true }).inputValue()).toMatch(/\/enroll\/[A-Za-z0-9_-]{43}$/);
    await morganRow.getByText('No PIN', { exact: true }).waitFor();
    // The same button now offers the new member's path, and kept the focus.
    const newLink = morganRow.getByRole('button', { name: 'New enrollment link' });
    await newLink.waitFor();
    await focused(page, newLink);
    await resetLink.getByRole('button', { name: 'Done, close the link' }).click();

    // ---- A wrong password: the first action it is used for locks the actions again, and says so.
    await closeToasts(page);
    await bar.getByRole('button', { name: 'Lock admin actions' }).click();
    await barStatus.getByText(/^Admin actions are locked\./).waitFor();
    await unlockAdminActions(page, 'not-the-admin-password');
    await newLink.click();
    await expectToast(page, 'Wrong admin password', 'Admin actions are locked again. Unlock them with the right password.');
    await barStatus.getByText('The admin password was wrong, so admin actions are locked again. Unlock them with the right password.', { exact: true }).waitFor();
    expect(await page.getByRole('region', { name: /^Enrollment link for / }).count()).toBe(0);
    await closeToasts(page);
    await scrollToTop(page, page.getByRole('tablist', { name: 'Admin sections' }));
    await shot(page, 'team-wrong-password-desktop', { fullPage: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    await unlockAdminActions(page);
    await barStatus.getByText(/^Admin actions are unlocked until/).waitFor();

    await closeToasts(page);
    await shot(page, 'team-desktop');
    expect(await hasHorizontalPageScroll(page)).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- On a phone: the table scrolls inside its card, never the page.
    const phone = await openAdmin('Team Management', PHONE);
    await memberRow(phone.page, NEWCOMER.name).waitFor();
    expect(await hasHorizontalPageScroll(phone.page)).toBe(false);
    await shot(phone.page, 'team-mobile');
    await shot(phone.page, 'team-mobile-viewport', { fullPage: false });
    // Squeezed columns keep their badges and headings on one line ('PIN set', 'Last sign-in').
    const phoneTable = phone.page.getByRole('table', { name: 'Team members' });
    for (const badge of await phoneTable.locator('tbody').getByText(/^(PIN set|No PIN|Active|Member|Admin)$/).all()) expect((await badge.boundingBox())?.height).toBeLessThan(30);
    expect((await phoneTable.getByRole('columnheader', { name: 'Last sign-in' }).boundingBox())?.height).toBeLessThan(40);
    await scrollToTop(phone.page, phone.page.getByRole('heading', { level: 2, name: 'Team Members' }));
    await shot(phone.page, 'team-mobile-table', { fullPage: false });
    expect(await accessibilityViolations(phone.page)).toEqual([]);

    expectNoConsoleErrors(admin, [403, 409]);
    expectNoConsoleErrors(newcomer);
    expectNoConsoleErrors(phone);
    for (const entry of [admin, newcomer, phone]) expect(entry.dialogs).toEqual([]);
    for (const entry of [admin, newcomer, phone]) await entry.context.close();
  });

  it('PIN Resets: a Forgot PIN request appears live; resetting needs the admin password and hands over a working link', { timeout: 90_000 }, async () => {
    const admin = await openAdmin('PIN Resets');
    const { page } = admin;
    const tabPanel = panel(page, 'PIN Resets');
    await tabPanel.getByText('No pending PIN reset requests', { exact: true }).waitFor();
    expect(await page.getByRole('list', { name: 'PIN reset requests' }).count()).toBe(0);
    await shot(page, 'pin-resets-empty-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- The member asks on the sign-in screen, while the admin's tab is open.
    const member = await openPage();
    await member.page.goto(`${server.baseUrl}/`);
    await member.page.getByRole('heading', { level: 1, name: 'Team Sign In' }).waitFor();
    await member.page.getByRole('button', { name: 'Forgot your PIN?' }).click();
    await member.page.getByRole('heading', { level: 1, name: 'Reset PIN' }).waitFor();
    await member.page.getByRole('combobox', { name: 'Name' }).fill(FORGETFUL.name);
    await member.page.getByRole('button', { name: 'Request PIN Reset' }).click();
    await expectToast(
      member.page,
      'Request sent',
      'Your request is with the admin, who will send you an enrollment link to create your PIN. (A name that is not on the team gets no link.)',
    );

    // Without a reload: the live event (or the 5 s poll) brings it.
    const row = pinResetRow(page, FORGETFUL.name);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getByText('Pending', { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText(/^Requested /).isVisible()).toBe(true);
    expect(await tabPanel.getByText('No pending PIN reset requests', { exact: true }).count()).toBe(0);
    await shot(page, 'pin-resets-pending-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- Locked: the password is asked first; Cancel sends nothing and gives focus back.
    expect(await panel(page, 'PIN Resets').getByText(/Enter the admin password/).count()).toBe(0);
    const reset = row.getByRole('button', { name: `Reset PIN of ${FORGETFUL.name}` });
    await reset.click();
    await unlockDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await unlockDialog(page).waitFor({ state: 'detached' });
    await focused(page, reset);
    expect(admin.apiCalls.filter((call) => call.includes('/resolve-pin-reset/'))).toEqual([]);

    // ---- Unlocked, then asked to confirm: reset, a fresh enrollment link, and the row resolved by the admin.
    await reset.click();
    await enterAdminPassword(page);
    const confirm = page.getByRole('alertdialog', { name: `Reset the PIN of ${FORGETFUL.name}?` });
    await confirm.waitFor();
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe('Cancel');
    await shot(page, 'pin-resets-confirm-desktop', { fullPage: false });
    expect(await accessibilityViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Reset PIN' }).click();
    adminActions.push(`reset the PIN of ${FORGETFUL.name}`);
    await expectToast(
      page,
      'PIN Reset Successful',
      `The PIN of ${FORGETFUL.name} has been cleared and they are signed out everywhere. Send them the enrollment link below to create a new PIN.`,
    );
    const linkPanel = page.getByRole('region', { name: `Enrollment link for ${FORGETFUL.name}` });
    await linkPanel.waitFor();
    const link = await linkPanel.getByLabel('Enrollment link', { exact: true }).inputValue();
    expect(link).toMatch(/\/enroll\/[A-Za-z0-9_-]{43}$/);
    await row.getByText('Resolved', { exact: true }).waitFor();
    expect(await row.innerText()).toMatch(/resolved .+ by Avery Admin/);
    expect(await row.getByRole('button', { name: /^Reset PIN/ }).count()).toBe(0);
    await tabPanel.getByText('No pending PIN reset requests', { exact: true }).waitFor();
    await closeToasts(page);
    await shot(page, 'pin-resets-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- The link works: the member creates a new PIN and is signed in; the old PIN no longer does.
    const oldPin = await fetch(`${server.baseUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: E2E_SECRETS.TEAM_PASSWORD, name: FORGETFUL.name, pin: FORGETFUL.pin }),
    });
    expect(oldPin.status).not.toBe(200);
    const fresh = await openPage();
    const enrolled = await enrollWithLink(fresh.page, link, FORGETFUL.newPin);
    expect(enrolled.name).toBe(FORGETFUL.name);
    expect(enrolled.toastTitle).toBe('PIN Setup Complete!');
    await fresh.page.getByRole('heading', { name: 'Welcome, Frankie' }).waitFor();

    expectNoConsoleErrors(admin);
    expectNoConsoleErrors(fresh);
    for (const entry of [admin, member, fresh]) await entry.context.close();
  });

  it('Audit Trail: sign-ins and admin actions, newest first, filtered by event and member, in pages of 25', { timeout: 120_000 }, async () => {
    // More than a page of entries, cheaply: sign-ins through the API.
    for (let count = 0; count < PAGING_SIGN_INS; count += 1) await apiSignIn(server, FREQUENT);

    const admin = await openAdmin('Team Management');
    const { page } = admin;
    // One admin action of this test's own: a new enrollment link for a member without a PIN.
    await memberRow(page, UNENROLLED.name).getByRole('button', { name: 'New enrollment link' }).click();
    await enterAdminPassword(page);
    adminActions.push(`new enrollment link for ${UNENROLLED.name}`);
    await expectToast(page, 'Success', `A new enrollment link for ${UNENROLLED.name}; any earlier link no longer works.`);
    await page.getByRole('region', { name: `Enrollment link for ${UNENROLLED.name}` }).getByRole('button', { name: 'Done, close the link' }).click();
    await closeToasts(page);

    await tab(page, 'Audit Trail').click();
    const tabPanel = panel(page, 'Audit Trail');
    const table = tabPanel.getByRole('table', { name: /^Audit trail, page \d+$/ });
    const pageStatus = tabPanel.getByText(/^Page \d+ of \d+$/);
    const previous = tabPanel.getByRole('button', { name: 'Previous' });
    const next = tabPanel.getByRole('button', { name: 'Next' });
    const rows = table.locator('tbody tr');
    const column = (index: number) => rows.locator(`td:nth-child(${index})`).allInnerTexts();
    const times = async () => Promise.all((await rows.locator('td:first-child time').all()).map(async (time) => (await time.getAttribute('datetime')) ?? ''));
    await table.waitFor();

    // ---- Unfiltered: 25 rows, newest first; the newest is this test's own enrollment link, then the admin's sign-in.
    expect(await rows.count()).toBe(25);
    const [firstPageTotal] = (await pageStatus.innerText()).match(/\d+$/) ?? [];
    const pages = Number(firstPageTotal);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(await pageStatus.innerText()).toBe(`Page 1 of ${pages}`);
    const stamps = await times();
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const events = await column(2);
    const actors = await column(4);
    const details = await column(6);
    // In words, not the API's keys.
    expect(events.slice(0, 2)).toEqual(['Enrollment link', 'Admin action']);
    expect(actors.slice(0, 2)).toEqual([UNENROLLED.name, ADMIN.name]);
    expect(details[1]).toBe(`new enrollment link for ${UNENROLLED.name}`);
    // The admin's own sign-in ('PIN setup' when this test runs alone and the admin enrolls first).
    const adminSignIn = events.findIndex((event, index) => (event === 'Sign-in' || event === 'PIN setup') && actors[index] === ADMIN.name);
    const pagingSignIn = events.findIndex((event, index) => event === 'Sign-in' && actors[index] === FREQUENT.name);
    expect(adminSignIn).toBeGreaterThan(1);
    expect(pagingSignIn).toBeGreaterThan(adminSignIn);
    expect(await rows.nth(adminSignIn).getByText('success', { exact: true }).isVisible()).toBe(true);
    expect(await rows.nth(adminSignIn).locator('td:nth-child(5)').innerText()).toBe('127.0.0.1');
    expect(await previous.isDisabled()).toBe(true);
    await shot(page, 'audit-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);

    // ---- Pagination: Next and Previous.
    await next.click();
    await tabPanel.getByRole('table', { name: 'Audit trail, page 2' }).waitFor();
    expect(await pageStatus.innerText()).toBe(`Page 2 of ${pages}`);
    await expect.poll(async () => (await times()).at(0)).not.toBe(stamps[0]);
    const secondStamps = await times();
    expect(secondStamps.every((stamp) => stamp <= (stamps.at(-1) ?? ''))).toBe(true);
    expect(await previous.isEnabled()).toBe(true);
    if (pages === 2) expect(await next.isDisabled()).toBe(true);
    await previous.click();
    await tabPanel.getByRole('table', { name: 'Audit trail, page 1' }).waitFor();
    await expect.poll(() => times()).toEqual(stamps);
    expect(await previous.isDisabled()).toBe(true);

    // ---- Filtered by event type 'Admin action': every action the tests did, newest first, and nothing else.
    await tabPanel.getByLabel('Event type').selectOption({ label: 'Admin action' });
    await expect.poll(async () => new Set(await column(2))).toEqual(new Set(['Admin action']));
    expect(await pageStatus.innerText()).toBe('Page 1 of 1');
    expect(await next.isDisabled()).toBe(true);
    expect(new Set(await column(4))).toEqual(new Set([ADMIN.name]));
    expect(await column(6)).toEqual([...adminActions].reverse());
    await shot(page, 'audit-admin-actions-desktop');

    // ---- By member: only that member's entries, across two pages; with the event too, narrower still.
    await tabPanel.getByLabel('Event type').selectOption('');
    await tabPanel.getByLabel('Member').fill(FREQUENT.name);
    await tabPanel.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => new Set(await column(4))).toEqual(new Set([FREQUENT.name]));
    expect(await rows.count()).toBe(25);
    expect(await pageStatus.innerText()).toBe('Page 1 of 2');
    await next.click();
    await expect.poll(() => pageStatus.innerText()).toBe('Page 2 of 2');
    await expect.poll(() => rows.count()).toBe(PAGING_SIGN_INS - 25);
    expect(new Set(await column(4))).toEqual(new Set([FREQUENT.name]));
    await tabPanel.getByLabel('Event type').selectOption('admin-action');
    await tabPanel.getByText('No audit entries match.', { exact: true }).waitFor();
    expect(await pageStatus.innerText()).toBe('Page 1 of 1');
    // Any case of the name.
    await tabPanel.getByLabel('Member').fill(ADMIN.name.toLowerCase());
    await tabPanel.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => column(6)).toEqual([...adminActions].reverse());
    await tabPanel.getByLabel('Event type').selectOption({ label: 'Sign-in' });
    await tabPanel.getByLabel('Member').fill(FREQUENT.name);
    await tabPanel.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => new Set(await column(4))).toEqual(new Set([FREQUENT.name]));
    expect(new Set(await column(2))).toEqual(new Set(['Sign-in']));
    expect(await pageStatus.innerText()).toBe('Page 1 of 2');
    expect(await accessibilityViolations(page)).toEqual([]);

    expectNoConsoleErrors(admin);
    await admin.context.close();
  });

  it('passes axe on every tab as the admin and leaves no toast of failure', { timeout: 90_000 }, async () => {
    const admin = await openAdmin('Team Management');
    const { page } = admin;
    for (const label of TAB_LABELS) {
      await tab(page, label).click();
      await panel(page, label).getByRole('heading', { level: 2, name: TAB_HEADINGS[label], exact: true }).waitFor();
      // Loaded, not skeletons.
      await expect.poll(() => panel(page, label).getByRole('status').filter({ hasText: /^Loading/ }).count()).toBe(0);
      expect(await accessibilityViolations(page), label).toEqual([]);
    }
    expect(await toasts(page).count()).toBe(0);
    expectNoConsoleErrors(admin);
    await admin.context.close();
  });
});
