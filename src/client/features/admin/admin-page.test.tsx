import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import { mockFetch } from '../../test/mock-fetch';
import { renderWithApp } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, MEMBER, openAdminAt, unlockWith } from './test-fixtures';

/** Every path the page fetched, in order. */
function fetchedPaths(): string[] {
  return vi.mocked(fetch).mock.calls.map(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost').pathname);
}

describe('access', () => {
  test('a member sees Access Denied naming the admin, and the page makes no admin call', async () => {
    mockFetch().on(routes.auth.user, { body: MEMBER }).on(routes.auth.adminContact, { body: { name: 'Avery Admin' } });
    openAdminAt('team');
    renderWithApp(<AdminPage />);

    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeTruthy();
    expect(await screen.findByText('Admin access is restricted to Avery Admin only.')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Admin actions' })).toBeNull();
    expect(fetchedPaths()).toEqual([routes.auth.user.path, routes.auth.adminContact.path]);
  });

  test.each([
    ['there is no admin', { body: { name: null } }],
    ['the question fails', { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } }],
  ] as const)('when %s, Access Denied names the role', async (_case, answer) => {
    mockFetch().on(routes.auth.user, { body: MEMBER }).on(routes.auth.adminContact, answer);
    openAdminAt();
    renderWithApp(<AdminPage />);
    expect(await screen.findByText('Admin access is restricted to the admin only.')).toBeTruthy();
  });

  test('the header names the page', async () => {
    mockFetch().on(routes.auth.user, { body: MEMBER }).on(routes.auth.adminContact, { body: { name: 'Avery Admin' } });
    openAdminAt();
    renderWithApp(<AdminPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Admin Panel');
    expect(screen.getByText('Manage team members, QA testing, and system monitoring')).toBeTruthy();
    await screen.findByText('Admin access is restricted to Avery Admin only.');
  });
});

describe('tabs', () => {
  function mockAdminApi() {
    return mockFetch()
      .on(routes.auth.user, { body: ADMIN })
      .on(routes.admin.members, { body: [] })
      .on(routes.admin.pinResetRequests, { body: [] })
      .on(routes.admin.system, {
        body: { version: '0.66.0', database: 'sqlite', aiProvider: 'local', adminName: 'Avery Admin', qaUserName: 'QA Test User', securityModel: [], secrets: [] },
      });
  }

  test('lists the seven sections, Team Management first', async () => {
    mockAdminApi();
    openAdminAt();
    renderWithApp(<AdminPage />);
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Team Management', 'PIN Resets', 'QA Testing', 'Error Logs', 'AI Prompts', 'System', 'Audit Trail']);
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Team Management');
    expect(within(screen.getByRole('region', { name: 'Admin actions' })).getByRole('button', { name: 'Unlock admin actions' })).toBeTruthy();
  });

  test('opens the tab the URL names, and writes the chosen tab into the URL', async () => {
    mockAdminApi();
    openAdminAt('system');
    const { user } = renderWithApp(<AdminPage />);
    expect((await screen.findByRole('tab', { selected: true })).textContent).toBe('System');
    expect(await screen.findByText('SQLite (embedded)')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'PIN Resets' }));
    expect(screen.getByRole('tab', { selected: true }).textContent).toBe('PIN Resets');
    expect(window.location.search).toBe('?tab=pin-resets');
    expect(await screen.findByText('No pending PIN reset requests')).toBeTruthy();
  });

  test('arrow keys move between tabs', async () => {
    mockAdminApi();
    openAdminAt('pin-resets');
    const { user } = renderWithApp(<AdminPage />);
    const pinResets = await screen.findByRole('tab', { name: 'PIN Resets' });
    act(() => {
      pinResets.focus();
    });
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => {
      expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Team Management');
    });
    expect(window.location.search).toBe('?tab=team');
  });

  test('an unknown tab in the URL opens Team Management', async () => {
    mockAdminApi();
    openAdminAt('nonsense');
    renderWithApp(<AdminPage />);
    expect((await screen.findByRole('tab', { selected: true })).textContent).toBe('Team Management');
  });

  test('the admin actions unlocked once stay unlocked when switching tabs, and nothing is kept in web storage', async () => {
    mockAdminApi();
    openAdminAt('team');
    const { user } = renderWithApp(<AdminPage />);
    await screen.findByRole('region', { name: 'Admin actions' });
    await unlockWith(user, 'secret');
    await user.click(screen.getByRole('tab', { name: 'PIN Resets' }));
    await user.click(screen.getByRole('tab', { name: 'Team Management' }));
    const bar = screen.getByRole('region', { name: 'Admin actions' });
    expect(within(bar).getByRole('status').textContent).toMatch(/^Admin actions are unlocked until/);
    // Nothing of it is kept in web storage (the only entry there is the signed-in hint).
    const stored = [window.localStorage, window.sessionStorage].flatMap((storage) => Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i) ?? '')}`));
    expect(stored.filter((entry) => entry !== 'biggy:signed-in=1')).toEqual([]);
  });
});
