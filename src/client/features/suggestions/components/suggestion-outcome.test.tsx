import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../../common/api';
import { suggestionFixture } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { expectToast, renderWithApp } from '../../../test/render';
import { SuggestionLookupProvider } from '../suggestion-lookup';
import { MyActions } from './my-actions';
import { countsByStatus, visibleSuggestions } from './status-filter';
import { SuggestionOutcome } from './suggestion-outcome';

const NO_CONTROLS = { canSetStatus: false, canAssign: false, canComplete: false };
const AS_ADMIN = { canSetStatus: true, canAssign: true, canComplete: true };
/** As the server presents an action to its owner. */
const OWNED = { mine: true, permissions: { ...NO_CONTROLS, canComplete: true } };
const suggestion = suggestionFixture;

const DAY = '2026-11-28';

describe('where a suggestion stands', () => {
  test('a member reads the status, a declined one’s reason and an overdue owner line, with no controls', () => {
    mockFetch();
    renderWithApp(
      <>
        <SuggestionOutcome suggestion={suggestion(1, { status: 'declined', statusReason: 'Covered elsewhere' })} day={DAY} />
        <SuggestionOutcome suggestion={suggestion(2, { status: 'in_progress', owner: 'Grace Hopper', dueDate: '2026-11-27' })} day={DAY} />
      </>,
    );
    expect(screen.getByText('Declined')).toBeTruthy();
    expect(screen.getByText('Why: Covered elsewhere')).toBeTruthy();
    expect(screen.getByText('Owner: Grace Hopper · due 2026-11-27 · overdue')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  test('the owner marks their action done', async () => {
    const api = mockFetch().on(routes.suggestions.complete, { body: suggestion(3, { status: 'done', owner: 'Ada Lovelace' }) });
    const { user } = renderWithApp(<SuggestionOutcome suggestion={suggestion(3, { status: 'accepted', owner: 'Ada Lovelace', dueDate: DAY, ...OWNED })} day={DAY} />);
    expect(screen.getByText('Owner: Ada Lovelace · due 2026-11-28')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Mark done' }));
    await expectToast('Action done', 'It is marked done for the team.');
    expect(api.requests(routes.suggestions.complete).map((request) => request.params.id)).toEqual(['3']);
  });

  test('an admin declines with a reason and the admin password; no reason, no call', async () => {
    const api = mockFetch().on(routes.suggestions.setStatus, { body: suggestion(4, { status: 'declined', statusReason: 'Out of scope' }) });
    const { user } = renderWithApp(<SuggestionOutcome suggestion={suggestion(4, { permissions: AS_ADMIN })} day={DAY} />);
    expect(screen.queryByRole('button', { name: 'Assign' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Status' }));
    const dialog = screen.getByRole('dialog', { name: 'Change the status' });
    await user.selectOptions(within(dialog).getByLabelText('Status'), 'Declined');
    await user.type(within(dialog).getByLabelText('Admin password'), 'admin-secret-1');
    await user.click(within(dialog).getByRole('button', { name: 'Save status' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Declining needs a reason.');
    expect(api.requests(routes.suggestions.setStatus)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason'), 'Out of scope');
    await user.click(within(dialog).getByRole('button', { name: 'Save status' }));
    await expectToast('Status changed', 'The team sees the new status.');
    expect(api.requests(routes.suggestions.setStatus).map((request) => request.body)).toEqual([{ status: 'declined', reason: 'Out of scope', adminPassword: 'admin-secret-1' }]);
  });
});

describe('the status filter and my actions', () => {
  const list = [
    suggestion(1, { status: 'declined', statusReason: 'No' }),
    suggestion(2),
    suggestion(3, { status: 'done', owner: 'Ada Lovelace', ...OWNED }),
    suggestion(4, { status: 'accepted', owner: 'Ada Lovelace', dueDate: '2999-12-01', ...OWNED }),
    suggestion(5, { status: 'in_progress', owner: 'Ada Lovelace', dueDate: '2000-11-01', ...OWNED }),
    suggestion(6, { status: 'accepted', owner: 'Grace Hopper' }),
  ];

  test('count, filter and order by status', () => {
    expect(countsByStatus(list)).toEqual({ open: 1, accepted: 2, in_progress: 1, done: 1, declined: 1 });
    expect(visibleSuggestions(list, 'accepted', 'generated').map((item) => item.id)).toEqual([4, 6]);
    expect(visibleSuggestions(list, 'all', 'status').map((item) => item.status)).toEqual(['open', 'accepted', 'accepted', 'in_progress', 'done', 'declined']);
    expect(visibleSuggestions(list, 'all', 'generated').map((item) => item.id)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('list the member’s own actions, overdue first and said so, done last', () => {
    mockFetch();
    renderWithApp(
      <SuggestionLookupProvider suggestions={list} architecture={undefined}>
        <MyActions suggestions={list} />
      </SuggestionLookupProvider>,
    );
    const section = screen.getByRole('region', { name: /My actions/ });
    expect(within(section).getByRole('heading').textContent).toContain('(2 open, 1 overdue, 1 done)');
    const items = within(section).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-action-id'))).toEqual(['5', '4', '3']);
    expect(items[0]?.textContent).toContain('overdue');
  });
});
