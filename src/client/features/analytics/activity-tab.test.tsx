import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { ActiveSessionEntry } from '../../../common/contract/activity';
import { mockFetch } from '../../test/mock-fetch';
import { renderWithApp } from '../../test/render';
import AnalyticsPage from './analytics-page';
import { ACTIVE_NOW_REFETCH_MS } from './api/analytics';
import { suggestionFixture } from '../../test/fixtures';
import { formatClock } from './format';
import { activityOf, answerAnalytics, openAnalyticsAt, preloadLazyParts } from './test-fixtures';

beforeAll(preloadLazyParts, 60_000);

function sessionOf(id: string, memberName: string, minutesAgo: number): ActiveSessionEntry {
  return { id, memberName, loginTime: new Date(Date.now() - 60 * 60_000).toISOString(), lastSeen: new Date(Date.now() - minutesAgo * 60_000).toISOString() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('activity', () => {
  test('who is active now, and the team’s recent activity with details as text', async () => {
    answerAnalytics(mockFetch())
      // Ada has two tabs open: one row for her, with both sessions counted.
      .on(routes.analytics.activeSessions, { body: [sessionOf('s1', 'Ada Lovelace', 1), sessionOf('s2', 'Grace Hopper', 3), sessionOf('s3', 'Ada Lovelace', 4)] })
      .on(routes.analytics.activity, {
        body: [
          activityOf(1, { memberName: 'Grace Hopper', activityType: 'vote_cast', details: JSON.stringify({ target: 'suggestion', suggestionId: 7, myVote: 'thumbs_up' }) }),
          activityOf(2, { memberName: 'Grace Hopper', activityType: 'vote_cast', details: JSON.stringify({ target: 'suggestion', suggestionId: 99, myVote: 'thumbs_up' }) }),
          activityOf(3, { details: JSON.stringify({ componentId: 'deduplication', commentId: 12 }) }),
          // Three page views in a row by Ada fold into one line; Grace's view between others stays its own.
          activityOf(4, { activityType: 'page_view', details: JSON.stringify({ path: '/analytics' }), timestamp: '2026-11-25T10:09:00.000Z' }),
          activityOf(5, { activityType: 'page_view', details: JSON.stringify({ path: '/' }), timestamp: '2026-11-25T10:05:00.000Z' }),
          activityOf(6, { activityType: 'page_view', details: JSON.stringify({ path: '/suggestions' }), timestamp: '2026-11-25T10:02:00.000Z' }),
          activityOf(7, { memberName: 'Grace Hopper', activityType: 'page_view', details: JSON.stringify({ path: '/' }) }),
          // Two views within one minute: one time, not 'between 10:00 and 10:00'.
          activityOf(8, { activityType: 'page_view', details: JSON.stringify({ path: '/' }), timestamp: '2026-11-25T09:00:40.000Z' }),
          activityOf(9, { activityType: 'page_view', details: JSON.stringify({ path: '/analytics' }), timestamp: '2026-11-25T09:00:10.000Z' }),
          activityOf(10, { memberName: 'Grace Hopper', activityType: 'suggestions_generated', details: JSON.stringify({ created: 12, kept: 0, archived: 1, reused: false }) }),
          // Signing in again and again (a new tab, a lost session) is one line too.
          activityOf(11, { memberName: 'Grace Hopper', activityType: 'login', details: JSON.stringify({ method: 'pin' }), timestamp: '2026-11-25T08:40:00.000Z' }),
          activityOf(12, { memberName: 'Grace Hopper', activityType: 'login', details: JSON.stringify({ method: 'quick' }), timestamp: '2026-11-25T08:31:00.000Z' }),
          activityOf(13, { memberName: 'Grace Hopper', activityType: 'login', details: JSON.stringify({ method: 'pin' }), timestamp: '2026-11-25T08:30:00.000Z' }),
          activityOf(14, { activityType: 'page_view', details: JSON.stringify({ path: '/no-such-page' }) }),
        ],
      })
      .on(routes.suggestions.withVotes, { body: [suggestionFixture(7, { suggestion: 'Add an owner to every suppression rule', components: ['deduplication'] })] });
    openAnalyticsAt('activity');
    renderWithApp(<AnalyticsPage />);

    const active = await screen.findByRole('list', { name: 'Active now' });
    expect(within(active).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Ada Lovelace2 sessions, signed in 1 hour ago, seen 1 minute ago',
      'Grace Hoppersigned in 1 hour ago, seen 3 minutes ago',
    ]);
    expect(screen.getByText('2 members active')).toBeTruthy();
    const log = await screen.findByRole('list', { name: "The team's recent activity" });
    // Titles and the suggestion's text arrive with their own queries.
    await waitFor(() => {
      expect(within(log).getAllByRole('listitem')[0]?.textContent).toContain('“Add an owner');
    });
    const lines = within(log)
      .getAllByRole('listitem')
      .map((item) => item.firstElementChild?.textContent);
    expect(lines).toEqual([
      'Grace Hopper voted for “Add an owner to every suppression rule” on Deduplication',
      'Grace Hopper voted for a suggestion',
      'Ada Lovelace commented on Deduplication',
      `Ada Lovelace viewed 3 pages between ${formatClock('2026-11-25T10:02:00.000Z')} and ${formatClock('2026-11-25T10:09:00.000Z')}`,
      'Grace Hopper viewed the review',
      `Ada Lovelace viewed 2 pages at ${formatClock('2026-11-25T09:00:10.000Z')}`,
      'Grace Hopper generated suggestions (12 new, 1 archived)',
      `Grace Hopper signed in 3 times between ${formatClock('2026-11-25T08:30:00.000Z')} and ${formatClock('2026-11-25T08:40:00.000Z')}`,
      'Ada Lovelace viewed a missing page (/no-such-page)',
    ]);
    // No raw keys, ids or JSON, and nothing about the reader's own vote.
    expect(log.textContent).not.toMatch(/comment_added|vote_cast|thumbs_up|myVote|my vote|\{|suggestionId|deduplication/);
  });

  test('empty: nobody active, no activity yet', async () => {
    answerAnalytics(mockFetch());
    openAnalyticsAt('activity');
    renderWithApp(<AnalyticsPage />);
    expect(await screen.findByText('Nobody is active right now.')).toBeTruthy();
    expect(await screen.findByText('No activity yet.')).toBeTruthy();
  });

  test('each part fails on its own, with a retry', async () => {
    answerAnalytics(mockFetch())
      .on(routes.analytics.activeSessions, { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } })
      .on(routes.analytics.activity, { body: [activityOf(1)] });
    openAnalyticsAt('activity');
    renderWithApp(<AnalyticsPage />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Who is active could not be loaded')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(await screen.findByRole('list', { name: "The team's recent activity" })).toBeTruthy();
  });

  test('who is active is asked again every 30 seconds while the tab is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    let calls = 0;
    const api = answerAnalytics(mockFetch()).on(routes.analytics.activeSessions, () => {
      calls += 1;
      return { body: calls === 1 ? [] : [sessionOf('s1', 'Ada Lovelace', 0)] };
    });
    openAnalyticsAt('activity');
    renderWithApp(<AnalyticsPage />);
    await screen.findByText('Nobody is active right now.');
    expect(api.requests(routes.analytics.activeSessions)).toHaveLength(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(ACTIVE_NOW_REFETCH_MS);
    });
    await waitFor(() => {
      expect(screen.getByRole('list', { name: 'Active now' }).textContent).toContain('Ada Lovelace');
    });
    expect(api.requests(routes.analytics.activeSessions)).toHaveLength(2);
  });
});
