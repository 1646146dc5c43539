import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { AUDIT_EVENTS, AUDIT_PAGE_SIZE } from '../../../common/api/admin';
import type { AuditEntry, AuditPage } from '../../../common/contract/admin';
import { mockFetch, type FetchMock, type RecordedRequest } from '../../test/mock-fetch';
import { renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, openAdminAt, preloadAdminTabs } from './test-fixtures';

beforeAll(preloadAdminTabs, 60_000);

const TOTAL = AUDIT_PAGE_SIZE * 2 + 3;

function entryOf(id: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return { id, event: 'sign-in', outcome: 'success', actorName: 'Ada Lovelace', ip: '10.0.0.7', detail: `entry ${id}`, createdAt: new Date(Date.now() - id * 60_000).toISOString(), ...overrides };
}

/** Answers the page asked for, from a trail of TOTAL entries (fewer when filtered). */
function answerAudit(request: RecordedRequest): { body: AuditPage } {
  const page = Number(request.query.get('page') ?? '1');
  const total = request.query.has('member') || request.query.has('event') ? 2 : TOTAL;
  const first = (page - 1) * AUDIT_PAGE_SIZE;
  const entries = Array.from({ length: Math.max(0, Math.min(AUDIT_PAGE_SIZE, total - first)) }, (_, index) => entryOf(first + index + 1));
  return { body: { entries, page, pageSize: AUDIT_PAGE_SIZE, total } };
}

function mockAuditApi(): FetchMock {
  return mockFetch().on(routes.auth.user, { body: ADMIN }).on(routes.admin.audit, answerAudit);
}

async function renderAudit(): Promise<Rendered> {
  openAdminAt('audit-trail');
  const rendered = renderWithApp(<AdminPage />);
  await screen.findByRole('table', { name: /Audit trail/ });
  return rendered;
}

const queries = (api: FetchMock) => api.requests(routes.admin.audit).map((request) => Object.fromEntries(request.query));
const pager = () => screen.getByRole('navigation', { name: 'Audit trail pages' });

describe('audit trail', () => {
  test('shows each entry: time, event, outcome, member, IP and detail', async () => {
    mockFetch()
      .on(routes.auth.user, { body: ADMIN })
      .on(routes.admin.audit, {
        body: { entries: [entryOf(1, { event: 'lockout', outcome: 'locked', actorName: null, ip: null, detail: 'Five wrong PINs' })], page: 1, pageSize: AUDIT_PAGE_SIZE, total: 1 },
      });
    await renderAudit();
    const row = within(screen.getByRole('table', { name: /Audit trail/ })).getAllByRole('row')[1];
    expect(Array.from(row?.querySelectorAll('td') ?? []).map((cell) => cell.textContent)).toEqual(['1 minute ago', 'Lockout', 'locked', '—', '—', 'Five wrong PINs']);
    expect(within(pager()).getByText('Page 1 of 1')).toBeTruthy();
  });

  test('pages through the trail with Previous and Next', async () => {
    const api = mockAuditApi();
    const { user } = await renderAudit();
    // The self-test's own entries are left out unless asked for.
    expect(queries(api)).toEqual([{ qa: 'hide', page: '1' }]);
    expect(within(pager()).getByText('Page 1 of 3')).toBeTruthy();
    expect(within(pager()).getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', true);

    await user.click(within(pager()).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(`entry ${AUDIT_PAGE_SIZE + 1}`)).toBeTruthy();
    expect(within(pager()).getByText('Page 2 of 3')).toBeTruthy();

    await user.click(within(pager()).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(`entry ${TOTAL}`)).toBeTruthy();
    expect(within(pager()).getByText('Page 3 of 3')).toBeTruthy();
    expect(within(pager()).getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);

    await user.click(within(pager()).getByRole('button', { name: 'Previous' }));
    await waitFor(() => {
      expect(within(pager()).getByText('Page 2 of 3')).toBeTruthy();
    });
    expect(queries(api).map((query) => query.page)).toEqual(['1', '2', '3', '2']);
  });

  test('the member filter applies on Enter, the event filter on choice, each from page 1', async () => {
    const api = mockAuditApi();
    const { user } = await renderAudit();
    await user.click(within(pager()).getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');

    const member = screen.getByLabelText('Member');
    await user.type(member, '  Ada Lovelace ');
    // Typing alone asks nothing.
    expect(queries(api)).toHaveLength(2);
    await user.type(member, '{Enter}');
    await screen.findByText('Page 1 of 1');
    expect(queries(api).at(-1)).toEqual({ member: 'Ada Lovelace', qa: 'hide', page: '1' });

    const events = screen.getByLabelText('Event type');
    expect(within(events).getAllByRole('option').map((option) => option.getAttribute('value'))).toEqual(['', ...AUDIT_EVENTS]);
    await user.selectOptions(events, 'Lockout');
    await waitFor(() => {
      expect(queries(api).at(-1)).toEqual({ member: 'Ada Lovelace', event: 'lockout', qa: 'hide', page: '1' });
    });

    await user.clear(member);
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await user.selectOptions(events, 'All events');
    await waitFor(() => {
      expect(queries(api).at(-1)).toEqual({ qa: 'hide', page: '1' });
    });
  });

  test('event types read as words, in the table and in the filter', async () => {
    mockFetch()
      .on(routes.auth.user, { body: ADMIN })
      .on(routes.admin.audit, {
        body: {
          entries: [entryOf(1, { event: 'admin-password', outcome: 'failure' }), entryOf(2, { event: 'quick-login' }), entryOf(3, { event: 'some_new_event' })],
          page: 1,
          pageSize: AUDIT_PAGE_SIZE,
          total: 3,
        },
      });
    await renderAudit();
    const rows = within(screen.getByRole('table', { name: /Audit trail/ })).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelectorAll('td')[1]?.textContent)).toEqual(['Admin password check', 'Quick sign-in', 'Some new event']);
    const options = within(screen.getByLabelText('Event type')).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual([
      'All events',
      'Sign-in',
      'Quick sign-in',
      'PIN setup',
      'Sign-out',
      'Session cleared',
      'Forgot PIN',
      'Lockout',
      'Enrollment link',
      'Admin action',
      'Admin password check',
      'Comment resolved',
      'Comment reopened',
      'Action completed',
    ]);
    expect(options.some((label) => /[_]|^[a-z]/.test(label))).toBe(false);
  });

  test('Show QA self-test entries asks for them from page 1, and unticked leaves them out again', async () => {
    const api = mockAuditApi();
    const { user } = await renderAudit();
    await user.click(within(pager()).getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    const show = screen.getByRole('checkbox', { name: 'Show QA self-test entries' });
    expect(show).toHaveProperty('checked', false);
    await user.click(show);
    await waitFor(() => {
      expect(queries(api).at(-1)).toEqual({ qa: 'show', page: '1' });
    });
    await user.click(show);
    await waitFor(() => {
      expect(queries(api).at(-1)).toEqual({ qa: 'hide', page: '1' });
    });
  });
});
