import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { AddMemberResult, AdminMember } from '../../../common/contract/admin';
import { deferred, mockFetch, type Answer, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, ADMIN_PASSWORD, linkFor, memberOf, openAdminAt, unlockWith } from './test-fixtures';

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
  test('Add Member needs a name; the card has no password field of its own', async () => {
    mockTeamApi();
    const { user } = await renderTeam();
    expect(addButton()).toHaveProperty('disabled', true);
    await user.type(nameField(), '   ');
    expect(addButton()).toHaveProperty('disabled', true);
    await user.type(nameField(), 'Grace Hopper');
    expect(addButton()).toHaveProperty('disabled', false);
    const card = screen.getByRole('region', { name: 'Add Team Member' });
    expect(within(card).queryByLabelText(/password/i)).toBeNull();
  });

  test('adding while the actions are locked asks for the admin password first, then adds', async () => {
    const api = mockTeamApi().on(routes.admin.addMember, { status: 201, body: added('Grace Hopper') });
    const { user } = await renderTeam();
    await user.type(nameField(), 'Grace Hopper');
    await user.click(addButton());
    expect(await screen.findByRole('dialog', { name: 'Unlock admin actions' })).toBeTruthy();
    expect(api.requests(routes.admin.addMember)).toEqual([]);
    await unlockWith(user);
    await expectToast('Success', 'Grace Hopper added');
    expect(api.requests(routes.admin.addMember).map((request) => request.body)).toEqual([{ adminPassword: ADMIN_PASSWORD, memberName: 'Grace Hopper' }]);
  });

  test('says Adding... while the call runs; success clears the name and shows the link once', async () => {
    const answer = deferred<Answer<AddMemberResult>>();
    const api = mockTeamApi().on(routes.admin.addMember, () => answer.promise);
    const { user } = await renderTeam();
    await unlockWith(user);
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
    await unlockWith(user);
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
    await unlockWith(user);
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
    memberOf({ id: 6, name: 'Eli Gone', pinSet: false, enrollment: 'expired', active: false }),
    memberOf({ id: 7, name: 'Fay Qa', isQa: true }),
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
    expect(within(admin).queryByRole('button', { name: 'Reset PIN' })).toBeNull();

    const pending = memberRow('Bea Pending');
    expect(pending.textContent).toContain('No PIN');
    expect(pending.textContent).toMatch(/Enrollment pending, expires .*2099/);
    expect(pending.textContent).toContain('Never');
    expect(within(pending).getByRole('button', { name: 'New enrollment link' })).toBeTruthy();
    expect(within(pending).getByRole('button', { name: 'Make admin' })).toBeTruthy();
    // No PIN to reset: the link is what they need.
    expect(within(pending).queryByRole('button', { name: 'Reset PIN' })).toBeNull();

    expect(memberRow('Cal Expired').textContent).toContain('Enrollment link expired');

    const locked = memberRow('Dee Locked');
    expect(locked.textContent).toMatch(/Locked until .*2099/);
    expect(within(locked).getByRole('button', { name: 'Unlock' })).toBeTruthy();
    // Any member with a PIN, with or without a request of theirs.
    expect(within(locked).getByRole('button', { name: 'Reset PIN' })).toBeTruthy();
    expect(within(locked).queryByRole('button', { name: 'New enrollment link' })).toBeNull();

    // Deactivated: no link to hand out (the server would refuse it), only Reactivate.
    const gone = memberRow('Eli Gone');
    expect(within(gone).queryByRole('button', { name: 'New enrollment link' })).toBeNull();
    expect(within(gone).queryByRole('button', { name: 'Reset PIN' })).toBeNull();
    expect(within(gone).getByRole('button', { name: 'Reactivate' })).toBeTruthy();
    // The QA user's PIN is the configured one: never reset here.
    expect(within(memberRow('Fay Qa')).queryByRole('button', { name: 'Reset PIN' })).toBeNull();

    const qa = memberRow('QA Test User');
    expect(qa.textContent).toContain('QA');
    expect(qa.textContent).toContain('Deactivated');
    expect(within(qa).getByRole('button', { name: 'Reactivate' })).toBeTruthy();
    expect(within(qa).queryByRole('button', { name: 'Deactivate' })).toBeNull();
    expect(within(qa).queryByRole('button', { name: 'Make admin' })).toBeNull();
    expect(within(locked).getByRole('button', { name: 'Make admin' })).toBeTruthy();
  });

  test('Deactivate while locked asks for the admin password first, then the confirmation', async () => {
    const api = mockTeamApi(members).on(routes.admin.setActive, { body: { message: 'Dee Locked was deactivated' } });
    const { user } = await renderTeam();
    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Deactivate' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await unlockWith(user);
    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate Dee Locked?' });
    expect(api.requests(routes.admin.setActive)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await expectToast('Success', 'Dee Locked was deactivated');
    expect(api.requests(routes.admin.setActive).map((request) => request.body)).toEqual([{ adminPassword: ADMIN_PASSWORD, active: false }]);
  });

  test('a new enrollment link for a member without a PIN is shown in the link panel', async () => {
    const api = mockTeamApi(members).on(routes.admin.enrollmentLink, { body: linkFor('Bea Pending', 'fresh-token') });
    const { user } = await renderTeam();
    await unlockWith(user);
    await user.click(within(memberRow('Bea Pending')).getByRole('button', { name: 'New enrollment link' }));
    const panel = await screen.findByRole('region', { name: 'Enrollment link for Bea Pending' });
    expect(within(panel).getByLabelText('Enrollment link')).toHaveProperty('value', 'http://localhost:5000/enroll/fresh-token');
    expect(api.requests(routes.admin.enrollmentLink).map((request) => [request.params, request.body])).toEqual([[{ id: '2' }, { adminPassword: ADMIN_PASSWORD }]]);
  });

  test('Make admin sends the role with the admin password', async () => {
    const api = mockTeamApi(members).on(routes.admin.setRole, { body: { message: 'Bea Pending is now an admin' } });
    const { user } = await renderTeam();
    await unlockWith(user);
    await user.click(within(memberRow('Bea Pending')).getByRole('button', { name: 'Make admin' }));
    await expectToast('Success', 'Bea Pending is now an admin');
    expect(api.requests(routes.admin.setRole).map((request) => request.body)).toEqual([{ adminPassword: ADMIN_PASSWORD, role: 'admin' }]);
  });

  test('Deactivate asks first, saying their sessions end at once', async () => {
    const api = mockTeamApi(members).on(routes.admin.setActive, { body: { message: 'Dee Locked was deactivated' } });
    const { user } = await renderTeam();
    await unlockWith(user);
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

  test('a refused action shows the server message and stays unlocked', async () => {
    mockTeamApi(members).on(routes.admin.unlock, { status: 403, error: { code: ERROR_CODES.forbiddenChange, message: 'Dee Locked is an admin: only the configured admin (ADMIN_NAME) can unlock another admin' } });
    const { user } = await renderTeam();
    await unlockWith(user);
    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Unlock' }));
    await expectToast('Error', 'only the configured admin (ADMIN_NAME) can unlock another admin');
    expect(within(screen.getByRole('region', { name: 'Admin actions' })).getByRole('button', { name: 'Lock admin actions' })).toBeTruthy();
  });

  test('a wrong admin password locks the actions again and says so', async () => {
    mockTeamApi(members).on(routes.admin.unlock, { status: 403, error: { code: ERROR_CODES.invalidAdminPassword, message: 'Invalid admin password' } });
    const { user } = await renderTeam();
    await unlockWith(user, 'wrong-password');
    await user.click(within(memberRow('Dee Locked')).getByRole('button', { name: 'Unlock' }));
    await expectToast('Wrong admin password', 'Admin actions are locked again.');
    const bar = screen.getByRole('region', { name: 'Admin actions' });
    await waitFor(() => {
      expect(within(bar).getByRole('status').textContent).toMatch(/^The admin password was wrong/);
    });
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

describe('PIN reset from the member list', () => {
  const members = [memberOf({ id: 1, name: 'Avery Admin', role: 'admin' }), memberOf({ id: 4, name: 'Dee Member' })];

  test('asks for confirmation first; Cancel calls nothing and gives focus back to Reset PIN', async () => {
    const api = mockTeamApi(members);
    const { user } = await renderTeam();
    await unlockWith(user);
    const reset = within(memberRow('Dee Member')).getByRole('button', { name: 'Reset PIN' });
    await user.click(reset);
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset the PIN of Dee Member?' });
    expect(dialog.textContent).toMatch(/signed out on every device/);
    expect(dialog.textContent).toMatch(/new enrollment link/);
    // Focus starts on Cancel: Enter alone never confirms.
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(document.activeElement).toBe(reset);
    });
    expect(api.requests(routes.admin.resetPin)).toEqual([]);
  });

  test('confirmed, resets without a request: the admin password goes along and the new link is shown', async () => {
    const api = mockTeamApi(members).on(routes.admin.resetPin, { body: { ...linkFor('Dee Member', 'reset-token'), message: 'The PIN of Dee Member has been cleared' } });
    const { user } = await renderTeam();
    const reset = within(memberRow('Dee Member')).getByRole('button', { name: 'Reset PIN' });
    // Locked: the password first, then the question.
    await user.click(reset);
    await unlockWith(user);
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset the PIN of Dee Member?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset PIN' }));

    await expectToast('PIN Reset Successful', 'The PIN of Dee Member has been cleared');
    const panel = await screen.findByRole('region', { name: 'Enrollment link for Dee Member' });
    expect(within(panel).getByLabelText('Enrollment link')).toHaveProperty('value', 'http://localhost:5000/enroll/reset-token');
    expect(api.requests(routes.admin.resetPin).map((request) => [request.params, request.body])).toEqual([[{ id: '4' }, { adminPassword: ADMIN_PASSWORD }]]);
    expect(api.requests(routes.admin.resolvePinReset)).toEqual([]);
    expect(document.activeElement).toBe(reset);
  });

  test('a refusal shows the server message and no link', async () => {
    mockTeamApi(members).on(routes.admin.resetPin, { status: 409, error: { code: ERROR_CODES.memberInactive, message: 'Dee Member is deactivated; reactivate them first' } });
    const { user } = await renderTeam();
    await unlockWith(user);
    await user.click(within(memberRow('Dee Member')).getByRole('button', { name: 'Reset PIN' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Reset PIN' }));
    await expectToast('Error', 'Dee Member is deactivated; reactivate them first');
    expect(screen.queryByRole('region', { name: /Enrollment link for/ })).toBeNull();
  });
});

describe('focus after a dialog', () => {
  test('Deactivate: focus comes back to the row after Cancel and after confirming', async () => {
    mockTeamApi([memberOf({ id: 4, name: 'Dee Member' })]).on(routes.admin.setActive, { body: { message: 'Dee Member has been deactivated' } });
    const { user } = await renderTeam();
    await unlockWith(user);
    const deactivate = within(memberRow('Dee Member')).getByRole('button', { name: 'Deactivate' });
    await user.click(deactivate);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(document.activeElement).toBe(deactivate);
    });
    await user.click(deactivate);
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => {
      expect(document.activeElement).toBe(deactivate);
    });
    await expectToast('Success', 'Dee Member has been deactivated');
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

describe('a large team', () => {
  const team = Array.from({ length: 60 }, (_, index) => memberOf({ id: index + 1, name: `Member ${String(index + 1).padStart(2, '0')} ${index % 2 === 0 ? 'Even' : 'Odd'}` }));
  const rowNames = () => screen.getAllByRole('rowheader').map((header) => header.textContent.replace(/(Admin|Member|QA|You)+$/, '').trim());

  test('shows 25 rows at first, 25 more a click, and says how many of how many', async () => {
    mockTeamApi(team);
    const { user } = await renderTeam();
    expect(screen.getAllByRole('rowheader')).toHaveLength(25);
    expect(screen.getByText('Showing 25 of 60 members').getAttribute('role')).toBe('status');
    await user.click(screen.getByRole('button', { name: 'Show 25 more' }));
    expect(screen.getAllByRole('rowheader')).toHaveLength(50);
    await user.click(screen.getByRole('button', { name: 'Show 10 more' }));
    expect(screen.getAllByRole('rowheader')).toHaveLength(60);
    expect(screen.queryByRole('button', { name: /^Show \d+ more$/ })).toBeNull();
    expect(screen.getByText('Showing 60 of 60 members')).toBeTruthy();
  });

  test('finds members by part of their name, whatever its case, from the first rows again', async () => {
    mockTeamApi(team);
    const { user } = await renderTeam();
    await user.click(screen.getByRole('button', { name: 'Show 25 more' }));
    await user.type(screen.getByLabelText('Find a member'), '  oDD');
    expect(rowNames()).toEqual(team.filter((member) => member.name.endsWith('Odd')).slice(0, 25).map((member) => member.name));
    expect(screen.getByText('Showing 25 of 30 members')).toBeTruthy();
    await user.clear(screen.getByLabelText('Find a member'));
    await user.type(screen.getByLabelText('Find a member'), 'member 07');
    expect(rowNames()).toEqual(['Member 07 Even']);
    expect(screen.queryByText(/^Showing/)).toBeNull();
    await user.type(screen.getByLabelText('Find a member'), 'x');
    expect(screen.queryByRole('table', { name: 'Team members' })).toBeNull();
    expect(screen.getByText('No member’s name contains “member 07x”.')).toBeTruthy();
  });

  test('a team that fits in one step has no find field and no count', async () => {
    mockTeamApi(team.slice(0, 25));
    await renderTeam();
    expect(screen.getAllByRole('rowheader')).toHaveLength(25);
    expect(screen.queryByLabelText('Find a member')).toBeNull();
    expect(screen.queryByText(/^Showing/)).toBeNull();
  });
});
