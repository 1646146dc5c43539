import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { routes } from '../../../common/api';
import { PIN_RESET_POLL_MS } from '../../../common/api/admin';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { PinResetRequest } from '../../../common/contract/admin';
import { mockFetch, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, ADMIN_PASSWORD, linkFor, openAdminAt, pinResetOf, unlockWith, preloadAdminTabs } from './test-fixtures';

beforeAll(preloadAdminTabs, 60_000);

const RESOLVED = pinResetOf({ id: 3, memberName: 'Cal Resolved', status: 'resolved', resolvedAt: '2026-01-06T10:00:00.000Z', resolvedBy: 'Avery Admin' });

function mockPinResetApi(requests: PinResetRequest[] = [pinResetOf(), RESOLVED]): FetchMock {
  return mockFetch().on(routes.auth.user, { body: ADMIN }).on(routes.admin.members, { body: [] }).on(routes.admin.pinResetRequests, { body: requests });
}

async function renderPinResets(): Promise<Rendered> {
  openAdminAt('pin-resets');
  const rendered = renderWithApp(<AdminPage />);
  await screen.findByRole('heading', { name: 'PIN Reset Requests' });
  return rendered;
}

/** Resets Ada's PIN: the button, then Reset PIN in the confirmation. */
async function resetAda({ user }: Rendered): Promise<void> {
  await user.click(await screen.findByRole('button', { name: 'Reset PIN of Ada Lovelace' }));
  await user.click(within(await screen.findByRole('alertdialog', { name: 'Reset the PIN of Ada Lovelace?' })).getByRole('button', { name: 'Reset PIN' }));
}

const item = (name: string) => {
  const row = screen.getByText(name).closest('li');
  if (row === null) throw new Error(`No request of ${name}`);
  return row;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('PIN resets', () => {
  test('lists each request with its status; only pending ones can be reset', async () => {
    mockPinResetApi();
    await renderPinResets();
    const pending = await screen.findByText('Ada Lovelace');
    const pendingItem = item('Ada Lovelace');
    expect(pending).toBeTruthy();
    expect(within(pendingItem).getByText('Pending').className).toContain('amber');
    expect(pendingItem.textContent).toMatch(/Requested .*ago/);
    expect(within(pendingItem).getByRole('button', { name: 'Reset PIN of Ada Lovelace' })).toBeTruthy();

    const resolved = item('Cal Resolved');
    expect(within(resolved).getByText('Resolved').className).toContain('emerald');
    expect(resolved.textContent).toMatch(/resolved .*ago by Avery Admin/);
    expect(within(resolved).queryByRole('button')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Enter the admin password/);
  });

  test(`asks for the list again every ${PIN_RESET_POLL_MS} ms while the tab is shown`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockPinResetApi();
    await renderPinResets();
    await screen.findByText('Ada Lovelace');
    const before = api.requests(routes.admin.pinResetRequests).length;
    act(() => {
      vi.advanceTimersByTime(PIN_RESET_POLL_MS);
    });
    await waitFor(() => {
      expect(api.requests(routes.admin.pinResetRequests).length).toBe(before + 1);
    });
  });

  test('without pending requests it says so', async () => {
    mockPinResetApi([RESOLVED]);
    await renderPinResets();
    expect(await screen.findByText('No pending PIN reset requests')).toBeTruthy();
  });

  test('Reset PIN while locked asks for the admin password, then for confirmation; Cancel calls nothing and gives focus back', async () => {
    const api = mockPinResetApi();
    const { user } = await renderPinResets();
    const reset = await screen.findByRole('button', { name: 'Reset PIN of Ada Lovelace' });
    await user.click(reset);
    await unlockWith(user);
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset the PIN of Ada Lovelace?' });
    expect(dialog.textContent).toMatch(/signed out on every device/);
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(document.activeElement).toBe(reset);
    });
    expect(api.requests(routes.admin.resolvePinReset)).toEqual([]);
  });

  test('a confirmed reset sends the admin password and shows the fresh enrollment link', async () => {
    const api = mockPinResetApi().on(routes.admin.resolvePinReset, { body: { ...linkFor('Ada Lovelace', 'reset-token'), message: 'PIN reset for Ada Lovelace' } });
    const rendered = await renderPinResets();
    await unlockWith(rendered.user);
    await resetAda(rendered);

    await expectToast('PIN Reset Successful', 'PIN reset for Ada Lovelace');
    const panel = await screen.findByRole('region', { name: 'Enrollment link for Ada Lovelace' });
    expect(within(panel).getByLabelText('Enrollment link')).toHaveProperty('value', 'http://localhost:5000/enroll/reset-token');
    expect(api.requests(routes.admin.resolvePinReset).map((request) => [request.params, request.body])).toEqual([[{ id: '7' }, { adminPassword: ADMIN_PASSWORD }]]);
  });

  test('a refusal shows the server message', async () => {
    mockPinResetApi().on(routes.admin.resolvePinReset, { status: 409, error: { code: ERROR_CODES.alreadyResolved, message: 'The request of Ada Lovelace is already resolved' } });
    const rendered = await renderPinResets();
    await unlockWith(rendered.user);
    await resetAda(rendered);
    await expectToast('PIN Reset Failed', 'The request of Ada Lovelace is already resolved');
    expect(screen.queryByRole('region', { name: /Enrollment link for/ })).toBeNull();
  });

  test('a wrong admin password locks the actions again', async () => {
    mockPinResetApi().on(routes.admin.resolvePinReset, { status: 403, error: { code: ERROR_CODES.invalidAdminPassword, message: 'Invalid admin password' } });
    const rendered = await renderPinResets();
    await unlockWith(rendered.user, 'wrong');
    await resetAda(rendered);
    await expectToast('Wrong admin password', 'Admin actions are locked again.');
    expect(within(screen.getByRole('region', { name: 'Admin actions' })).getByRole('button', { name: 'Unlock admin actions' })).toBeTruthy();
  });

  test('a network failure says the reset could not be resolved', async () => {
    mockPinResetApi().on(routes.admin.resolvePinReset, () => Promise.reject(new TypeError('Failed to fetch')));
    const rendered = await renderPinResets();
    await unlockWith(rendered.user);
    await resetAda(rendered);
    await expectToast('Error', 'Failed to resolve PIN reset');
  });
});
