import { useMutation } from '@tanstack/react-query';
import type { ForgotPinRequest } from '../../../../shared/contract/auth';
import { AUTH_PATHS } from './auth-endpoints';
import type { MessageResponse } from '../../../../shared/contract/common';
import { toast } from '../../../components/ui/use-toast';
import { ApiRequestError, apiJson } from '../../../lib/api-client';

export function requestPinReset(payload: ForgotPinRequest): Promise<MessageResponse> {
  return apiJson<MessageResponse>('POST', AUTH_PATHS.forgotPin, payload);
}

/** Spec section 8: success and refusal carry the server's message; a network failure says 'Failed to reset PIN'. */
export function useForgotPin({ onRequested }: { onRequested: () => void }) {
  return useMutation({
    mutationFn: requestPinReset,
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
