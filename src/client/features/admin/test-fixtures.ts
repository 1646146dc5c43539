import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { AdminMember, EnrollmentLinkResult, PinResetRequest } from '../../../common/contract/admin';
import type { AiPrompt } from '../../../common/contract/ai';
import type { ErrorLogEntry } from '../../../common/contract/error-reports';
import type { CurrentUser } from '../../../common/contract/user';

export const ADMIN: CurrentUser = { name: 'Avery Admin', firstName: 'Avery', lastName: 'Admin', email: null, profileImageUrl: null, role: 'admin', permissions: { canAdminister: true, canDecide: true } };
export const MEMBER: CurrentUser = { ...ADMIN, name: 'Morgan Member', firstName: 'Morgan', lastName: 'Member', role: 'member', permissions: { canAdminister: false, canDecide: false } };

export const ADMIN_PASSWORD = 'admin-secret-1';

/** Types the admin password into the unlock dialog (already open, or opened here from the panel's control) and waits for it to close. */
export async function unlockWith(user: UserEvent, password = ADMIN_PASSWORD): Promise<void> {
  if (screen.queryByRole('dialog', { name: 'Unlock admin actions' }) === null) {
    await user.click(within(screen.getByRole('region', { name: 'Admin actions' })).getByRole('button', { name: 'Unlock admin actions' }));
  }
  const dialog = await screen.findByRole('dialog', { name: 'Unlock admin actions' });
  await user.type(within(dialog).getByLabelText('Admin password'), password);
  await user.click(within(dialog).getByRole('button', { name: 'Unlock' }));
  await waitFor(() => {
    expect(screen.queryByRole('dialog', { name: 'Unlock admin actions' })).toBeNull();
  });
}

/** The live stream, opened by the page: no events arrive in these tests (happy-dom has no EventSource). */
class SilentEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = SilentEventSource.CONNECTING;
  constructor(readonly url: string) {
    super();
  }
  close(): void {
    this.readyState = SilentEventSource.CLOSED;
  }
}

/** Puts the browser on /admin (at `tab`, when given: a tab id, or anything a link might hold) with a silent live stream; render the page next. */
export function openAdminAt(tab?: string): void {
  vi.stubGlobal('EventSource', SilentEventSource);
  window.history.replaceState(null, '', tab === undefined ? '/admin' : `/admin?tab=${tab}`);
}

export function memberOf(overrides: Partial<AdminMember> = {}): AdminMember {
  return {
    id: 1,
    name: 'Ada Lovelace',
    role: 'member',
    isQa: false,
    active: true,
    pinSet: true,
    enrollment: 'none',
    enrollmentExpiresAt: null,
    lastSignInAt: null,
    lockedUntil: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

export function linkFor(memberName: string, token = 'tok-123'): EnrollmentLinkResult {
  return {
    message: `Enrollment link created for ${memberName}`,
    memberName,
    enrollmentLink: { url: `http://localhost:5000/enroll/${token}`, expiresAt: '2026-03-04T14:05:00.000Z' },
  };
}

export function pinResetOf(overrides: Partial<PinResetRequest> = {}): PinResetRequest {
  return { id: 7, memberName: 'Ada Lovelace', status: 'pending', requestedAt: '2026-01-05T10:00:00.000Z', resolvedAt: null, resolvedBy: null, ...overrides };
}

export function errorOf(overrides: Partial<ErrorLogEntry> = {}): ErrorLogEntry {
  return {
    id: 5,
    errorType: 'javascript_error',
    message: 'Cannot read properties of undefined',
    stack: 'TypeError: Cannot read properties of undefined\n    at render (app.js:1:1)',
    severity: 'high',
    source: 'frontend',
    url: '/suggestions',
    memberName: 'Ada Lovelace',
    createdAt: '2026-01-05T10:00:00.000Z',
    lastSeenAt: '2026-01-05T11:00:00.000Z',
    occurrences: 1,
    resolved: false,
    resolvedAt: null,
    resolvedBy: null,
    ...overrides,
  };
}

export function promptOf(overrides: Partial<AiPrompt> = {}): AiPrompt {
  return {
    id: 1,
    name: 'narrative-summary',
    prompt: 'Summarise the team.\n{suggestionsText}\nBe brief.',
    description: 'Short summary',
    isActive: true,
    createdBy: 'Avery Admin',
    createdAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * Loads the panel's lazy tabs ahead (call in `beforeAll`): a test then waits for data, not for a
 * first module transform on a busy machine.
 */
export async function preloadAdminTabs(): Promise<void> {
  await Promise.all([
    import('./components/pin-resets-tab'),
    import('./components/qa-tab'),
    import('./components/error-logs-tab'),
    import('./components/prompts-tab'),
    import('./components/system-tab'),
    import('./components/audit-tab'),
  ]);
}
