import { hashKey, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './api-client';
import { queryKeys } from './query-keys';
import { rememberSignedIn } from './signed-in-hint';

const USER_QUERY_HASH = hashKey(queryKeys.user);

function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 401;
}

/** Query defaults: no retries, no refetch on focus or interval, data never stale. */
export function createQueryClient(): QueryClient {
  // A 401 from any call means the session has ended on the server (idle or absolute timeout,
  // logout elsewhere): the current user becomes null and the auth gate shows the sign-in screen.
  // A failed sign-in also answers 401, while the user is already null, which changes nothing.
  const signOutOnUnauthorized = (error: unknown) => {
    if (isUnauthorized(error) && queryClient.getQueryData(queryKeys.user) != null) {
      queryClient.setQueryData(queryKeys.user, null);
    }
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: signOutOnUnauthorized }),
    mutationCache: new MutationCache({ onError: signOutOnUnauthorized }),
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  // Every way the current user changes (the check on load, a sign-in, a logout, a session that
  // ended) passes through its query: the hint for the next visit follows it.
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.query.queryHash !== USER_QUERY_HASH) return;
    rememberSignedIn(event.query.state.data != null);
  });
  return queryClient;
}
