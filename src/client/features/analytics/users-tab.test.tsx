import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { ActivityLogEntry, MemberAnalytics } from '../../../common/contract/activity';
import { mockFetch } from '../../test/mock-fetch';
import { renderWithApp, type Rendered } from '../../test/render';
import AnalyticsPage from './analytics-page';
import { activityOf, answerAnalytics, daysOf, openAnalyticsAt, preloadLazyParts, userOf } from './test-fixtures';

beforeAll(preloadLazyParts, 60_000);

async function renderUsers(): Promise<Rendered> {
  openAnalyticsAt('users');
  const rendered = renderWithApp(<AnalyticsPage />);
  await screen.findByRole('table', { name: /Members/ });
  return rendered;
}

const table = () => screen.getByRole('table', { name: /Members/ });
const names = () => within(table()).getAllByRole('rowheader').map((cell) => cell.textContent);
const header = (label: string) => within(table()).getByRole('columnheader', { name: label });
const sortedBy = () =>
  within(table())
    .getAllByRole('columnheader')
    .filter((cell) => cell.hasAttribute('aria-sort'))
    .map((cell) => [cell.textContent, cell.getAttribute('aria-sort')]);

describe('users', () => {
  test('lists every member with logins, comments, votes, active time and last login, by name', async () => {
    answerAnalytics(mockFetch());
    await renderUsers();
    expect(within(table()).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Member', 'Logins', 'Comments', 'Votes', 'Active time', 'Last login']);
    expect(names()).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    expect(sortedBy()).toEqual([['Member', 'ascending']]);
    const ada = within(table()).getAllByRole('row')[1];
    expect(Array.from(ada?.children ?? []).map((cell) => cell.textContent)).toEqual(['Ada Lovelace', '3', '4', '2', '2h 5m', '2 hours ago']);
    const alan = within(table()).getAllByRole('row')[2];
    expect(alan?.lastElementChild?.textContent).toBe('Never');
  });

  test('each column sorts from its header button, most first, and again the other way round', async () => {
    answerAnalytics(mockFetch());
    const { user } = await renderUsers();
    await user.click(within(header('Comments')).getByRole('button'));
    expect(names()).toEqual(['Grace Hopper', 'Ada Lovelace', 'Alan Turing']);
    expect(sortedBy()).toEqual([['Comments', 'descending']]);

    await user.click(within(header('Comments')).getByRole('button'));
    expect(names()).toEqual(['Alan Turing', 'Ada Lovelace', 'Grace Hopper']);
    expect(sortedBy()).toEqual([['Comments', 'ascending']]);

    await user.click(within(header('Active time')).getByRole('button'));
    expect(names()).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);

    await user.click(within(header('Logins')).getByRole('button'));
    expect(names()).toEqual(['Grace Hopper', 'Ada Lovelace', 'Alan Turing']);

    await user.click(within(header('Votes')).getByRole('button'));
    expect(names()).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);

    await user.click(within(header('Member')).getByRole('button'));
    expect(names()).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper']);
    await user.click(within(header('Member')).getByRole('button'));
    expect(names()).toEqual(['Grace Hopper', 'Alan Turing', 'Ada Lovelace']);
  });

  test('by last login, a member who never signed in stays last either way', async () => {
    answerAnalytics(mockFetch());
    const { user } = await renderUsers();
    await user.click(within(header('Last login')).getByRole('button'));
    expect(names()).toEqual(['Grace Hopper', 'Ada Lovelace', 'Alan Turing']);
    await user.click(within(header('Last login')).getByRole('button'));
    expect(names()).toEqual(['Ada Lovelace', 'Grace Hopper', 'Alan Turing']);
    expect(sortedBy()).toEqual([['Last login', 'ascending']]);
  });

  test('sorting works from the keyboard', async () => {
    answerAnalytics(mockFetch());
    const { user } = await renderUsers();
    within(header('Votes')).getByRole('button').focus();
    await user.keyboard('{Enter}');
    expect(sortedBy()).toEqual([['Votes', 'descending']]);
    await user.keyboard(' ');
    expect(sortedBy()).toEqual([['Votes', 'ascending']]);
  });

  test('on a phone only logins, comments and votes give way: active time and last login stay', async () => {
    answerAnalytics(mockFetch());
    await renderUsers();
    // jsdom applies no stylesheet: the breakpoint classes are what a phone's layout reads.
    const headers = screen.getAllByRole('columnheader');
    const onPhone = headers.filter((header) => !header.className.split(' ').includes('hidden')).map((header) => header.textContent);
    expect(onPhone).toEqual(['Member', 'Active time', 'Last login']);
    for (const row of within(table()).getAllByRole('row').slice(1)) {
      const shown = within(row)
        .getAllByRole('cell')
        .filter((cell) => !cell.className.split(' ').includes('hidden'));
      expect(shown).toHaveLength(2);
    }
    expect(table().className).not.toMatch(/(^| )min-w-/);
  });

  test('no members: an empty state', async () => {
    answerAnalytics(mockFetch()).on(routes.analytics.users, { body: [] });
    openAnalyticsAt('users');
    renderWithApp(<AnalyticsPage />);
    expect(await screen.findByText('No members yet.')).toBeTruthy();
  });

  test('a failed load shows the error with a retry', async () => {
    answerAnalytics(mockFetch()).on(routes.analytics.users, { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } });
    openAnalyticsAt('users');
    renderWithApp(<AnalyticsPage />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The members could not be loaded')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

/** A member's own log entry: the team's, without the name. */
function ownEntry(...args: Parameters<typeof activityOf>): ActivityLogEntry {
  const { memberName: _memberName, ...entry } = activityOf(...args);
  return entry;
}

const ADA: MemberAnalytics = {
  user: userOf(),
  recentActivity: [
    ownEntry(1, { activityType: 'comment_added', details: JSON.stringify({ componentId: 'alert-ingestion', title: '<img src=x onerror=alert(1)>' }) }),
    ownEntry(2, { activityType: 'page_view', details: JSON.stringify({ path: '/analytics' }) }),
    ownEntry(3, { activityType: 'login', details: null }),
    ownEntry(4, { activityType: 'something_new', details: 'not json <b>bold</b>' }),
  ],
  daily: daysOf({ 27: { activeTime: 60 }, 29: { comments: 1 } }),
};

describe('member detail', () => {
  test("a name opens that member's figures and timeline; details read as plain text", async () => {
    const api = answerAnalytics(mockFetch()).on(routes.analytics.user, { body: ADA });
    const { user } = await renderUsers();
    const opener = within(table()).getByRole('button', { name: 'Ada Lovelace' });
    await user.click(opener);

    const dialog = await screen.findByRole('dialog', { name: 'Ada Lovelace' });
    expect(api.requests(routes.analytics.user).map((request) => request.params)).toEqual([{ memberName: 'Ada Lovelace' }]);
    const timeline = await within(dialog).findByRole('list', { name: 'Recent activity of Ada Lovelace' });
    const figures = Object.fromEntries(Array.from(dialog.querySelectorAll('dt')).map((term) => [term.textContent, term.nextElementSibling?.textContent]));
    expect(figures).toEqual({ Logins: '3', Comments: '4', Votes: '2', 'Active time': '2h 5m' });
    expect(within(dialog).getByText(/active on 2 of the last 30 days/)).toBeTruthy();

    // The component's title comes with the coverage query, which may answer after the log.
    await within(timeline).findByText('Commented on Alert Ingestion');
    const entries = within(timeline).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'Commented on Alert Ingestion1 minute ago',
      'Viewed team analytics2 minutes ago',
      'Signed in3 minutes ago',
      'Something new4 minutes ago',
    ]);
    // Shown as text: no markup from the details reaches the page.
    expect(dialog.querySelector('img, b')).toBeNull();

    await user.keyboard('{Escape}');
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(document.activeElement).toBe(opener);
    });
  });

  test('a member with no activity yet', async () => {
    const never = userOf({ totalLogins: 0, totalComments: 0, totalVotes: 0, totalActiveTime: 0, lastLogin: null });
    answerAnalytics(mockFetch()).on(routes.analytics.user, { body: { user: never, recentActivity: [], daily: daysOf() } });
    const { user } = await renderUsers();
    await user.click(within(table()).getByRole('button', { name: 'Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ada Lovelace' });
    expect(await within(dialog).findByText('No activity yet.')).toBeTruthy();
    expect(within(dialog).getByText(/active on 0 of the last 30 days/)).toBeTruthy();
  });

  test('active days and an empty log never contradict each other', async () => {
    // 19 days with time or comments, but nothing in the log (it holds sign-ins, page views and actions only).
    const busy = Object.fromEntries(Array.from({ length: 19 }, (_, index) => [index + 11, { activeTime: 600 }]));
    answerAnalytics(mockFetch()).on(routes.analytics.user, { body: { ...ADA, recentActivity: [], daily: daysOf(busy) } });
    const { user } = await renderUsers();
    await user.click(within(table()).getByRole('button', { name: 'Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ada Lovelace' });
    expect(await within(dialog).findByText(/active on 19 of the last 30 days/)).toBeTruthy();
    expect(within(dialog).getByText(/Nothing in the recent log/)).toBeTruthy();
    expect(within(dialog).queryByText('No activity yet.')).toBeNull();
  });

  test('a member removed meanwhile (404) and a failed load', async () => {
    const api = answerAnalytics(mockFetch()).on(routes.analytics.user, { status: 404, error: { code: ERROR_CODES.memberNotFound, message: 'Member not found' } });
    const { user } = await renderUsers();
    await user.click(within(table()).getByRole('button', { name: 'Grace Hopper' }));
    let dialog = await screen.findByRole('dialog', { name: 'Grace Hopper' });
    expect(await within(dialog).findByText('Grace Hopper is no longer a member of the team.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    api.on(routes.analytics.user, { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } });
    await user.click(within(table()).getByRole('button', { name: 'Ada Lovelace' }));
    dialog = await screen.findByRole('dialog', { name: 'Ada Lovelace' });
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText("This member's activity could not be loaded")).toBeTruthy();
  });
});
