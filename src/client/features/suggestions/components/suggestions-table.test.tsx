import { screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../../common/api';
import type { Suggestion } from '../../../../common/contract/ai';
import type { CurrentUser } from '../../../../common/contract/user';
import { suggestionFixture } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithApp } from '../../../test/render';
import { FIRST_ROWS, SuggestionsTable } from './suggestions-table';

const MEMBER: CurrentUser = { name: 'Robin Rows', firstName: 'Robin', lastName: 'Rows', email: null, profileImageUrl: null, role: 'member', permissions: { canAdminister: false, canDecide: false } };

function suggestionsOf(count: number): Suggestion[] {
  return Array.from({ length: count }, (_, index) =>
    suggestionFixture(index + 1, {
      suggestion: `Suggestion number ${index + 1}: add a dedupe window before enrichment.`,
      components: ['alert-ingestion'],
      recommendationType: index % 2 === 0 ? 'content' : 'structural',
      memberInitials: ['RR'],
    }),
  );
}

const rows = () => document.querySelectorAll('tbody tr[data-suggestion-id]');

describe('suggestions table', () => {
  test('renders a bounded first batch of rows, then every row', async () => {
    mockFetch().on(routes.auth.user, { body: MEMBER });
    const total = 250;
    renderWithApp(
      <>
        <h2 id="caption">Suggestions</h2>
        <SuggestionsTable suggestions={suggestionsOf(total)} captionId="caption" />
      </>,
      { toaster: false },
    );
    // The first render holds only the first batch: a few hundred rows at once would be thousands of elements.
    expect(rows()).toHaveLength(FIRST_ROWS);
    expect(screen.getByText(/^Suggestion number 1:/)).toBeTruthy();
    expect(screen.queryByText(/^Suggestion number 250:/)).toBeNull();
    // The rest follow in idle time, in order.
    await waitFor(
      () => {
        expect(rows()).toHaveLength(total);
      },
      { timeout: 10_000 },
    );
    expect([...rows()].map((row) => row.getAttribute('data-suggestion-id'))).toEqual(Array.from({ length: total }, (_, index) => String(index + 1)));
  });

  test('a short list renders whole at once', () => {
    mockFetch().on(routes.auth.user, { body: MEMBER });
    renderWithApp(<SuggestionsTable suggestions={suggestionsOf(5)} captionId="caption" />, { toaster: false });
    expect(rows()).toHaveLength(5);
  });
});
