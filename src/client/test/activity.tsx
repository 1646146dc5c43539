import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import { activityRoutes } from '../../common/api/activity';
import type { ActivityLogRequest } from '../../common/contract/activity';
import { createQueryClient } from '../lib/query-client';
import type { FetchMock } from './mock-fetch';

/** The activity log entries posted so far, their details parsed back from JSON text. */
export function loggedActivities(api: FetchMock): { activityType: string; details?: unknown }[] {
  return api.requests(activityRoutes.log).map((request) => {
    // The body is what the client sent, typed by the route it went to.
    const body = request.body as ActivityLogRequest;
    return body.details === undefined ? { activityType: body.activityType } : { activityType: body.activityType, details: JSON.parse(body.details) as unknown };
  });
}

interface MutationState {
  isIdle: boolean;
  isPending: boolean;
}

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

/** Renders a mutation hook with the app's query client, starts it once and waits until it has settled. */
export async function runMutation<M extends MutationState>(useMutationHook: () => M, start: (mutation: M) => void): Promise<M> {
  const { result } = renderHook(useMutationHook, { wrapper });
  act(() => {
    start(result.current);
  });
  await waitFor(() => {
    expect(result.current.isPending || result.current.isIdle).toBe(false);
  });
  return result.current;
}
