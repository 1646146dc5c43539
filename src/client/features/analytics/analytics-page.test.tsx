import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { AnalyticsUser } from '../../../common/contract/activity';
import { deferred, mockFetch } from '../../test/mock-fetch';
import { renderWithApp } from '../../test/render';
import AnalyticsPage from './analytics-page';
import { answerAnalytics, daysOf, openAnalyticsAt, preloadLazyParts, userOf, USERS } from './test-fixtures';

beforeAll(preloadLazyParts, 60_000);

const tabs = () => screen.getAllByRole('tab').map((tab) => tab.textContent);
const selectedTab = () => screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;

describe('page', () => {
  test('the header names the page, Back to Main leads home, and four tabs open on Overview', async () => {
    answerAnalytics(mockFetch());
    openAnalyticsAt();
    renderWithApp(<AnalyticsPage />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Team Analytics');
    expect(screen.getByRole('link', { name: 'Back to Main' }).getAttribute('href')).toBe('/');
    expect(tabs()).toEqual(['Overview', 'Users', 'Activity', 'Coverage']);
    expect(selectedTab()).toBe('Overview');
    await screen.findByRole('heading', { name: 'Team totals' });
  });

  test('the tab is kept in ?tab=, chosen by click or by the arrow keys', async () => {
    answerAnalytics(mockFetch());
    openAnalyticsAt();
    const { user } = renderWithApp(<AnalyticsPage />);
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    expect(window.location.search).toBe('?tab=users');
    await screen.findByRole('table', { name: /Members/ });

    await user.keyboard('{ArrowRight}');
    expect(selectedTab()).toBe('Activity');
    expect(document.activeElement?.textContent).toBe('Activity');
    expect(window.location.search).toBe('?tab=activity');
    await screen.findByText('Nobody is active right now.');
  });

  test.each([
    ['coverage', 'Coverage'],
    ['nonsense', 'Overview'],
  ])('a link to ?tab=%s opens %s', async (tab, label) => {
    answerAnalytics(mockFetch());
    openAnalyticsAt(tab);
    renderWithApp(<AnalyticsPage />);
    expect(selectedTab()).toBe(label);
    await screen.findAllByRole('heading', { level: 2 });
  });
});

describe('overview', () => {
  const totals = () => {
    const list = screen.getByRole('heading', { name: 'Team totals' }).closest('section');
    if (list === null) throw new Error('no totals section');
    return Object.fromEntries(Array.from(list.querySelectorAll('dt')).map((term) => [term.textContent, term.nextElementSibling?.textContent]));
  };

  test('team totals: members, comments, votes and active time in hours and minutes', async () => {
    answerAnalytics(mockFetch());
    openAnalyticsAt();
    renderWithApp(<AnalyticsPage />);
    await screen.findByText('2h 17m');
    // 7,500 s + 720 s + 0 s = 8,220 s = 2 h 17 min.
    expect(totals()).toEqual({ Members: '3', Comments: '11', Votes: '3', 'Active time': '2h 17m' });
  });

  test('top contributors: the five members with the most comments, most first, with their active time', async () => {
    const many: AnalyticsUser[] = [
      ...USERS,
      userOf({ memberName: 'Linus Torvalds', totalComments: 1, totalActiveTime: 59 }),
      userOf({ memberName: 'Barbara Liskov', totalComments: 9, totalActiveTime: 3600 }),
      userOf({ memberName: 'Edsger Dijkstra', totalComments: 2, totalActiveTime: 60 }),
      userOf({ memberName: 'Donald Knuth', totalComments: 2, totalVotes: 5, totalActiveTime: 36_000 + 59 * 60 }),
    ];
    answerAnalytics(mockFetch()).on(routes.analytics.users, { body: many });
    openAnalyticsAt();
    renderWithApp(<AnalyticsPage />);
    const list = await screen.findByRole('list', { name: 'Top contributors' });
    // Rank, name, comments and active time: the text nodes a sighted reader sees.
    const rows = within(list)
      .getAllByRole('listitem')
      .map((item) => {
        const [name, comments, time] = Array.from(item.querySelectorAll(':scope > span:last-child > span'));
        return [item.firstElementChild?.textContent, name?.textContent, comments?.firstChild?.textContent, time?.lastChild?.textContent];
      });
    expect(rows).toEqual([
      ['1', 'Barbara Liskov', '9 comments', '1h 0m'],
      ['2', 'Grace Hopper', '7 comments', '0h 12m'],
      ['3', 'Ada Lovelace', '4 comments', '2h 5m'],
      // A tie on comments goes to more votes.
      ['4', 'Donald Knuth', '2 comments', '10h 59m'],
      ['5', 'Edsger Dijkstra', '2 comments', '0h 1m'],
    ]);
    // Screen readers hear what the time is.
    expect(list.querySelector('.sr-only')?.textContent).toBe(', active time ');
  });

  test('no members or comments yet: zero totals and an empty leaderboard', async () => {
    answerAnalytics(mockFetch())
      .on(routes.analytics.users, { body: [] })
      .on(routes.analytics.daily, { body: { days: daysOf() } });
    openAnalyticsAt();
    renderWithApp(<AnalyticsPage />);
    expect(await screen.findByText('No comments yet.')).toBeTruthy();
    expect(totals()).toEqual({ Members: '0', Comments: '0', Votes: '0', 'Active time': '0h 0m' });
    expect(await screen.findByText('No activity in the last 30 days yet.')).toBeTruthy();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  test('loading shows the panels it fills, with placeholders, announced to screen readers', async () => {
    const users = deferred<{ body: AnalyticsUser[] }>();
    answerAnalytics(mockFetch()).on(routes.analytics.users, () => users.promise);
    openAnalyticsAt();
    renderWithApp(<AnalyticsPage />);
    expect(screen.getByText("Loading the team's figures…").closest('[role="status"]')).toBeTruthy();
    // The panels are there from the start, so what follows them does not move when the figures come.
    expect(screen.getByRole('heading', { name: 'Team totals' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Top contributors' })).toBeTruthy();
    expect(Object.keys(totals())).toEqual(['Members', 'Comments', 'Votes', 'Active time']);
    users.resolve({ body: USERS });
    await screen.findByText('2h 17m');
    expect(screen.queryByText("Loading the team's figures…")).toBeNull();
  });

  test('a failed load says so and retries', async () => {
    let fail = true;
    answerAnalytics(mockFetch()).on(routes.analytics.users, () => (fail ? { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } } : { body: USERS }));
    openAnalyticsAt();
    const { user } = renderWithApp(<AnalyticsPage />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText("The team's figures could not be loaded")).toBeTruthy();
    expect(within(alert).getByText('Database unavailable')).toBeTruthy();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('2h 17m');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('the daily chart draws in its own chunk, with its figures also as a table', async () => {
    answerAnalytics(mockFetch());
    openAnalyticsAt();
    renderWithApp(<AnalyticsPage />);
    expect(await screen.findByRole('figure', { name: 'Comments, votes and active time per day' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Comments, votes and active time per day' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(Array.from(rows.at(-2)?.children ?? []).map((cell) => cell.textContent)).toEqual(['Nov 24', '3', '2', '1h 0m']);
    expect(screen.getByText(/Oct 27 to Nov 25 \(UTC\)/)).toBeTruthy();
  });

  test('the daily figures failing leave the rest of the overview', async () => {
    answerAnalytics(mockFetch()).on(routes.analytics.daily, { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } });
    openAnalyticsAt();
    renderWithApp(<AnalyticsPage />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The daily figures could not be loaded')).toBeTruthy();
    await waitFor(() => {
      expect(screen.getByRole('heading', { name: 'Team totals' })).toBeTruthy();
    });
  });
});
