import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PIN_REASONS } from '../src/common/pin-rules.js';
import type { Database } from '../src/server/db/schema.js';
import { accessibilityViolations } from './axe.js';
import { E2E_SECRETS, enrollmentLink, launchBrowser, newPage, SCREENSHOT_DIR, seedMember, signIn, startServer, waitUntilSessionRefused, type RunningServer, type SeededMember } from './harness.js';
import { smallTargets } from './targets.js';
import { closeToasts, toasts } from './toasts.js';
import { holdRequests } from './page-api.js';

// The expected copy is written out here rather than imported, so the test checks the product's wording.
// Browser-side code is passed to page.evaluate as strings: this file is type-checked for Node, without the DOM library.
const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 390, height: 844 };
const FORGOT_PIN_ANSWER = 'Your request is with the admin, who will send you an enrollment link to create your PIN. (A name that is not on the team gets no link.)';

/** Chromium logs every non-2xx fetch; refused sign-ins are the point of some tests. Anything else fails. */
const EXPECTED_FAILED_LOAD = /Failed to load resource: the server responded with a status of (400|401|403|404|409|429)/;

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** The toast on screen, as its title and text (at most one at a time). */
async function toastShown(page: Page): Promise<{ title: string; text: string; destructive: boolean }> {
  const toast = toasts(page).first();
  await toast.waitFor();
  const parts = toast.locator('> div > *');
  const title = await parts.nth(0).innerText();
  const text = (await parts.count()) > 1 ? await parts.nth(1).innerText() : '';
  const destructive = ((await toast.getAttribute('class')) ?? '').includes('destructive');
  return { title, text, destructive };
}

function heading(page: Page, name: string) {
  return page.getByRole('heading', { level: 1, name, exact: true });
}

describe('sign-in screen', () => {
  let server: RunningServer;
  let browser: Browser;
  let db: Kysely<Database>;
  const members: Record<string, SeededMember> = {};
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    db = server.openDb();
    const seeds: [string, string | undefined][] = [
      ['Riley Rivera', undefined],
      ['Nico Nolink', undefined],
      ['Morgan Member', '2580'],
      ['Quinn Quick', '4682'],
      ['Dana Different', '3674'],
      ['Wendy Wrong', '1111'],
      ['Frankie Forgot', '4321'],
      ['Alexandra Stone', '8631'],
      ['Alex Turner', '1234'],
      ['Sam Alexander', '1234'],
      ['Valerie Alexis', '1234'],
      ['Dale Cooper', '1234'],
      ['Kale Smith', '1234'],
      ['Piper Pinned', '5555'],
    ];
    for (const [name, pin] of seeds) members[name] = await seedMember(server, name, pin === undefined ? {} : { pin });
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await db.destroy();
    await browser.close();
    await server.stop();
  });

  async function open(route = '/', viewport = DESKTOP) {
    const opened = await newPage(browser, { viewport });
    contexts.push(opened.context);
    await opened.page.goto(`${server.baseUrl}${route}`);
    return opened;
  }

  function unexpectedConsoleErrors(consoleErrors: string[]) {
    return consoleErrors.filter((line) => !EXPECTED_FAILED_LOAD.test(line));
  }

  function memberId(name: string): number {
    const member = members[name];
    if (member === undefined) throw new Error(`${name} was not seeded`);
    return member.id;
  }

  it('shows the team login instead of any route, with marketing text beside the form', async () => {
    const { page, consoleErrors } = await open('/development-principles');
    await heading(page, 'Team Sign In').waitFor();
    // No route renders behind the gate, whatever the path.
    expect(await page.getByRole('heading', { name: 'Design Principles' }).count()).toBe(0);
    expect(await page.getByRole('complementary', { name: 'About Biggy' }).isVisible()).toBe(true);
    const form = await page.getByRole('form', { name: 'Team Sign In' }).boundingBox();
    const pitch = await page.getByRole('complementary', { name: 'About Biggy' }).boundingBox();
    expect(form !== null && pitch !== null && pitch.x + pitch.width <= form.x).toBe(true);
    // The team password field has focus: the first thing to type.
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('team-password');
    expect(await page.getByRole('combobox', { name: 'Name' }).getAttribute('aria-expanded')).toBe('false');

    await screenshot(page, 'sign-in-desktop');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  });

  it('enables Sign In only for password, name and an empty or 4-digit PIN, and keeps digits only', async () => {
    const { page } = await open();
    const submit = page.getByRole('button', { name: 'Sign In', exact: true });
    const pin = page.getByLabel('PIN', { exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Team password', { exact: true }).fill('anything');
    expect(await submit.isDisabled()).toBe(true);
    await page.getByRole('combobox', { name: 'Name' }).fill('Morgan Member');
    expect(await submit.isEnabled()).toBe(true);
    await pin.pressSequentially('a1b2');
    expect(await pin.inputValue()).toBe('12');
    expect(await submit.isDisabled()).toBe(true);
    await pin.pressSequentially('3-4 5');
    expect(await pin.inputValue()).toBe('1234');
    expect(await submit.isEnabled()).toBe(true);
    expect(await pin.getAttribute('type')).toBe('password');
    expect(await pin.getAttribute('inputmode')).toBe('numeric');
    expect(await pin.getAttribute('autocomplete')).toBe('off');
    await page.getByRole('combobox', { name: 'Name' }).fill('   ');
    expect(await submit.isDisabled()).toBe(true);
  });

  it('an enrollment link opens Create Your PIN with the name filled in, refuses a guessable PIN, and signs in', async () => {
    const link = await enrollmentLink(server, 'Riley Rivera');
    const { page, consoleErrors } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    await page.goto(link);
    await heading(page, 'Create Your PIN').waitFor();
    // The token left the address bar: the browser is on the sign-in screen's own address.
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByText('Welcome, Riley Rivera! Enter the team password and choose the 4-digit PIN you will sign in with.').isVisible()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Name' }).inputValue()).toBe('Riley Rivera');
    expect(await page.getByLabel('Team password', { exact: true }).inputValue()).toBe('');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('setup-team-password');
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);

    const newPin = page.getByLabel('New PIN', { exact: true });
    const submit = page.getByRole('button', { name: 'Create PIN and Sign In' });
    expect(await newPin.inputValue()).toBe('');
    expect(await submit.isDisabled()).toBe(true);
    await newPin.fill('975');
    expect(await submit.isDisabled()).toBe(true);
    // A guessable PIN is refused in the form, with the rule said under the field.
    await newPin.fill('1234');
    await page.getByText(PIN_REASONS.run).waitFor();
    expect(await newPin.getAttribute('aria-invalid')).toBe('true');
    expect(await submit.isDisabled()).toBe(true);
    await screenshot(page, 'sign-in-create-pin-guessable');
    await newPin.fill('4817');
    expect(await newPin.getAttribute('aria-invalid')).toBe('false');
    await page.getByRole('button', { name: 'Show PIN' }).click();
    expect(await newPin.getAttribute('type')).toBe('text');
    expect(await page.getByRole('button', { name: 'Show PIN' }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'sign-in-create-pin');
    expect(await accessibilityViolations(page)).toEqual([]);

    await submit.click();
    expect(await toastShown(page)).toEqual({
      title: 'PIN Setup Complete!',
      text: 'Welcome, Riley Rivera! Your PIN has been set up successfully.',
      destructive: false,
    });
    await page.getByText('Welcome, Riley', { exact: true }).waitFor();
    const row = await db.selectFrom('members').select(['pin_hash', 'pin_set_at']).where('id', '=', memberId('Riley Rivera')).executeTakeFirstOrThrow();
    expect(row.pin_hash).not.toBeNull();
    expect(row.pin_hash).not.toContain('4817');
    expect(row.pin_set_at).not.toBeNull();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);

    // The link worked once: opened again, in another browser, it says so on the team login.
    const again = await open('/');
    await again.page.goto(link);
    await heading(again.page, 'Team Sign In').waitFor();
    await again.page.getByRole('alert').filter({ hasText: 'This enrollment link no longer works' }).waitFor();
    await screenshot(again.page, 'sign-in-enrollment-link-used');
    expect(await accessibilityViolations(again.page)).toEqual([]);
    expect(unexpectedConsoleErrors(again.consoleErrors)).toEqual([]);
  });

  it('without an enrollment link, a member without a PIN is told to ask the admin, and can ask in one step', async () => {
    const { page, consoleErrors } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByRole('combobox', { name: 'Name' }).fill('nico nolink');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    // The server answers as it would for a member with a PIN ('PIN is required'): the screen
    // explains how to get a PIN instead of offering a form the server would refuse.
    await heading(page, 'Create Your PIN').waitFor();
    expect(await toasts(page).count()).toBe(0);
    expect(await page.getByText('Signing in as nico nolink needs a PIN. If you already have one, go Back and enter it.').isVisible()).toBe(true);
    expect(await page.getByText(/open the enrollment link the admin sent you/).isVisible()).toBe(true);
    expect(await page.getByLabel('New PIN').count()).toBe(0);
    await screenshot(page, 'sign-in-enrollment-needed');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Ask the Admin for a Link' }).click();
    await heading(page, 'Ask for a PIN').waitFor();
    expect(await page.getByRole('combobox', { name: 'Name' }).inputValue()).toBe('nico nolink');
    await page.getByRole('button', { name: 'Send Request' }).click();
    expect(await toastShown(page)).toEqual({ title: 'Request sent', text: FORGOT_PIN_ANSWER, destructive: false });
    const requests = await db.selectFrom('pin_reset_requests').selectAll().where('member_id', '=', memberId('Nico Nolink')).execute();
    expect(requests.map((request) => [request.member_name, request.status])).toEqual([['Nico Nolink', 'pending']]);
    expect((await db.selectFrom('members').select('pin_hash').where('id', '=', memberId('Nico Nolink')).executeTakeFirstOrThrow()).pin_hash).toBeNull();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  });

  it('normal sign-in with a PIN, header without Admin for a member, and logout back to Welcome Back', async () => {
    const { page, consoleErrors } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByRole('combobox', { name: 'Name' }).fill('Morgan Member');
    await page.getByLabel('PIN', { exact: true }).fill('2580');
    await page.getByLabel('PIN', { exact: true }).press('Enter');

    expect(await toastShown(page)).toEqual({ title: 'Welcome!', text: "You're now logged in as Morgan Member", destructive: false });
    await page.getByText('Welcome, Morgan', { exact: true }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Analytics', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await closeToasts(page);

    // Hold the logout call to see the pending label.
    const release = await holdRequests(page, '**/api/logout');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Logging out...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Logging out...' }).isDisabled()).toBe(true);
    release();

    expect(await toastShown(page)).toEqual({ title: 'Logged out', text: "You've been successfully logged out.", destructive: false });
    // The device is still remembered: the gate shows Welcome Back for the same member.
    await heading(page, 'Welcome Back').waitFor();
    expect(await page.getByText('Morgan Member', { exact: true }).isVisible()).toBe(true);
    // 'Use Different Account' and 'Forgot your PIN?' are tapped: 24 px square at least.
    expect(await smallTargets(page)).toEqual([]);
    const status = await page.evaluate<number>("fetch('/api/user').then((response) => response.status)");
    expect(status).toBe(401);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  });

  it('shows the Admin link to Avery Admin (admin role), after creating the PIN on first sign-in', async () => {
    const { page } = await open('/');
    const result = await signIn(page, server, { name: 'Avery Admin', pin: '8306' });
    expect(result).toEqual({ toastTitle: 'PIN Setup Complete!', toastText: 'Welcome, Avery Admin! Your PIN has been set up successfully.' });
    await page.getByText('Welcome, Avery', { exact: true }).waitFor();
    const admin = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true });
    expect(await admin.isVisible()).toBe(true);
    await admin.click();
    await page.getByRole('heading', { level: 1, name: 'Admin Panel' }).waitFor();
  });

  it('quick login after the session expired: Welcome Back asks only the PIN', async () => {
    const { page, consoleErrors } = await open('/development-principles');
    await signIn(page, server, { name: 'Quinn Quick', pin: '4682' });
    await page.getByRole('heading', { level: 1, name: 'AI-Driven Operations Management' }).waitFor();

    // The server forgets the session (as after the idle timeout); the device token stays.
    await db.deleteFrom('sessions').where('member_id', '=', memberId('Quinn Quick')).execute();
    await waitUntilSessionRefused(page, server);
    await page.reload();
    await heading(page, 'Welcome Back').waitFor();
    expect(await page.getByText('Quinn Quick', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Team password').count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('quick-pin');
    const submit = page.getByRole('button', { name: 'Sign In', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await screenshot(page, 'sign-in-welcome-back');
    expect(await accessibilityViolations(page)).toEqual([]);

    // A wrong PIN: the server's message, the PIN cleared for another try.
    await page.keyboard.type('0000');
    await page.keyboard.press('Enter');
    expect(await toastShown(page)).toEqual({ title: 'Login failed', text: 'Invalid name, password or PIN', destructive: true });
    expect(await page.getByLabel('PIN', { exact: true }).inputValue()).toBe('');
    await closeToasts(page);

    await page.getByLabel('PIN', { exact: true }).fill('4682');
    await submit.click();
    expect(await toastShown(page)).toEqual({ title: 'Welcome back!', text: '', destructive: false });
    // Back on the page the member was reading.
    await page.getByRole('heading', { level: 1, name: 'AI-Driven Operations Management' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/development-principles');
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  });

  it("'PIN not set' on quick login opens Create Your PIN for the remembered name", async () => {
    const { page } = await open('/');
    await signIn(page, server, { name: 'Piper Pinned', pin: '5555' });
    await db.deleteFrom('sessions').where('member_id', '=', memberId('Piper Pinned')).execute();
    await waitUntilSessionRefused(page, server);
    // The server answers this when the remembered member has no PIN; the admin's reset also forgets
    // the device, so the answer is staged here.
    await page.route('**/api/quick-login', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'PIN not set. Please use full login to set up your PIN.', code: 'PIN_NOT_SET' }) }),
    );
    await page.reload();
    await heading(page, 'Welcome Back').waitFor();
    await page.getByLabel('PIN', { exact: true }).fill('5555');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await heading(page, 'Create Your PIN').waitFor();
    expect(await toasts(page).count()).toBe(0);
    // Without an enrollment link there is no PIN to create here: the screen says how to get one.
    expect(await page.getByText('Signing in as Piper Pinned needs a PIN. If you already have one, go Back and enter it.').isVisible()).toBe(true);
    expect(await page.getByLabel('Team password').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Ask the Admin for a Link' }).isEnabled()).toBe(true);
  });

  it('five wrong PINs lock the name and the toast carries the server message', async () => {
    await seedMember(server, 'Lou Locked', { pin: '2222' });
    const { page } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByRole('combobox', { name: 'Name' }).fill('Lou Locked');
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await page.getByLabel('PIN', { exact: true }).fill('9999');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      const shown = await toastShown(page);
      expect(shown.title).toBe('Login failed');
      if (attempt < 5) expect(shown.text).toBe('Invalid name, password or PIN');
      else expect(shown.text).toMatch(/^Too many failed attempts for this name/);
      await closeToasts(page);
    }
    // Locked: even the right PIN is refused.
    await page.getByLabel('PIN', { exact: true }).fill('2222');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    expect((await toastShown(page)).text).toMatch(/^Too many failed attempts for this name/);
    expect(await heading(page, 'Team Sign In').isVisible()).toBe(true);
  });

  it('Use Different Account forgets the device and returns to the team login', async () => {
    const { page } = await open('/');
    await signIn(page, server, { name: 'Dana Different', pin: '3674' });
    await db.deleteFrom('sessions').where('member_id', '=', memberId('Dana Different')).execute();
    await waitUntilSessionRefused(page, server);
    await page.reload();
    await heading(page, 'Welcome Back').waitFor();

    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Use Different Account' }).click()]);
    await heading(page, 'Team Sign In').waitFor();
    expect(await page.evaluate<unknown>("fetch('/api/check-session').then((response) => response.json())")).toEqual({ canQuickLogin: false, memberName: null });
    const devices = await db.selectFrom('device_tokens').select('member_id').where('member_id', '=', memberId('Dana Different')).execute();
    expect(devices).toEqual([]);
  });

  it('Back returns to the team login from Welcome Back', async () => {
    const { page } = await open('/');
    await signIn(page, server, { name: 'Piper Pinned', pin: '5555' });
    await db.deleteFrom('sessions').where('member_id', '=', memberId('Piper Pinned')).execute();
    await waitUntilSessionRefused(page, server);
    await page.reload();
    await heading(page, 'Welcome Back').waitFor();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await heading(page, 'Team Sign In').waitFor();
    expect(await page.getByRole('button', { name: 'Back', exact: true }).count()).toBe(0);
  });

  it('a wrong PIN shows the Login failed toast with the server message and stays on the form', async () => {
    const { page, consoleErrors } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByRole('combobox', { name: 'Name' }).fill('Wendy Wrong');
    await page.getByLabel('PIN', { exact: true }).fill('9999');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    expect(await toastShown(page)).toEqual({ title: 'Login failed', text: 'Invalid name, password or PIN', destructive: true });
    await screenshot(page, 'sign-in-wrong-pin');
    expect(await heading(page, 'Team Sign In').isVisible()).toBe(true);
    // Password and name stay; the PIN is cleared and focused for the next try.
    expect(await page.getByLabel('Team password', { exact: true }).inputValue()).toBe(E2E_SECRETS.TEAM_PASSWORD);
    expect(await page.getByRole('combobox', { name: 'Name' }).inputValue()).toBe('Wendy Wrong');
    expect(await page.getByLabel('PIN', { exact: true }).inputValue()).toBe('');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('pin');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  });

  it("'PIN is required' opens PIN setup, which explains the enrollment link; Back returns to the login", async () => {
    const { page } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByRole('combobox', { name: 'Name' }).fill('Morgan Member');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await heading(page, 'Create Your PIN').waitFor();
    expect(await page.getByText('Signing in as Morgan Member needs a PIN. If you already have one, go Back and enter it.').isVisible()).toBe(true);
    expect(await toasts(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await heading(page, 'Team Sign In').waitFor();
    // The password and the name are kept for the next try.
    expect(await page.getByLabel('Team password', { exact: true }).inputValue()).toBe(E2E_SECRETS.TEAM_PASSWORD);
    expect(await page.getByRole('combobox', { name: 'Name' }).inputValue()).toBe('Morgan Member');
  });

  it('forgot PIN files a pending reset request and confirms with the server message', async () => {
    const { page, consoleErrors } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    await page.getByRole('button', { name: 'Forgot your PIN?' }).click();
    await heading(page, 'Reset PIN').waitFor();
    expect(await page.getByLabel('Team password').count()).toBe(0);
    expect(await page.getByLabel('PIN', { exact: true }).count()).toBe(0);
    const submit = page.getByRole('button', { name: 'Request PIN Reset' });
    expect(await submit.isDisabled()).toBe(true);
    await page.keyboard.type('Frankie Forgot');
    await screenshot(page, 'sign-in-reset-pin');
    expect(await accessibilityViolations(page)).toEqual([]);
    await submit.click();

    expect(await toastShown(page)).toEqual({ title: 'Request sent', text: FORGOT_PIN_ANSWER, destructive: false });
    await heading(page, 'Team Sign In').waitFor();
    const requests = await db.selectFrom('pin_reset_requests').selectAll().where('member_id', '=', memberId('Frankie Forgot')).execute();
    expect(requests.map((request) => [request.member_name, request.status])).toEqual([['Frankie Forgot', 'pending']]);

    // Back leaves the Reset PIN form without sending anything.
    await page.getByRole('button', { name: 'Forgot your PIN?' }).click();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await heading(page, 'Team Sign In').waitFor();
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  });

  it('forgot PIN says Failed to send the request when the network fails', async () => {
    const { page } = await open('/');
    await page.route('**/api/forgot-pin', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Forgot your PIN?' }).click();
    await page.getByRole('combobox', { name: 'Name' }).fill('Frankie Forgot');
    await page.getByRole('button', { name: 'Request PIN Reset' }).click();
    expect(await toastShown(page)).toEqual({ title: 'Error', text: 'Failed to send the request', destructive: true });
    expect(await heading(page, 'Reset PIN').isVisible()).toBe(true);
  });

  it('completes a name and signs in with the keyboard alone', async () => {
    const { page, consoleErrors } = await open('/');
    await heading(page, 'Team Sign In').waitFor();
    const names: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/team-members/names') names.push(request.headers()['x-team-password'] ?? '');
    });
    const combobox = page.getByRole('combobox', { name: 'Name' });
    const listbox = page.getByRole('listbox', { name: 'Name suggestions' });

    // Focus starts in the password field.
    await page.keyboard.type(E2E_SECRETS.TEAM_PASSWORD);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('member-name');
    await page.keyboard.type('ale');
    await listbox.waitFor();
    // The autocomplete ranking: full-name prefix, then last-word prefix, then substring; at most five.
    expect(await listbox.getByRole('option').allInnerTexts()).toEqual(['Alex Turner', 'Alexandra Stone', 'Sam Alexander', 'Valerie Alexis', 'Dale Cooper']);
    expect(await combobox.getAttribute('aria-expanded')).toBe('true');
    expect(await combobox.getAttribute('aria-activedescendant')).toBeNull();

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const second = listbox.getByRole('option', { name: 'Alexandra Stone' });
    expect(await second.getAttribute('aria-selected')).toBe('true');
    expect(await combobox.getAttribute('aria-activedescendant')).toBe(await second.getAttribute('id'));
    await screenshot(page, 'sign-in-autocomplete');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Escape closes the list and keeps what was typed.
    await page.keyboard.press('Escape');
    expect(await combobox.getAttribute('aria-expanded')).toBe('false');
    expect(await combobox.inputValue()).toBe('ale');
    // Enter completes the first suggestion when none is highlighted, without submitting.
    await page.keyboard.press('Backspace');
    await page.keyboard.type('e');
    await page.keyboard.press('Enter');
    expect(await combobox.inputValue()).toBe('Alex Turner');
    expect(await heading(page, 'Team Sign In').isVisible()).toBe(true);

    // Tab completes the highlighted suggestion and moves on to the PIN.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('stone');
    await listbox.waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await combobox.inputValue()).toBe('Alexandra Stone');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('pin');
    await page.keyboard.type('8631');
    await page.keyboard.press('Enter');
    expect(await toastShown(page)).toEqual({ title: 'Welcome!', text: "You're now logged in as Alexandra Stone", destructive: false });
    await page.getByText('Welcome, Alexandra', { exact: true }).waitFor();

    // The names were asked for once, with the team password, not per keystroke.
    expect(names).toEqual([E2E_SECRETS.TEAM_PASSWORD]);
    expect(unexpectedConsoleErrors(consoleErrors)).toEqual([]);
  });

  it('clicking a suggestion completes the name', async () => {
    const { page } = await open('/');
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await page.getByRole('combobox', { name: 'Name' }).pressSequentially('coop');
    await page.getByRole('option', { name: 'Dale Cooper' }).click();
    expect(await page.getByRole('combobox', { name: 'Name' }).inputValue()).toBe('Dale Cooper');
    expect(await page.getByRole('listbox', { name: 'Name suggestions' }).isHidden()).toBe(true);
  });

  it('explains missing suggestions: no password, a wrong password, a failed call', async () => {
    const { page } = await open('/');
    const combobox = page.getByRole('combobox', { name: 'Name' });
    const hint = page.locator('#member-name-hint');
    await combobox.focus();
    expect(await hint.innerText()).toBe('Enter the team password first to get name suggestions.');

    await page.getByLabel('Team password', { exact: true }).fill('not-the-team-password');
    await combobox.focus();
    await expect.poll(() => hint.innerText()).toBe('Name suggestions appear after a correct team password.');
    await combobox.pressSequentially('ale');
    expect(await page.getByRole('listbox', { name: 'Name suggestions' }).isHidden()).toBe(true);

    await page.route('**/api/team-members/names', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom","code":"INTERNAL"}' }));
    await page.getByLabel('Team password', { exact: true }).fill(E2E_SECRETS.TEAM_PASSWORD);
    await combobox.focus();
    await expect.poll(() => hint.innerText()).toBe('Failed to fetch team member names');
    expect(await hint.getAttribute('aria-live')).toBe('polite');
  });

  it('lays out on a phone: the form first, the marketing text below, no horizontal scrolling', async () => {
    const { page } = await open('/', MOBILE);
    await heading(page, 'Team Sign In').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
    const form = await page.getByRole('form', { name: 'Team Sign In' }).boundingBox();
    const pitch = await page.getByRole('complementary', { name: 'About Biggy' }).boundingBox();
    expect(form !== null && pitch !== null && form.y + form.height <= pitch.y).toBe(true);
    await screenshot(page, 'sign-in-mobile');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Forgot your PIN?' }).click();
    await heading(page, 'Reset PIN').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(page, 'sign-in-reset-pin-mobile');
  });
});

describe('an enrollment link opened over the sign-in limit', () => {
  const LIMIT = 3;
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ SIGN_IN_LIMIT_PER_MINUTE: String(LIMIT) }), launchBrowser()]);
    await seedMember(server, 'Lena Limited');
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser.close();
    await server.stop();
  });

  it('lands on the sign-in screen, which says the address must wait and for how long', async () => {
    const { page, context, consoleErrors } = await newPage(browser, { viewport: DESKTOP });
    contexts.push(context);
    // Failed attempts from this address (every browser test's) use up its budget.
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      const response = await page.request.post(`${server.baseUrl}/api/login`, { data: { password: 'not-the-team-password', name: 'Nobody Known', pin: '' } });
      statuses.push(response.status());
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);

    const link = await enrollmentLink(server, 'Lena Limited');
    await page.goto(link);
    // The app, not a bare JSON error: its own screen with the message and the wait.
    const alert = page.getByRole('alert').filter({ hasText: 'Too many sign-in attempts from this address.' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Your enrollment link is kept: try again in \d+ seconds?, and this page checks it again by itself then\.$/);
    await heading(page, 'Team Sign In').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await screenshot(page, 'sign-in-enrollment-link-rate-limited');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(consoleErrors.filter((line) => !EXPECTED_FAILED_LOAD.test(line))).toEqual([]);
  });
});
