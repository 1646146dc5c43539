import { screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../../common/api';
import { ALL_ERRORS_SHOWN, UNRESOLVED_ERRORS_SHOWN } from '../../../common/api/error-reports';
import { ERROR_CODES } from '../../../common/api/error-codes';
import type { ErrorLogEntry } from '../../../common/contract/error-reports';
import { mockFetch, type FetchMock } from '../../test/mock-fetch';
import { expectToast, renderWithApp, type Rendered } from '../../test/render';
import AdminPage from './admin-page';
import { ADMIN, errorOf, openAdminAt, preloadAdminTabs } from './test-fixtures';

beforeAll(preloadAdminTabs, 60_000);

function mockErrorApi({ unresolved = [], all = [] }: { unresolved?: ErrorLogEntry[]; all?: ErrorLogEntry[] } = {}): FetchMock {
  return mockFetch().on(routes.auth.user, { body: ADMIN }).on(routes.errorReports.unresolved, { body: unresolved }).on(routes.errorReports.list, { body: all });
}

async function renderErrors(): Promise<Rendered> {
  openAdminAt('error-logs');
  const rendered = renderWithApp(<AdminPage />);
  await screen.findByRole('heading', { name: 'All Error Logs' });
  return rendered;
}

const many = (count: number, overrides: Partial<ErrorLogEntry> = {}) => Array.from({ length: count }, (_, index) => errorOf({ id: index + 1, message: `Failure number ${index + 1}`, ...overrides }));

describe('error logs', () => {
  test('both lists say so when empty', async () => {
    mockErrorApi();
    await renderErrors();
    expect(await screen.findByText('✓ No unresolved errors. System running smoothly!')).toBeTruthy();
    expect(await screen.findByText('No error logs found. System is clean!')).toBeTruthy();
  });

  test(`shows the first ${UNRESOLVED_ERRORS_SHOWN} unresolved errors with type in words, severity, page, count, source, member and time`, async () => {
    const unresolved = [
      errorOf({ id: 1, severity: 'critical', occurrences: 3, memberName: null, message: 'Boom', url: `${window.location.origin}/review/event-management?tab=comments` }),
      ...many(UNRESOLVED_ERRORS_SHOWN, { severity: 'low', url: null, errorType: 'unhandled_promise_rejection' }).map((entry) => ({ ...entry, id: entry.id + 10 })),
    ];
    mockErrorApi({ unresolved });
    await renderErrors();
    const list = await screen.findByRole('list', { name: 'Unresolved errors' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(UNRESOLVED_ERRORS_SHOWN);
    const first = items[0] ?? list;
    expect(first.textContent).toMatch(/^JavaScript error \(critical\)/);
    expect(first.textContent).toMatch(/Boom/);
    expect(first.textContent).toContain('Page /review/event-management?tab=comments · Reported 3 times');
    expect(first.textContent).toMatch(/frontend · Unknown · .*ago/);
    expect(first.textContent).not.toContain('javascript_error');
    expect(first.querySelector('[aria-hidden="true"].rounded-full')?.className).toContain('bg-red-600');
    const second = items[1] ?? list;
    expect(second.querySelector('[aria-hidden="true"].rounded-full')?.className).toContain('bg-blue-500');
    expect(second.textContent).toMatch(/^Unhandled promise rejection \(low\)/);
    expect(second.textContent).toContain('Page not reported · Reported once');
  });

  test('a page on another site is shown as sent', async () => {
    mockErrorApi({ unresolved: [errorOf({ url: 'https://elsewhere.example/app' })] });
    await renderErrors();
    const list = await screen.findByRole('list', { name: 'Unresolved errors' });
    expect(list.textContent).toContain('Page https://elsewhere.example/app · Reported once');
  });

  test('renders messages and stacks as text, the stack on demand', async () => {
    const html = '<img src=x onerror="alert(1)"><b>bold</b>';
    mockErrorApi({ unresolved: [errorOf({ message: html, stack: `Error: ${html}\n    at x.js:1:1` })] });
    const { user } = await renderErrors();
    const list = await screen.findByRole('list', { name: 'Unresolved errors' });
    expect(within(list).getByText(html)).toBeTruthy();
    expect(list.querySelector('img')).toBeNull();
    expect(list.querySelector('b')).toBeNull();

    const details = list.querySelector('details');
    expect(details?.open).toBe(false);
    await user.click(within(list).getByText('Stack trace'));
    expect(details?.open).toBe(true);
    expect(details?.querySelector('pre')?.textContent).toBe(`Error: ${html}\n    at x.js:1:1`);
  });

  test('Mark Resolved marks it, says so and refreshes both lists', async () => {
    const api = mockErrorApi({ unresolved: [errorOf({ id: 5 })], all: [errorOf({ id: 5 })] }).on(routes.errorReports.resolve, { body: errorOf({ id: 5, resolved: true }) });
    const { user } = await renderErrors();
    await screen.findByRole('list', { name: 'Unresolved errors' });
    api.on(routes.errorReports.unresolved, { body: [] }).on(routes.errorReports.list, { body: [errorOf({ id: 5, resolved: true })] });

    await user.click(screen.getByRole('button', { name: 'Mark Resolved' }));
    await expectToast('Error Resolved', 'Error has been marked as resolved');
    expect(api.requests(routes.errorReports.resolve).map((request) => [request.method, request.params])).toEqual([['PATCH', { id: '5' }]]);
    expect(await screen.findByText('✓ No unresolved errors. System running smoothly!')).toBeTruthy();
    expect(api.requests(routes.errorReports.list)).toHaveLength(2);
  });

  test('a failed Mark Resolved says so', async () => {
    mockErrorApi({ unresolved: [errorOf()] }).on(routes.errorReports.resolve, { status: 404, error: { code: ERROR_CODES.notFound, message: 'No such error' } });
    const { user } = await renderErrors();
    await user.click(await screen.findByRole('button', { name: 'Mark Resolved' }));
    await expectToast('Error', 'Failed to mark error as resolved');
  });

  test(`lists the first ${ALL_ERRORS_SHOWN} of all errors in a scrollable box, with their state and severity`, async () => {
    const all = [errorOf({ id: 1, resolved: true, severity: 'medium', message: 'Old one' }), ...many(ALL_ERRORS_SHOWN + 5).map((entry) => ({ ...entry, id: entry.id + 100 }))];
    mockErrorApi({ all });
    await renderErrors();
    const box = await screen.findByRole('region', { name: 'Error log entries' });
    expect(box.getAttribute('tabindex')).toBe('0');
    // The app's scroll area: the region is its viewport, bounded in height.
    expect(box.hasAttribute('data-radix-scroll-area-viewport')).toBe(true);
    expect(box.className).toContain('max-h-[28rem]');
    const items = within(box).getAllByRole('listitem');
    expect(items).toHaveLength(ALL_ERRORS_SHOWN);
    expect(items[0]?.textContent).toMatch(/^Resolvedmedium.*Old one.*Page \/suggestions · Reported once.*JavaScript error · .*ago/);
    expect(items[1]?.textContent).toMatch(/^Openhigh/);
  });

  test('a failed load offers a retry', async () => {
    mockErrorApi().on(routes.errorReports.list, { status: 500, error: { code: ERROR_CODES.internal, message: 'Database unavailable' } });
    await renderErrors();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error logs could not be loaded');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
