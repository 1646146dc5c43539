import { useMutation, useQueryClient } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import { toast } from '../../../components/ui/use-toast';
import { api, describeError } from '../../../lib/api-client';

/**
 * 'Use Different Account' (force logout): the server ends the session and forgets
 * this device, every cached answer goes, and the page reloads into the standard login.
 */
export function useForceLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(authRoutes.clearSession),
    onSuccess: () => {
      queryClient.clear();
      window.location.reload();
    },
    onError: (error) => {
      toast({ title: 'Error', description: describeError(error, 'Could not switch account. Please try again.'), variant: 'destructive' });
    },
  });
}
