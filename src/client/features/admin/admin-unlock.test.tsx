import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import { mockFetch, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { UNLOCK_MS } from './admin-unlock';
import { ADMIN, ADMIN_PASSWORD, memberOf, openAdminAt, unlockWith } from './test-fixtures';

const LOCKED_MEMBER = memberOf({ id: 4, name: 'Dee Locked', lockedUntil: '2099-01-01T00:00:00.000Z' });

function mockApi(): FetchMock {
  return mockFetch()
    .on(routes.auth.user, { body: ADMIN })
    .on(routes.admin.members, { body: [LOCKED_MEMBER] })
    .on(routes.admin.pinResetRequests, { body: [] })
    .on(routes.aiPrompts.list, { body: [] })
    .on(routes.aiPrompts.active, { status: 404, error: { code: ERROR_CODES.noActivePrompt, message: 'No active prompt' } })
    .on(routes.admin.system, {
      body: { version: '0.66.0', database: 'sqlite', aiProvider: 'local', adminName: 'Avery Admin', qaUserName: 'QA Test User', securityModel: [], secrets: [] },
    })
    .on(routes.admin.unlock, { body: { message: 'Dee Locked can sign in again.' } });
}

async function renderPanel(tab = 'team'): Promise<Rendered> {
  openAdminAt(tab);
  const rendered = renderWithApp(<AdminPage />);
  await screen.findByRole('region', { name: 'Admin actions' });
  return rendered;
}

const bar = () => screen.getByRole('region', { name: 'Admin actions' });
const barText = () => within(bar()).getByRole('status').textContent;
const unlockMemberButton = async () => within((await screen.findByRole('rowheader', { name: /Dee Locked/ })).closest('tr') ?? document.body).getByRole('button', { name: 'Unlock' });
const storedEntries = () =>
  [window.localStorage, window.sessionStorage].flatMap((storage) => Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i) ?? '')}`));

afterEach(() => {
  vi.useRealTimers();
});

describe('unlocking the admin actions', () => {
  test('one control on every tab says the actions are locked; no tab has a password field of its own', async () => {
    mockApi();
    const { user } = await renderPanel();
    for (const tab of ['Team Management', 'PIN Resets', 'AI Prompts', 'System']) {
      await user.click(screen.getByRole('tab', { name: tab }));
      expect(barText()).toMatch(/^Admin actions are locked\./);
      expect(within(bar()).getByRole('button', { name: 'Unlock admin actions' })).toBeTruthy();
      expect(screen.queryByLabelText(/admin password/i)).toBeNull();
      expect(document.body.textContent).not.toMatch(/Enter the admin password/);
    }
  });

  test('asks for the password once, keeps it in memory only, says until when, and locks again on request', async () => {
    mockApi();
    const { user } = await renderPanel();
    const control = within(bar()).getByRole('button', { name: 'Unlock admin actions' });
    await user.click(control);
    const dialog = await screen.findByRole('dialog', { name: 'Unlock admin actions' });
    const field = within(dialog).getByLabelText('Admin password');
    expect(field.getAttribute('type')).toBe('password');
    expect(field.getAttribute('autocomplete')).toBe('off');
    expect(document.activeElement).toBe(field);

    // Empty: said, and still locked.
    await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter the admin password.');
    expect(field.getAttribute('aria-invalid')).toBe('true');

    await unlockWith(user);
    expect(barText()).toMatch(/^Admin actions are unlocked until \d{1,2}:\d{2}\s?[AP]M, in this tab only\.$/);
    // Focus is back on the control that opened the dialog, now the one that locks.
    expect(document.activeElement).toBe(control);
    expect(control.textContent).toBe('Lock admin actions');
    expect(document.body.textContent).not.toContain(ADMIN_PASSWORD);
    expect(storedEntries().filter((entry) => entry !== 'biggy:signed-in=1')).toEqual([]);

    await user.click(control);
    expect(barText()).toMatch(/^Admin actions are locked\./);
    expect(control.textContent).toBe('Unlock admin actions');
  });

  test('an action while locked asks for the password, then goes on with it; focus comes back to the action', async () => {
    const api = mockApi();
    const { user } = await renderPanel();
    const unlockMember = await unlockMemberButton();
    await user.click(unlockMember);
    await screen.findByRole('dialog', { name: 'Unlock admin actions' });
    expect(api.requests(routes.admin.unlock)).toEqual([]);

    await unlockWith(user);
    await expectToast('Success', 'Dee Locked can sign in again.');
    expect(api.requests(routes.admin.unlock).map((request) => request.body)).toEqual([{ adminPassword: ADMIN_PASSWORD }]);
    expect(document.activeElement).toBe(unlockMember);

    // Unlocked: the next action calls at once, with the same password.
    await user.click(unlockMember);
    await waitFor(() => {
      expect(api.requests(routes.admin.unlock)).toHaveLength(2);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('Cancel drops the action: nothing is called, still locked, focus back on the action', async () => {
    const api = mockApi();
    const { user } = await renderPanel();
    const unlockMember = await unlockMemberButton();
    await user.click(unlockMember);
    const dialog = await screen.findByRole('dialog', { name: 'Unlock admin actions' });
    await user.type(within(dialog).getByLabelText('Admin password'), 'typed but not sent');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(document.activeElement).toBe(unlockMember);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requests(routes.admin.unlock)).toEqual([]);
    expect(barText()).toMatch(/^Admin actions are locked\./);
  });

  test('a wrong password locks the actions again and says so; the next action asks anew', async () => {
    const api = mockApi().on(routes.admin.unlock, { status: 403, error: { code: ERROR_CODES.invalidAdminPassword, message: 'Invalid admin password' } });
    const { user } = await renderPanel();
    await unlockWith(user, 'not-the-password');
    await user.click(await unlockMemberButton());

    await expectToast('Wrong admin password', 'Admin actions are locked again. Unlock them with the right password.');
    await waitFor(() => {
      expect(barText()).toBe('The admin password was wrong, so admin actions are locked again. Unlock them with the right password.');
    });
    expect(within(bar()).getByRole('button', { name: 'Unlock admin actions' })).toBeTruthy();

    api.on(routes.admin.unlock, { body: { message: 'Dee Locked can sign in again.' } });
    await user.click(await unlockMemberButton());
    await unlockWith(user);
    await expectToast('Success', 'Dee Locked can sign in again.');
    expect(api.requests(routes.admin.unlock).map((request) => request.body)).toEqual([{ adminPassword: 'not-the-password' }, { adminPassword: ADMIN_PASSWORD }]);
    expect(barText()).toMatch(/^Admin actions are unlocked until/);
  });

  test('too many wrong passwords lock the actions too', async () => {
    mockApi().on(routes.admin.unlock, { status: 429, error: { code: ERROR_CODES.adminPasswordThrottled, message: 'Too many wrong admin passwords' }, headers: { 'Retry-After': '600' } });
    const { user } = await renderPanel();
    await unlockWith(user);
    await user.click(await unlockMemberButton());
    await expectToast('Too many wrong admin passwords', 'Admin actions are locked.');
    await waitFor(() => {
      expect(barText()).toMatch(/^Too many wrong admin passwords: admin actions are locked\./);
    });
  });

  test(`locks again by itself after ${UNLOCK_MS / 60_000} minutes, and an action then asks for the password`, async () => {
    const api = mockApi();
    const { user } = await renderPanel();
    // Only timeouts and the clock, which the 15 minutes need; the rest of the page runs as usual.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await unlockWith(user);
    act(() => {
      vi.advanceTimersByTime(UNLOCK_MS - 1_000);
    });
    expect(barText()).toMatch(/^Admin actions are unlocked/);
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    expect(barText()).toBe('Admin actions locked again after 15 minutes. Unlock them to go on.');
    vi.useRealTimers();

    await user.click(await unlockMemberButton());
    expect(await screen.findByRole('dialog', { name: 'Unlock admin actions' })).toBeTruthy();
    expect(api.requests(routes.admin.unlock)).toEqual([]);
  });
});
