import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { AddMemberResult, AdminMember } from '../../../common/contract/admin';
import { deferred, mockFetch, type Answer, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, ADMIN_PASSWORD, linkFor, memberOf, openAdminAt } from './test-fixtures';

function mockTeamApi(members: AdminMember[] = [memberOf()]): FetchMock {
  return mockFetch().on(routes.auth.user, { body: ADMIN }).on(routes.admin.members, { body: members });
}

async function renderTeam(): Promise<Rendered> {
  openAdminAt('team');
  const rendered = renderWithApp(<AdminPage />);
  await screen.findByRole('table', { name: 'Team members' });
  return rendered;
}

const addButton = () => screen.getByRole('button', { name: /Add Member|Adding\.\.\./ });
const nameField = () => screen.getByLabelText('Member full name');
const passwordField = () => screen.getByLabelText('Admin Password');
const memberRow = (name: string) => {
  const header = screen.getByRole('rowheader', { name: new RegExp(name) });
  const row = header.closest('tr');
  if (row === null) throw new Error(`No row for ${name}`);
  return row;
};

function added(name: string): AddMemberResult {
  return { ...linkFor(name, 'new-member-token'), message: `${name} added`, member: memberOf({ id: 9, name, pinSet: false, enrollment: 'pending' }) };
}

describe('add member', () => {
  test('Add Member needs both the admin password and a name', async () => {
    mockTeamApi();
    const { user } = await renderTeam();
    expect(addButton()).toHaveProperty('disabled', true);

    await user.type(passwordField(), ADMIN_PASSWORD);
    expect(addButton()).toHaveProperty('disabled', true);
    await user.type(nameField(), '   ');
    expect(addButton()).toHaveProperty('disabled', true);
    await user.type(nameField(), 'Grace Hopper');
    expect(addButton()).toHaveProperty('disabled', false);

    await user.clear(passwordField());
    expect(addButton()).toHaveProperty('disabled', true);
  });

  test('says Adding... while the call runs; success clears the name and shows the link once', async () => {
    const answer = deferred<Answer<AddMemberResult>>();
    const api = mockTeamApi().on(routes.admin.addMember, () => answer.promise);
    const { user } = await renderTeam();
    await user.type(passwordField(), ADMIN_PASSWORD);
    await user.type(nameField(), '  Grace Hopper ');
    await user.click(addButton());

    expect(addButton().textContent).toBe('Adding...');
    expect(addButton()).toHaveProperty('disabled', true);
    expect(api.requests(routes.admin.addMember).map((request) => request.body)).toEqual([{ adminPassword: ADMIN_PASSWORD, memberName: 'Grace Hopper' }]);

    answer.resolve({ status: 201, body: added('Grace Hopper') });
    await expectToast('Success', 'Grace Hopper added');
    const panel = await screen.findByRole('region', { name: 'Enrollment link for Grace Hopper' });
    expect(within(panel).getByLabelText('Enrollment link')).toHaveProperty('value', 'http://localhost:5000/enroll/new-member-token');
    expect(panel.textContent).toMatch(/works once/);
    expect(panel.textContent).toMatch(/privately/);
    expect(within(panel).getByText(/2026/).tagName).toBe('TIME');
    expect(nameField()).toHaveProperty('value', '');
    expect(addButton().textContent).toBe('Add Member');
    // The member list was asked again after the change.
    expect(api.requests(routes.admin.members).length).toBeGreaterThanOrEqual(2);

    await user.click(within(panel).getByRole('button', { name: 'Copy' }));
    await expectToast('Copied', 'The enrollment link is on the clipboard.');
    expect(await navigator.clipboard.readText()).toBe('http://localhost:5000/enroll/new-member-token');

    // Once closed, it is gone for good.
    await user.click(within(panel).getByRole('button', { name: /Done/ }));
    expect(screen.queryByRole('region', { name: /Enrollment link for/ })).toBeNull();
    expect(screen.queryByDisplayValue(/new-member-token/)).toBeNull();
  });

  test('a taken name (409) shows the server message and keeps the name', async () => {
    mockTeamApi().on(routes.admin.addMember, { status: 409, error: { code: ERROR_CODES.conflict, message: 'A member named Ada Lovelace already exists' } });
    const { user } = await renderTeam();
    await user.type(passwordField(), ADMIN_PASSWORD);
    await user.type(nameField(), 'Ada Lovelace');
    await user.click(addButton());

    const toast = await screen.findByText('A member named Ada Lovelace already exists');
    expect(toast.closest('li')?.textContent).toContain('Error');
    expect(toast.closest('li')?.className).toContain('destructive');
    expect(nameField()).toHaveProperty('value', 'Ada Lovelace');
    expect(screen.queryByRole('region', { name: /Enrollment link for/ })).toBeNull();
  });

  test('a network failure says the member could not be added', async () => {
    mockTeamApi().on(routes.admin.addMember, () => Promise.reject(new TypeError('Failed to fetch')));
    const { user } = await renderTeam();
    await user.type(passwordField(), ADMIN_PASSWORD);
    await user.type(nameField(), 'Grace Hopper');
    await user.click(addButton());
    await expectToast('Error', 'Failed to add team member');
  });
});

describe('member list', () => {
  const members = [
    memberOf({ id: 1, name: 'Avery Admin', role: 'admin', lastSignInAt: new Date(Date.now() - 5 * 60_000).toISOString() }),
    memberOf({ id: 2, name: 'Bea Pending', pinSet: false, enrollment: 'pending', enrollmentExpiresAt: '2099-03-04T14:05:00.000Z' }),
    memberOf({ id: 3, name: 'Cal Expired', pinSet: false, enrollment: 'expired' }),
    memberOf({ id: 4, name: 'Dee Locked', lockedUntil: '2099-01-01T00:00:00.000Z' }),
    memberOf({ id: 5, name: 'QA Test User', isQa: true, active: false }),
  ];

  test('shows role, QA, PIN, enrollment, last sign-in, lock and status of each member', async () => {
    mockTeamApi(members);
    await renderTeam();
    const admin = memberRow('Avery Admin');
    expect(admin.textContent).toContain('Admin');
    expect(admin.textContent).toContain('PIN set');
    expect(admin.textContent).toContain('5 minutes ago');
    expect(admin.textContent).toContain('Active');
    // The signed-in admin's own row: the server refuses demoting or deactivating yourself, so no such buttons.
    expect(admin.textContent).toContain('You');
    expect(within(admin).queryByRole('button', { name: 'Make member' })).toBeNull();
    expect(within(admin).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(within(admin).queryByRole('button', { name: 'New enrollment link' })).toBeNull();
    expect(within(admin).queryByRole('button', { name: 'Unlock' })).toBeNull();

    const pending = memberRow('Bea Pending');
    expect(pending.textContent).toContain('No PIN');
    expect(pending.textContent).toMatch(/Enrollment pending, expires .*2099/);
    expect(pending.textContent).toContain('Never');
    expect(within(pending).getByRole('button', { name: 'New enrollment link' })).toBeTruthy();
    expect(within(pending).getByRole('button', { name: 'Make admin' })).toBeTruthy();

    expect(memberRow('Cal Expired').textContent).toContain('Enrollment link expired');

    const locked = memberRow('Dee Locked');
    expect(locked.textContent).toMatch(/Locked until .*2099/);
    expect(within(locked).getByRole('button', { name: 'Unlock' })).toBeTruthy();

    const qa = memberRow('QA Test User');
    expect(qa.textContent).toContain('QA');
    expect(qa.textContent).toContain('Deactivated');
    expect(within(qa).getByRole('button', { name: 'Reactivate' })).toBeTruthy();
    expect(within(qa).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(within(qa).queryByRole('button', { name: 'Make admin' })).toBeNull();
    expect(within(locked).getByRole('button', { name: 'Make admin' })).toBeTruthy();
  });

  test('an action without the admin password asks for it and calls nothing', async () => {
    const api = mockTeamApi(members);
    const { user } = await renderTeam();
    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Unlock' }));
    await expectToast('Admin Password Required', 'Please enter the admin password above');
    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Deactivate' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.requests(routes.admin.unlock)).toEqual([]);
    expect(api.requests(routes.admin.setActive)).toEqual([]);
  });

  test('a new enrollment link for a member without a PIN is shown in the link panel', async () => {
    const api = mockTeamApi(members).on(routes.admin.enrollmentLink, { body: linkFor('Bea Pending', 'fresh-token') });
    const { user } = await renderTeam();
    await user.type(passwordField(), ADMIN_PASSWORD);
    await user.click(within(memberRow('Bea Pending')).getByRole('button', { name: 'New enrollment link' }));
    const panel = await screen.findByRole('region', { name: 'Enrollment link for Bea Pending' });
    expect(within(panel).getByLabelText('Enrollment link')).toHaveProperty('value', 'http://localhost:5000/enroll/fresh-token');
    expect(api.requests(routes.admin.enrollmentLink).map((request) => [request.params, request.body])).toEqual([[{ id: '2' }, { adminPassword: ADMIN_PASSWORD }]]);
  });

  test('Make admin sends the role with the admin password', async () => {
    const api = mockTeamApi(members).on(routes.admin.setRole, { body: { message: 'Bea Pending is now an admin' } });
    const { user } = await renderTeam();
    await user.type(passwordField(), ADMIN_PASSWORD);
    await user.click(within(memberRow('Bea Pending')).getByRole('button', { name: 'Make admin' }));
    await expectToast('Success', 'Bea Pending is now an admin');
    expect(api.requests(routes.admin.setRole).map((request) => request.body)).toEqual([{ adminPassword: ADMIN_PASSWORD, role: 'admin' }]);
  });

  test('Deactivate asks first, saying their sessions end at once', async () => {
    const api = mockTeamApi(members).on(routes.admin.setActive, { body: { message: 'Dee Locked was deactivated' } });
    const { user } = await renderTeam();
    await user.type(passwordField(), ADMIN_PASSWORD);
    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Deactivate' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate Dee Locked?' });
    expect(dialog.textContent).toMatch(/sessions end at once/);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.requests(routes.admin.setActive)).toEqual([]);

    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Deactivate' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    await expectToast('Success', 'Dee Locked was deactivated');
    expect(api.requests(routes.admin.setActive).map((request) => [request.params, request.body])).toEqual([[{ id: '4' }, { adminPassword: ADMIN_PASSWORD, active: false }]]);
  });

  test('a refused action shows the server message', async () => {
    mockTeamApi(members).on(routes.admin.unlock, { status: 403, error: { code: ERROR_CODES.invalidAdminPassword, message: 'Invalid admin password' } });
    const { user } = await renderTeam();
    await user.type(passwordField(), 'wrong-password');
    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Unlock' }));
    await expectToast('Error', 'Invalid admin password');
  });

  test('an empty list says so', async () => {
    mockTeamApi([]);
    openAdminAt('team');
    renderWithApp(<AdminPage />);
    expect(await screen.findByText('No team members yet. Add the first one above.')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Team members' })).toBeNull();
  });

  test('a failed load says why, and Try again asks once more', async () => {
    const api = mockTeamApi().on(routes.admin.members, { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } });
    openAdminAt('team');
    const { user } = renderWithApp(<AdminPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Team members could not be loaded');
    expect(alert.textContent).toContain('Database unavailable');

    api.on(routes.admin.members, { body: members });
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Team members' })).toBeTruthy();
  });
});

describe('QA test user', () => {
  test('has no card of its own: the self-test creates it, and the QA tab says so', async () => {
    mockTeamApi();
    await renderTeam();
    expect(screen.queryByRole('button', { name: /Initialize QA User/i })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'QA Test User' })).toBeNull();
  });
});
