import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { activityRoutes } from '../../common/api/activity';
import { loggedActivities } from '../test/activity';
import { mockFetch } from '../test/mock-fetch';
import { flushActivity, SignedInActivity } from './use-activity-tracking';

afterEach(() => {
  vi.useRealTimers();
  navigate('/');
});

describe('signed-in activity', () => {
  test('logs a page view for the page opened and for each route after it', async () => {
    const api = mockFetch();
    navigate('/suggestions');
    const { unmount } = render(<SignedInActivity memberName="Ada Lovelace" />);
    await waitFor(() => {
      expect(loggedActivities(api)).toEqual([{ activityType: 'page_view', details: { path: '/suggestions' } }]);
    });
    act(() => {
      navigate('/principles');
    });
    await waitFor(() => {
      expect(loggedActivities(api)).toHaveLength(2);
    });
    expect(loggedActivities(api)[1]).toEqual({ activityType: 'page_view', details: { path: '/principles' } });
    unmount();
  });

  test('signing out sends the time counted so far; the pages going away send the rest', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const api = mockFetch();
    const { unmount } = render(<SignedInActivity memberName="Ada Lovelace" />);
    await waitFor(() => {
      expect(loggedActivities(api)).toHaveLength(1);
    });
    vi.setSystemTime(Date.now() + 12_000);
    await flushActivity();
    expect(api.requests(activityRoutes.sync).map((request) => request.body)).toEqual([{ activeTime: 12 }]);
    vi.setSystemTime(Date.now() + 3_000);
    unmount();
    await waitFor(() => {
      expect(api.requests(activityRoutes.sync)).toHaveLength(2);
    });
    expect(api.requests(activityRoutes.sync)[1]?.body).toEqual({ activeTime: 3 });
    // Once stopped, there is nothing left to flush.
    await flushActivity();
    expect(api.requests(activityRoutes.sync)).toHaveLength(2);
  });

  test('a sync refused with 401 (the session has ended) is not retried; other failures are', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = mockFetch().on(activityRoutes.sync, { status: 503, error: { code: 'DATABASE_UNAVAILABLE', message: 'Try again' } });
    const { unmount } = render(<SignedInActivity memberName="Ada Lovelace" />);
    await waitFor(() => {
      expect(loggedActivities(api)).toHaveLength(1);
    });
    vi.setSystemTime(Date.now() + 5_000);
    await flushActivity();
    api.on(activityRoutes.sync, { status: 401, error: { code: 'UNAUTHENTICATED', message: 'Sign in to continue' } });
    await flushActivity();
    await flushActivity();
    expect(api.requests(activityRoutes.sync).map((request) => request.body)).toEqual([{ activeTime: 5 }, { activeTime: 5 }]);
    unmount();
  });
});
