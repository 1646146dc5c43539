import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../../common/api';
import type { Suggestion } from '../../../../common/contract/ai';
import { useSuggestions } from '../../../lib/queries/suggestions';
import { queryKeys } from '../../../lib/query-keys';
import { suggestionFixture } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { expectToast, renderWithApp } from '../../../test/render';
import { SuggestionLookupProvider } from '../suggestion-lookup';
import { MyActions } from './my-actions';

function action(id: number, status: Suggestion['status']): Suggestion {
  return suggestionFixture(id, {
    suggestion: `Action ${id}: add an owner to every suppression rule.`,
    status,
    owner: 'Ada Lovelace',
    dueDate: '2999-12-01',
    mine: true,
    permissions: { canSetStatus: false, canAssign: false, canComplete: true },
  });
}

/** My actions over the live list, as the page shows them: marking one done refetches it. */
function MyActionsOnTheList() {
  const suggestions = useSuggestions();
  if (suggestions.data === undefined) return null;
  return (
    <SuggestionLookupProvider suggestions={suggestions.data} architecture={undefined}>
      <MyActions suggestions={suggestions.data} />
    </SuggestionLookupProvider>
  );
}

describe('my actions', () => {
  test('Mark done from the keyboard: the button goes with the change, the focus stays on the action', async () => {
    let done = false;
    mockFetch()
      .on(routes.suggestions.withVotes, () => ({ body: [action(1, done ? 'done' : 'accepted'), action(2, 'accepted')] }))
      .on(routes.suggestions.complete, () => {
        done = true;
        return { body: action(1, 'done') };
      });
    const { user } = renderWithApp(<MyActionsOnTheList />);
    const section = await screen.findByRole('region', { name: /My actions/ });
    const first = section.querySelector<HTMLElement>('[data-action-id="1"]');
    if (first === null) throw new Error('no entry for action 1');
    within(first).getByRole('button', { name: 'Mark done' }).focus();
    await user.keyboard('{Enter}');

    await expectToast('Action done', 'It is marked done for the team.');
    await waitFor(() => {
      expect(within(section).getByRole('heading').textContent).toContain('(1 open, 1 done)');
    });
    const entry = section.querySelector('[data-action-id="1"]');
    expect(entry).not.toBeNull();
    expect(within(entry as HTMLElement).queryByRole('button', { name: 'Mark done' })).toBeNull();
    expect(document.activeElement).toBe(entry);
  });

  test('an action done by someone else leaves the focus where the member has it', async () => {
    let done = false;
    mockFetch().on(routes.suggestions.withVotes, () => ({ body: [action(1, done ? 'done' : 'accepted'), action(2, 'accepted')] }));
    const { queryClient } = renderWithApp(<MyActionsOnTheList />);
    const section = await screen.findByRole('region', { name: /My actions/ });
    const other = within(section.querySelector<HTMLElement>('[data-action-id="2"]') ?? section).getByRole('button', { name: 'Mark done' });
    other.focus();
    // An admin marks action 1 done; the change arrives live.
    done = true;
    await queryClient.invalidateQueries({ queryKey: queryKeys.suggestions });
    await waitFor(() => {
      expect(within(section).getByRole('heading').textContent).toContain('(1 open, 1 done)');
    });
    expect(document.activeElement).toBe(other);
  });
});
