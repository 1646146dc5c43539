import { screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { routes } from '../../../../shared/api';
import { commentsOn, summaryOf } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithApp } from '../../../test/render';
import { CommentSummarySection } from './comment-summary';

// The member's open/closed choice is kept in module state for the whole page, so this file (a
// module registry of its own) holds the one test that sets it.

test('the member’s open or closed choice holds for every summary opened after it', async () => {
  mockFetch()
    .on(routes.comments.withVotes, ({ params }) => ({ body: commentsOn(params.componentId ?? '', params.componentId === 'alert-ingestion' ? 2 : 5) }))
    .on(routes.comments.summary, ({ params }) =>
      params.componentId === 'alert-ingestion' ? { body: summaryOf('alert-ingestion', [2, 1]) } : { body: summaryOf('correlation', [5, 4, 3, 2, 1]) },
    );

  const first = renderWithApp(<CommentSummarySection componentId="alert-ingestion" componentTitle="Alert Ingestion" />, { toaster: false });
  await screen.findByText('82% confidence');
  const toggle = screen.getByRole('button', { name: 'AI summary' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(screen.queryByText('The team wants ingestion to drop duplicates early.', { ignore: '[hidden] *' })).toBeNull();

  await first.user.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  expect(screen.getByText('The team wants ingestion to drop duplicates early.', { ignore: '[hidden] *' })).toBeTruthy();

  // Closed by hand: a summary of five comments, which would open by itself, now starts closed.
  await first.user.click(toggle);
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  first.unmount();

  renderWithApp(<CommentSummarySection componentId="correlation" componentTitle="Correlation" />, { toaster: false });
  await screen.findByText('82% confidence');
  expect(screen.getByRole('button', { name: 'AI summary' }).getAttribute('aria-expanded')).toBe('false');
});
