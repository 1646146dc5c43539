import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PIN_RESET_POLL_MS, adminRoutes } from '../../../../common/api/admin';
import { toast } from '../../../components/ui/use-toast';
import { ApiRequestError, api } from '../../../lib/api-client';
import { refetchChangedBy } from '../../../lib/live-invalidation';
import { queryKeys } from '../../../lib/query-keys';
import { useAdminUnlock } from '../admin-unlock';

/**
 * Members' 'Forgot PIN' requests. Polled while the tab is shown (the tab's content exists only
 * then), on top of the live events, so a request filed during a stream gap still shows up.
 */
export function usePinResetRequests() {
  return useQuery({
    queryKey: queryKeys.pinResets,
    queryFn: ({ signal }) => api(adminRoutes.pinResetRequests, undefined, { signal }),
    refetchInterval: PIN_RESET_POLL_MS,
    refetchOnMount: 'always',
  });
}

/** Clears the member's PIN and ends their sessions; the answer is the fresh enrollment link to hand over. */
export function useResolvePinReset(requestId: number) {
  const queryClient = useQueryClient();
  const { passwordRefused } = useAdminUnlock();
  return useMutation({
    mutationFn: (adminPassword: string) => api(adminRoutes.resolvePinReset, { params: { id: requestId }, body: { adminPassword } }),
    onSuccess: async (result) => {
      toast({ title: 'PIN Reset Successful', description: result.message });
      await refetchChangedBy(queryClient, { type: 'pin-resets.changed' });
    },
    onError: (error) => {
      if (passwordRefused(error)) return;
      // The server said why (already resolved); otherwise it never answered.
      if (error instanceof ApiRequestError && error.serverMessage !== undefined) {
        toast({ title: 'PIN Reset Failed', description: error.serverMessage, variant: 'destructive' });
      } else {
        toast({ title: 'Error', description: 'Failed to resolve PIN reset', variant: 'destructive' });
      }
    },
  });
}
