import { useMutation } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import type { ForgotPinRequest } from '../../../../common/contract/auth';
import { toast } from '../../../components/ui/use-toast';
import { ApiRequestError, api } from '../../../lib/api-client';

/** Success and refusal carry the server's message; a network failure says 'Failed to reset PIN'. */
export function useForgotPin({ onRequested }: { onRequested: () => void }) {
  return useMutation({
    mutationFn: (payload: ForgotPinRequest) => api(authRoutes.forgotPin, { body: payload }),
    onSuccess: (answer) => {
      toast({ title: 'PIN Reset Successful', description: answer.message });
      onRequested();
    },
    onError: (error) => {
      if (error instanceof ApiRequestError) {
        toast({ title: 'PIN Reset Failed', description: error.serverMessage ?? error.message, variant: 'destructive' });
      } else {
        toast({ title: 'Error', description: 'Failed to reset PIN', variant: 'destructive' });
      }
    },
  });
}
