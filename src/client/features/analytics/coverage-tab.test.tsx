import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { CoverageMatrix } from '../../../common/contract/activity';
import type { CommentCounts } from '../../../common/contract/comments';
import { deferred, mockFetch, type Answer } from '../../test/mock-fetch';
import { renderWithApp } from '../../test/render';
import AnalyticsPage from './analytics-page';
import { answerAnalytics, COUNTS, COVERAGE, openAnalyticsAt, preloadLazyParts } from './test-fixtures';

beforeAll(preloadLazyParts, 60_000);

function renderCoverage() {
  openAnalyticsAt('coverage');
  return renderWithApp(<AnalyticsPage />);
}

/** The decision in each row header, top to bottom, as a screen reader reads it; null while none shows. */
function decisionsShown(table: HTMLElement): (string | null)[] {
  return within(table)
    .getAllByRole('rowheader')
    .map((header) => header.querySelector('[data-decision]')?.textContent ?? null);
}

describe('coverage', () => {
  test('a members × components table: components as row headers, members as column headers, each cell in words', async () => {
    answerAnalytics(mockFetch());
    renderCoverage();
    const table = await screen.findByRole('table', { name: /Review coverage/ });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Component', 'Ada Lovelace', 'Grace Hopper']);
    // Each row header: the title, then the decision.
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.querySelector('span')?.textContent)).toEqual(['Alert Ingestion', 'Deduplication', 'Root Cause Analysis']);
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').map((cell) => cell.querySelector('.sr-only')?.textContent));
    expect(cells).toEqual([
      ['2 comments, 1 vote', '1 comment'],
      ['2 votes', 'No comments or votes'],
      ['No comments or votes', 'No comments or votes'],
    ]);
    // The visible mark is the number of comments; its words show on hover too.
    const first = within(table).getAllByRole('cell')[0];
    expect(first?.querySelector('[aria-hidden="true"]')?.textContent).toBe('2');
    expect(first?.querySelector('[title]')?.getAttribute('title')).toBe('2 comments, 1 vote');
  });

  test('a decided component shows its decision in words, an undecided one “Not decided”, and the line above counts the decided ones', async () => {
    answerAnalytics(mockFetch());
    renderCoverage();
    expect(await screen.findByText('1 of 3 components decided')).toBeTruthy();
    const table = screen.getByRole('table', { name: /Review coverage/ });
    // Root Cause Analysis is absent from the counts: no comments, no decision.
    expect(decisionsShown(table)).toEqual(['Decision: Accepted with changes', 'Decision: Not decided', 'Decision: Not decided']);
  });

  test('every outcome reads in its own words', async () => {
    const counts: CommentCounts = {
      ...COUNTS,
      components: {
        'alert-ingestion': { open: 0, resolved: 0, decision: 'accepted' },
        deduplication: { open: 0, resolved: 0, decision: 'needs_rework' },
        'root-cause': { open: 0, resolved: 0, decision: 'deferred' },
      },
    };
    answerAnalytics(mockFetch()).on(routes.comments.counts, { body: counts });
    renderCoverage();
    expect(await screen.findByText('3 of 3 components decided')).toBeTruthy();
    expect(decisionsShown(screen.getByRole('table', { name: /Review coverage/ }))).toEqual(['Decision: Accepted as is', 'Decision: Needs rework', 'Decision: Deferred']);
  });

  test('while the decisions load, none reads “Not decided”: placeholders until they arrive', async () => {
    const answer = deferred<Answer<CommentCounts>>();
    answerAnalytics(mockFetch()).on(routes.comments.counts, () => answer.promise);
    renderCoverage();
    const table = await screen.findByRole('table', { name: /Review coverage/ });
    expect(screen.getByText('Loading the decisions…')).toBeTruthy();
    expect(decisionsShown(table)).toEqual([null, null, null]);
    expect(screen.queryByText('Not decided')).toBeNull();
    expect(screen.queryByText('components decided', { exact: false })).toBeNull();

    answer.resolve({ body: COUNTS });
    expect(await screen.findByText('1 of 3 components decided')).toBeTruthy();
    expect(decisionsShown(table)).toEqual(['Decision: Accepted with changes', 'Decision: Not decided', 'Decision: Not decided']);
    expect(screen.getAllByText('Not decided')).toHaveLength(2);
  });

  test('the decisions fail: said above the matrix with a retry, and no component reads “Not decided”', async () => {
    answerAnalytics(mockFetch()).on(routes.comments.counts, { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } });
    const { user } = renderCoverage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The decisions could not be loaded')).toBeTruthy();
    expect(within(alert).getByText('Database unavailable')).toBeTruthy();
    const table = screen.getByRole('table', { name: /Review coverage/ });
    expect(decisionsShown(table)).toEqual([null, null, null]);
    expect(screen.queryByText('Not decided')).toBeNull();

    answerAnalytics(mockFetch());
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 of 3 components decided')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('lists the components nobody has commented on', async () => {
    answerAnalytics(mockFetch());
    renderCoverage();
    const list = await screen.findByRole('list', { name: 'Components nobody has commented on' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Deduplication', 'Root Cause Analysis']);
    expect(screen.getByText('1 of 3 components have comments.')).toBeTruthy();
  });

  test('every component commented on: nothing left to review', async () => {
    const covered: CoverageMatrix = { ...COVERAGE, components: COVERAGE.components.map((component) => ({ ...component, comments: 1 })) };
    answerAnalytics(mockFetch()).on(routes.analytics.coverage, { body: covered });
    renderCoverage();
    expect(await screen.findByText('Every component has at least one comment.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Components nobody has commented on' })).toBeNull();
  });

  test('no members yet: the matrix says so, every component is still to review', async () => {
    const empty: CoverageMatrix = { members: [], components: COVERAGE.components.map((component) => ({ ...component, comments: 0, cells: [] })) };
    answerAnalytics(mockFetch()).on(routes.analytics.coverage, { body: empty });
    renderCoverage();
    expect(await screen.findByText('No members yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(screen.getByRole('list', { name: 'Components nobody has commented on' })).getAllByRole('listitem')).toHaveLength(3);
  });

  test('loading, then a failure with a retry', async () => {
    const answer = deferred<Answer<CoverageMatrix>>();
    answerAnalytics(mockFetch()).on(routes.analytics.coverage, () => answer.promise);
    const { user } = renderCoverage();
    expect(screen.getByText('Loading the review coverage…')).toBeTruthy();
    answer.resolve({ status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The review coverage could not be loaded')).toBeTruthy();

    answerAnalytics(mockFetch());
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: /Review coverage/ })).toBeTruthy();
  });
});
