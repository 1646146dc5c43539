import { useMutation } from '@tanstack/react-query';
import { authRoutes } from '../../../../common/api/auth';
import type { ForgotPinRequest } from '../../../../common/contract/auth';
import { toast } from '../../../components/ui/use-toast';
import { ApiRequestError, api } from '../../../lib/api-client';

/** Success and refusal carry the server's message; a network failure says 'Failed to send the request'. */
export function useForgotPin({ onRequested }: { onRequested: () => void }) {
  return useMutation({
    mutationFn: (payload: ForgotPinRequest) => api(authRoutes.forgotPin, { body: payload }),
    onSuccess: (answer) => {
      // Only a request was filed: nothing is reset until the admin sends the link.
      toast({ title: 'Request sent', description: answer.message });
      onRequested();
    },
    onError: (error) => {
      if (error instanceof ApiRequestError) {
        toast({ title: 'Request not sent', description: error.serverMessage ?? error.message, variant: 'destructive' });
      } else {
        toast({ title: 'Error', description: 'Failed to send the request', variant: 'destructive' });
      }
    },
  });
}
