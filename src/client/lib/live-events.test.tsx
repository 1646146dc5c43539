import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { authRoutes } from '../../common/api/auth';
import { RESYNC_EVENT } from '../../common/api/live-events';
import type { CurrentUser } from '../../common/contract/user';
import { mockFetch } from '../test/mock-fetch';
import { useLiveQueryUpdates } from './live-events';
import { queryKeys } from './query-keys';

/** The tab's one EventSource, driven by the test. */
class ScriptedEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static latest: ScriptedEventSource | undefined;
  readyState = ScriptedEventSource.CONNECTING;
  constructor(readonly url: string) {
    super();
    ScriptedEventSource.latest = this;
  }
  open(): void {
    this.readyState = ScriptedEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  close(): void {
    this.readyState = ScriptedEventSource.CLOSED;
  }
}

function LiveUpdates() {
  useLiveQueryUpdates();
  return null;
}

describe('live updates', () => {
  test('a resync frame refetches what the page shows, without reconnecting', async () => {
    vi.stubGlobal('EventSource', ScriptedEventSource);
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    const member: CurrentUser = { name: 'Ada Lovelace', firstName: 'Ada', lastName: 'Lovelace', email: null, profileImageUrl: null, role: 'member', permissions: { canAdminister: false, canDecide: false } };
    queryClient.setQueryData(queryKeys.user, member);
    // Who is signed in is refetched too.
    mockFetch().on(authRoutes.user, { body: member });
    const fetchComments = vi.fn(() => Promise.resolve([]));
    const commentsKey = [...queryKeys.commentsRoot, 'agentic-triage'];
    // Watched, as a mounted list would be: invalidating it refetches at once.
    const unwatch = new QueryObserver(queryClient, { queryKey: commentsKey, queryFn: fetchComments }).subscribe(() => undefined);
    await waitFor(() => {
      expect(fetchComments).toHaveBeenCalledTimes(1);
    });

    render(
      <QueryClientProvider client={queryClient}>
        <LiveUpdates />
      </QueryClientProvider>,
    );
    const source = ScriptedEventSource.latest;
    if (source === undefined) throw new Error('no stream was opened');
    source.open();
    expect(fetchComments).toHaveBeenCalledTimes(1);

    source.dispatchEvent(new MessageEvent(RESYNC_EVENT, { data: '{}' }));
    await waitFor(() => {
      expect(fetchComments).toHaveBeenCalledTimes(2);
    });
    expect(ScriptedEventSource.latest).toBe(source);
    unwatch();
  });
});
