import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { authRoutes } from '../../common/api/auth';
import type { CurrentUser } from '../../common/contract/user';
import { toast } from '../components/ui/use-toast';
import { api, ApiRequestError, describeError } from './api-client';
import { queryKeys } from './query-keys';
import { flushActivity } from './use-activity-tracking';

/** The signed-in member, or null when the server says nobody is (401). */
async function currentUserOrNull(signal: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await api(authRoutes.user, undefined, { signal });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

/** The one place the client learns who is signed in (null when signed out). */
export function useCurrentUser() {
  const query = useQuery({
    queryKey: queryKeys.user,
    queryFn: ({ signal }) => currentUserOrNull(signal),
    // Cached 5 minutes, no retry, no refetch on focus.
    gcTime: 5 * 60_000,
    staleTime: 5 * 60_000,
  });
  return { user: query.data ?? null, isLoading: query.isLoading };
}

/** Drops every cached answer except the current user's: what a signed-out screen may still hold. */
export function forgetSignedInData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.user[0] });
}

/** Whether the server lets this member into the admin panel. */
export function canAdminister(user: CurrentUser | null): boolean {
  return user?.permissions.canAdminister === true;
}

/** 'Logged out' toast; the user becomes null. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    // The last active time goes first: once the session has ended, the server would refuse it.
    mutationFn: async () => {
      await flushActivity();
      return api(authRoutes.logout);
    },
    onSuccess: () => {
      // The gate shows the sign-in screen at once; nothing the member saw stays in memory.
      queryClient.setQueryData(queryKeys.user, null);
      forgetSignedInData(queryClient);
      toast({ title: 'Logged out', description: "You've been successfully logged out." });
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
