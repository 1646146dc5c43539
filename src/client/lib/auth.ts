import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '../../shared/contract/user';
import { toast } from '../components/ui/use-toast';
import { apiRequest, describeError, getQueryFn } from './api-client';

export const currentUserQueryKey = ['/api/user'] as const;

/** The one place the client learns who is signed in (null when signed out). */
export function useCurrentUser() {
  const query = useQuery({
    queryKey: currentUserQueryKey,
    queryFn: getQueryFn<CurrentUser>({ on401: 'returnNull' }),
    // Spec section 7: cached 5 minutes, no retry, no refetch on focus.
    gcTime: 5 * 60_000,
    staleTime: 5 * 60_000,
  });
  return { user: query.data ?? null, isLoading: query.isLoading };
}

/** Drops every cached answer except the current user's: what a signed-out screen may still hold. */
export function forgetSignedInData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
}

export function isAdmin(user: CurrentUser | null): boolean {
  return user?.role === 'admin';
}

/** Spec section 8: 'Logged out' toast; the user becomes null. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/logout'),
    onSuccess: () => {
      // The gate shows the sign-in screen at once; nothing the member saw stays in memory.
      queryClient.setQueryData(currentUserQueryKey, null);
      forgetSignedInData(queryClient);
      toast({ title: 'Logged out', description: "You've been successfully logged out." });
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: describeError(error, 'Please try again.'), variant: 'destructive' });
    },
  });
}
