import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routes } from '../../../../common/api';
import type { Decision } from '../../../../common/contract/decisions';
import type { CurrentUser } from '../../../../common/contract/user';
import { commentsOn } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { expectToast, renderWithApp } from '../../../test/render';
import { DecisionSection } from './decision-section';

const ID = 'recovery-verification';
const ADMIN: CurrentUser = { name: 'Avery Admin', firstName: 'Avery', lastName: 'Admin', email: null, profileImageUrl: null, role: 'admin', permissions: { canAdminister: true, canDecide: true } };
const MEMBER: CurrentUser = { ...ADMIN, name: 'Morgan Member', firstName: 'Morgan', lastName: 'Member', role: 'member', permissions: { canAdminister: false, canDecide: false } };

const CURRENT: Decision = {
  id: 2,
  componentId: ID,
  outcome: 'needs_rework',
  rationale: 'The SLO source is not decided yet.',
  commentIds: [1, 2],
  suggestionIds: [],
  decidedBy: 'Avery Admin',
  decidedAt: '2025-01-01T00:10:00.000Z',
};
const EARLIER: Decision = { ...CURRENT, id: 1, outcome: 'accepted', rationale: 'Good enough for the pilot.', commentIds: [], decidedAt: '2025-01-01T00:05:00.000Z' };

function mockSection(user: CurrentUser, decisions: Decision[]) {
  return mockFetch()
    .on(routes.auth.user, { body: user })
    .on(routes.decisions.history, { body: decisions })
    .on(routes.comments.withVotes, { body: commentsOn(ID, 2) })
    .on(routes.suggestions.withVotes, { body: [] });
}

const render = () => renderWithApp(<DecisionSection componentId={ID} componentTitle="Recovery Verification" />);

describe('the decision on a component', () => {
  test('shows members the current decision, what it rests on, and the earlier ones folded; no way to record one', async () => {
    mockSection(MEMBER, [CURRENT, EARLIER]);
    render();
    const section = await screen.findByRole('region', { name: 'Decision' });
    await within(section).findByText('The SLO source is not decided yet.');
    expect(within(section).getAllByText('Needs rework')[0]?.closest('[data-decision]')?.getAttribute('data-decision')).toBe('needs_rework');
    expect(section.textContent).toContain('Decided by Avery Admin');
    expect(section.textContent).toContain('rests on 2 comments');
    await within(section).findByText('Ada Lovelace: Comment number 2');
    const earlier = within(section).getByText('Earlier decisions (1)');
    expect(earlier.closest('details')?.open).toBe(false);
    expect(within(section).queryByRole('button', { name: /Record/ })).toBeNull();
  });

  test('says when nothing is decided yet', async () => {
    mockSection(MEMBER, []);
    render();
    expect(await screen.findByText('No decision yet.')).toBeTruthy();
  });

  test('lets an admin record one: checks the form first, then sends outcome, rationale, basis and password', async () => {
    const api = mockSection(ADMIN, []).on(routes.decisions.record, { status: 201, body: CURRENT });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Record a decision' }));
    const dialog = screen.getByRole('dialog', { name: 'Decision on Recovery Verification' });
    await user.click(within(dialog).getByRole('button', { name: 'Record decision' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose what was decided.');
    await user.click(within(dialog).getByRole('radio', { name: 'Needs rework' }));
    await user.click(within(dialog).getByRole('button', { name: 'Record decision' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Write why: a decision needs a rationale.');
    await user.type(within(dialog).getByLabelText('Rationale'), 'The SLO source is not decided yet.');
    await user.click(await within(dialog).findByRole('checkbox', { name: /Comment number 2/ }));
    await user.type(within(dialog).getByLabelText('Admin password'), 'admin-secret-1');
    await user.click(within(dialog).getByRole('button', { name: 'Record decision' }));
    await expectToast('Decision recorded', 'earlier ones stay in its history');
    expect(api.requests(routes.decisions.record).map((request) => ({ id: request.params.componentId, body: request.body }))).toEqual([
      { id: ID, body: { outcome: 'needs_rework', rationale: 'The SLO source is not decided yet.', commentIds: [2], suggestionIds: [], adminPassword: 'admin-secret-1' } },
    ]);
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  test("shows the server's refusal in the dialog and keeps what was typed", async () => {
    mockSection(ADMIN, [CURRENT]).on(routes.decisions.record, { status: 403, error: { code: 'INVALID_ADMIN_PASSWORD', message: 'Invalid admin password' } });
    const { user } = render();
    await user.click(await screen.findByRole('button', { name: 'Record a new decision' }));
    const dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('radio', { name: 'Deferred' }));
    await user.type(within(dialog).getByLabelText('Rationale'), 'Wait for the pilot');
    await user.type(within(dialog).getByLabelText('Admin password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Record decision' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Invalid admin password');
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('Rationale').value).toBe('Wait for the pilot');
  });
});
