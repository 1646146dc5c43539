import { queryOptions, useQuery } from '@tanstack/react-query';
import { architectureRoutes } from '../../../common/api/architecture';
import type { Architecture } from '../../../common/contract/architecture';
import { ApiRequestError, api } from '../api-client';
import { queryKeys } from '../query-keys';

/** The cards and the diagram under review (content as data). */
function getArchitecture(signal?: AbortSignal): Promise<Architecture> {
  return api(architectureRoutes.get, undefined, signal === undefined ? {} : { signal });
}

/**
 * Render-as-you-fetch: the page's module starts this call as soon as it loads, instead of when the
 * page first commits. React holds a lazy route's first commit for up to 300 ms after the route's
 * loading fallback appeared (its Suspense throttling); starting the call at module load puts the
 * answer in hand by then, and the query's first run takes it. An early call older than a few
 * seconds is dropped rather than served.
 */
let early: { answer: Promise<Architecture>; startedAt: number } | undefined;
const EARLY_CALL_MAX_AGE_MS = 5_000;

export function prefetchArchitecture(): void {
  if (early !== undefined) return;
  const answer = getArchitecture();
  // The query reports a failure; this branch only keeps an unused early call from being an unhandled rejection.
  answer.catch(() => undefined);
  early = { answer, startedAt: Date.now() };
}

function takeEarlyAnswer(): Promise<Architecture> | undefined {
  const taken = early;
  early = undefined;
  return taken !== undefined && Date.now() - taken.startedAt < EARLY_CALL_MAX_AGE_MS ? taken.answer : undefined;
}

/**
 * A server's refusal (say a 503 while it restarts) is the answer and the page shows it with its
 * retry; only an early call that never got one (network drop) or ran before the session cookie
 * settled (401) is asked again.
 */
function askAgainUnlessAnswered(error: unknown, signal: AbortSignal): Promise<Architecture> {
  if (error instanceof ApiRequestError && error.status !== 401) throw error;
  return getArchitecture(signal);
}

export function architectureQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.architecture,
    queryFn: ({ signal }) => takeEarlyAnswer()?.catch((error: unknown) => askAgainUnlessAnswered(error, signal)) ?? getArchitecture(signal),
  });
}

export function useArchitecture() {
  return useQuery(architectureQueryOptions());
}
